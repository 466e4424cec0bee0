/**
 * What admission knows of an API key: its record and its account, cached per store under the access revision
 * (src/store/revisions.ts). A request whose key is cached reads only the revision (in memory on lowdb, one statement
 * on PostgreSQL); when the revision has moved since the entry was made (any key or account was written, here or on
 * another instance), the key and its account are read afresh. Revocation, deletion, a scope or tier change and an
 * account's suspension are therefore seen by the very next request, with no time window.
 *
 * The revision is read before the records, so an entry is never labelled newer than what it holds: a write landing
 * between the two reads leaves the entry labelled with the older revision, and the next request reads again.
 */
import type { Principal } from '../accounts/principal.js';
import { ACCOUNTS, type AccountRecord } from '../accounts/records.js';
import { API_KEYS, hashKey, keyPrincipal, type ApiKeyRecord } from '../keys/keys.js';
import { keyBudget, rememberBudget } from './budget.js';
import { isRevisioned, type RevisionedStore, type Store } from '../store/port.js';

/** A key's record and its account, as stored at one revision. Frozen: shared by every request with the key. */
export interface KeyLookup {
  /** The key's record, undefined when no key has this value. */
  record: ApiKeyRecord | undefined;
  /** The account the key belongs to, undefined when there is none. */
  account: AccountRecord | undefined;
  /** The key's principal (frozen), its budget remembered (./budget.ts); undefined without a record. */
  principal: Principal | undefined;
  /** When the key was last recorded as used (ms; -Infinity for never), so a cached key's touch costs no parsing. */
  lastUsedMs: number;
}

interface Entry extends KeyLookup {
  revision: number;
}

/** Entries per store; past it the cache starts over (a key in use is read again on its next request). */
export const KEY_CACHE_SIZE = 10_000;

const caches = new WeakMap<Store, Map<string, Entry>>();

function cacheOf(store: Store): Map<string, Entry> {
  let cache = caches.get(store);
  if (!cache) caches.set(store, (cache = new Map()));
  return cache;
}

function freeze<T extends object | undefined>(doc: T): T {
  if (!doc) return doc;
  for (const value of Object.values(doc)) if (value && typeof value === 'object') Object.freeze(value);
  return Object.freeze(doc);
}

/** Reads the key and its account (two store reads) and derives what each request with the key needs. */
async function read(store: Store, keyHash: string): Promise<KeyLookup> {
  const [found] = await store.findBy<ApiKeyRecord>(API_KEYS, 'keyHash', keyHash);
  const account = freeze(found ? await store.get<AccountRecord>(ACCOUNTS, found.ownerId) : undefined);
  const record = freeze(found);
  let principal: Principal | undefined;
  if (record) {
    principal = Object.freeze(keyPrincipal(record));
    rememberBudget(principal, keyBudget(record, account));
  }
  const lastUsedMs = record?.lastUsedAt ? Date.parse(record.lastUsedAt) : Number.NEGATIVE_INFINITY;
  return { record, account, principal, lastUsedMs };
}

async function refresh(store: Store, keyHash: string, revision: number): Promise<KeyLookup> {
  const cache = cacheOf(store);
  const found = await read(store, keyHash);
  if (!found.record) {
    cache.delete(keyHash);
    return found;
  }
  if (cache.size >= KEY_CACHE_SIZE && !cache.has(keyHash)) cache.clear();
  const entry: Entry = { ...found, revision };
  cache.set(keyHash, entry);
  return entry;
}

/**
 * The last key each connection presented, with its hash: a client sends the same key on each request of its
 * connection, and hashing it is the dearest step of a cached key's admission. Held as long as the connection (the key
 * is in that connection's requests anyway), never shared between connections.
 */
const connectionKeys = new WeakMap<object, { presented: string; keyHash: string }>();

function connectionKeyHash(connection: object, presented: string): string {
  const last = connectionKeys.get(connection);
  if (last !== undefined && last.presented === presented) return last.keyHash;
  const keyHash = hashKey(presented);
  connectionKeys.set(connection, { presented, keyHash });
  return keyHash;
}

/**
 * The record of the key with this value and its account, from the cache when the access revision has not moved,
 * else from the store. Keys that match no record are not cached (guesses must not fill the cache). The caller
 * checks revocation, expiry, address and account status on what it gets: they are never cached as answers. Answers
 * without a promise when the revision is held in memory and the key is cached (the usual request on lowdb).
 * `connection` (an HTTP request's socket: REST or MCP) lets the key's hash be remembered for the connection's next
 * request.
 */
export function lookupKey(store: Store, presented: string, connection?: object): KeyLookup | Promise<KeyLookup> {
  const keyHash = connection ? connectionKeyHash(connection, presented) : hashKey(presented);
  if (!isRevisioned(store)) return read(store, keyHash);
  const revision = store.accessRevision();
  // Held in memory (lowdb): a cached key is answered without a promise.
  if (typeof revision === 'number') return cachedAt(store, keyHash, revision) ?? refresh(store, keyHash, revision);
  return revision.then((r) => cachedAt(store, keyHash, r) ?? refresh(store, keyHash, r));
}

function cachedAt(store: RevisionedStore, keyHash: string, revision: number): KeyLookup | undefined {
  const hit = caches.get(store)?.get(keyHash);
  return hit && hit.revision === revision ? hit : undefined;
}

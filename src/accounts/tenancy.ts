/**
 * The one place where the account of a record is checked.
 *
 * Every collection that holds account data is declared here with the field
 * naming its account. Handlers never receive the raw store: they get a view
 * bound to the caller's account (`accountStore`), which
 *   - answers `undefined` for another account's record (so it is a 404, the
 *     same as a missing one),
 *   - lists and finds only the caller's records,
 *   - refuses to write a record of another account, or to overwrite or delete
 *     another account's record with the same id,
 *   - refuses collections that are not declared (server secrets, or a new
 *     collection someone forgot to declare): a loud failure, never a leak.
 * Operator tools that work across accounts (account management) declare it
 * and receive the raw store as well; nothing else does.
 */
import {
  NotIndexedError,
  type Doc,
  type IndexValue,
  type Store,
  type TransactOptions,
  type Tx,
} from '../store/port.js';
import { isAscending } from '../core/ids.js';

/** Collection → the field holding the account id of each record. */
const TENANT_FIELD = new Map<string, string>();

/** Declares that every record of `collection` belongs to the account named in `field`. */
export function declareTenantCollection(collection: string, field = 'ownerId'): void {
  const known = TENANT_FIELD.get(collection);
  if (known !== undefined && known !== field)
    throw new Error(`collection ${collection} is already declared with field ${known}`);
  TENANT_FIELD.set(collection, field);
}

/** The declared account field of a collection (throws for an undeclared collection). */
export function tenantField(collection: string): string {
  const field = TENANT_FIELD.get(collection);
  if (field === undefined) {
    throw new Error(
      `collection ${JSON.stringify(collection)} is not declared as account data (see src/accounts/tenancy.ts); refusing access`,
    );
  }
  return field;
}

// Generated contracts and their deployments (src/contracts/stored.ts, src/contracts/deployments.ts): declared here
// because the contracts domain imports no other domain but the law.
declareTenantCollection('contracts');
declareTenantCollection('contract_deployments');

export function tenantCollections(): ReadonlyMap<string, string> {
  return TENANT_FIELD;
}

/** Thrown when code tries to write a record of another account through an account view: a programming error. */
export class TenancyError extends Error {
  override name = 'TenancyError';
}

function owns(doc: Doc | undefined, field: string, accountId: string): boolean {
  return doc !== undefined && doc[field] === accountId;
}

/** Up to this many ids of an indexed value, an account's are told by reading the records (AccountTx.idsBy). */
const FEW_TO_READ = 8;

/**
 * The ids of `ids` also in `among`, in the order of `ids`. Indexes usually hand ids out in ascending order, and two
 * such lists are merged by comparing them (a tenth of hashing thousands of ids into a Set); others go through a Set.
 */
function intersect(ids: readonly string[], among: readonly string[]): string[] {
  const out: string[] = [];
  if (isAscending(ids) && isAscending(among)) {
    for (let i = 0, j = 0; i < ids.length && j < among.length; ) {
      const a = ids[i]!;
      const b = among[j]!;
      if (a === b) {
        out.push(a);
        i++;
        j++;
      } else if (a < b) i++;
      else j++;
    }
    return out;
  }
  const set = new Set(among);
  for (const id of ids) if (set.has(id)) out.push(id);
  return out;
}

/** A transaction seen through one account. */
class AccountTx implements Tx {
  constructor(
    private readonly tx: Tx,
    readonly accountId: string,
  ) {}

  async get<T extends Doc>(collection: string, id: string): Promise<T | undefined> {
    const field = tenantField(collection);
    const doc = await this.tx.get<T>(collection, id);
    return owns(doc, field, this.accountId) ? doc : undefined;
  }

  /**
   * The account's records among those with `field === value`. A value other accounts' records share too is found
   * through the ids (see idsBy), so only the account's own records are copied, however many others hold it.
   */
  async findBy<T extends Doc>(collection: string, field: string, value: IndexValue): Promise<T[]> {
    const own = tenantField(collection);
    if (field === own) return value === this.accountId ? this.tx.findBy<T>(collection, field, value) : [];
    const ids = await this.tx.idsBy(collection, field, value);
    const accounts = ids.length <= FEW_TO_READ ? undefined : await this.ownIds(collection, own);
    if (!accounts) return (await this.tx.findBy<T>(collection, field, value)).filter((d) => d[own] === this.accountId);
    const found: T[] = [];
    for (const id of intersect(ids, accounts)) {
      const d = await this.tx.get<T>(collection, id);
      if (d?.[own] === this.accountId) found.push(d);
    }
    return found;
  }

  /**
   * The account's ids among those with `field === value`, reading as few records as it can: a value other accounts'
   * records share too (an address each registered for a contract of its own) is answered by intersecting the two
   * indexes' ids, so their number never costs this account a copy of their records.
   */
  async idsBy(collection: string, field: string, value: IndexValue): Promise<string[]> {
    const own = tenantField(collection);
    if (field === own) return value === this.accountId ? this.tx.idsBy(collection, field, value) : [];
    const ids = await this.tx.idsBy(collection, field, value);
    const accounts = ids.length <= FEW_TO_READ ? undefined : await this.ownIds(collection, own);
    if (!accounts) {
      const mine: string[] = [];
      for (const id of ids) if (await this.get(collection, id)) mine.push(id);
      return mine;
    }
    return intersect(ids, accounts);
  }

  /**
   * The account's ids of `collection`, or undefined when the collection has no index on its tenant field (the
   * webhook deliveries, found by subscription and event only): the records are then told apart by reading them.
   */
  private async ownIds(collection: string, own: string): Promise<string[] | undefined> {
    try {
      return await this.tx.idsBy(collection, own, this.accountId);
    } catch (err) {
      if (err instanceof NotIndexedError) return undefined;
      throw err;
    }
  }

  all<T extends Doc>(collection: string): Promise<T[]> {
    return this.findBy<T>(collection, tenantField(collection), this.accountId);
  }

  async *scan<T extends Doc>(collection: string): AsyncIterable<T> {
    yield* await this.all<T>(collection);
  }

  async put<T extends Doc>(collection: string, doc: T): Promise<void> {
    const field = tenantField(collection);
    if (doc[field] !== this.accountId)
      throw new TenancyError(`refusing to write a ${collection} record of another account`);
    const existing = await this.tx.get(collection, doc.id);
    if (existing && !owns(existing, field, this.accountId))
      throw new TenancyError(`refusing to overwrite a ${collection} record of another account`);
    await this.tx.put(collection, doc);
  }

  async delete(collection: string, id: string): Promise<boolean> {
    if (!(await this.get(collection, id))) return false;
    return this.tx.delete(collection, id);
  }
}

/** The store seen through one account. */
class AccountStore implements Store {
  constructor(
    private readonly store: Store,
    readonly accountId: string,
  ) {}

  async get<T extends Doc>(collection: string, id: string): Promise<T | undefined> {
    const field = tenantField(collection);
    const doc = await this.store.get<T>(collection, id);
    return owns(doc, field, this.accountId) ? doc : undefined;
  }

  async findBy<T extends Doc>(collection: string, field: string, value: IndexValue): Promise<T[]> {
    const own = tenantField(collection);
    if (field === own) return value === this.accountId ? this.store.findBy<T>(collection, field, value) : [];
    return (await this.store.findBy<T>(collection, field, value)).filter((d) => d[own] === this.accountId);
  }

  all<T extends Doc>(collection: string): Promise<T[]> {
    return this.findBy<T>(collection, tenantField(collection), this.accountId);
  }

  async count(collection: string): Promise<number> {
    return (await this.all(collection)).length;
  }

  put<T extends Doc>(collection: string, doc: T): Promise<void> {
    return this.transact((tx) => tx.put(collection, doc));
  }

  delete(collection: string, id: string): Promise<boolean> {
    return this.transact((tx) => tx.delete(collection, id));
  }

  transact<R>(fn: (tx: Tx) => Promise<R>, opts?: TransactOptions): Promise<R> {
    return this.store.transact((tx) => fn(new AccountTx(tx, this.accountId)), opts);
  }

  flush(): Promise<void> {
    return this.store.flush();
  }

  compactNow(): Promise<void> {
    return this.store.compactNow();
  }

  close(): Promise<void> {
    return Promise.reject(new TenancyError('an account view cannot close the store'));
  }
}

/** The store as one account sees it: only its own records, in the declared collections. */
export function accountStore(store: Store, accountId: string): Store {
  return new AccountStore(store, accountId);
}

/**
 * The transaction beneath an account view (`tx` itself when it is not one). For the outbox alone: an event of one
 * account is queued, in the same write, for the operator subscriptions that receive every account's events
 * (`accounts: "*"`, src/events/events.ts), which belong to the operator's account. Nothing else uses it.
 */
export function outboxTx(tx: Tx): Tx {
  return tx instanceof AccountTx ? (tx as unknown as { tx: Tx }).tx : tx;
}

/**
 * A transaction as one account sees it (for domain code that runs inside a system transaction); a view of that same
 * account already is one, and is handed back rather than checked twice.
 */
export function accountTx(tx: Tx, accountId: string): Tx {
  if (tx instanceof AccountTx && tx.accountId === accountId) return tx;
  return new AccountTx(tx, accountId);
}

/**
 * A transaction over one account's records in a fixed set of collections, for
 * reading only: what a grant (src/accounts/grants.ts) lets another account see.
 * A write, or a collection the grant does not cover, throws: a programming
 * error, never a silent widening of the grant.
 */
class GrantedTx implements Tx {
  private readonly inner: AccountTx;
  constructor(
    tx: Tx,
    accountId: string,
    private readonly collections: ReadonlySet<string>,
  ) {
    this.inner = new AccountTx(tx, accountId);
  }

  private covered(collection: string): void {
    if (!this.collections.has(collection))
      throw new TenancyError(`this grant does not cover the ${collection} collection`);
  }

  get<T extends Doc>(collection: string, id: string): Promise<T | undefined> {
    this.covered(collection);
    return this.inner.get<T>(collection, id);
  }

  findBy<T extends Doc>(collection: string, field: string, value: IndexValue): Promise<T[]> {
    this.covered(collection);
    return this.inner.findBy<T>(collection, field, value);
  }

  idsBy(collection: string, field: string, value: IndexValue): Promise<string[]> {
    this.covered(collection);
    return this.inner.idsBy(collection, field, value);
  }

  all<T extends Doc>(collection: string): Promise<T[]> {
    this.covered(collection);
    return this.inner.all<T>(collection);
  }

  scan<T extends Doc>(collection: string): AsyncIterable<T> {
    this.covered(collection);
    return this.inner.scan<T>(collection);
  }

  put(): Promise<void> {
    return Promise.reject(new TenancyError('a granted view is read-only'));
  }

  delete(): Promise<boolean> {
    return Promise.reject(new TenancyError('a granted view is read-only'));
  }
}

/** The store as a grantee sees the grantor's records: read-only, the granted collections only. */
class GrantedStore implements Store {
  private readonly view: AccountStore;
  constructor(
    private readonly store: Store,
    readonly accountId: string,
    private readonly collections: ReadonlySet<string>,
  ) {
    this.view = new AccountStore(store, accountId);
  }

  private covered(collection: string): void {
    if (!this.collections.has(collection))
      throw new TenancyError(`this grant does not cover the ${collection} collection`);
  }

  async get<T extends Doc>(collection: string, id: string): Promise<T | undefined> {
    this.covered(collection);
    return this.view.get<T>(collection, id);
  }

  async findBy<T extends Doc>(collection: string, field: string, value: IndexValue): Promise<T[]> {
    this.covered(collection);
    return this.view.findBy<T>(collection, field, value);
  }

  async all<T extends Doc>(collection: string): Promise<T[]> {
    this.covered(collection);
    return this.view.all<T>(collection);
  }

  async count(collection: string): Promise<number> {
    return (await this.all(collection)).length;
  }

  put(): Promise<void> {
    return Promise.reject(new TenancyError('a granted view is read-only'));
  }

  delete(): Promise<boolean> {
    return Promise.reject(new TenancyError('a granted view is read-only'));
  }

  transact<R>(fn: (tx: Tx) => Promise<R>): Promise<R> {
    return this.store.transact((tx) => fn(new GrantedTx(tx, this.accountId, this.collections)), { readOnly: true });
  }

  flush(): Promise<void> {
    return this.store.flush();
  }

  compactNow(): Promise<void> {
    return this.store.compactNow();
  }

  close(): Promise<void> {
    return Promise.reject(new TenancyError('a granted view cannot close the store'));
  }
}

/**
 * Another account's records as a grant shows them: read-only and limited to
 * `collections`. Only src/accounts/grants.ts calls this, after checking that the
 * grant is held by the caller and open now.
 */
export function grantedStore(store: Store, grantorId: string, collections: readonly string[]): Store {
  for (const c of collections) tenantField(c);
  return new GrantedStore(store, grantorId, new Set(collections));
}

/**
 * The key cache (src/access/key-cache.ts) on the embedded store: a key in use costs one read of the access revision
 * per request, and every change to a key or its account (through a tool or written straight to the store) is applied
 * by the very next request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTS, type AccountRecord } from '../../src/accounts/records.js';
import { API_KEYS, type ApiKeyRecord } from '../../src/keys/keys.js';
import { isRevisioned, type Store } from '../../src/store/port.js';
import { REVISIONED_COLLECTIONS } from '../../src/store/revisions.js';
import { FakeClock, startTestServer, type TestServer } from '../helpers.js';
import { keyCall } from '../support/rest.js';

let server: TestServer;
const clock = new FakeClock();
/** Manages the keys of the customer account (partner tier). */
let manager: string;
let customer: string;

beforeAll(async () => {
  server = await startTestServer({ clock, listen: false });
  customer = await server.account({ tier: 'partner' });
  manager = await server.key({ tier: 'partner', scopes: ['contracts', 'webhooks'], ownerId: customer, name: 'm' });
});
afterAll(async () => {
  await server?.close();
});

const call = (method: string, url: string, key: string, payload?: unknown) =>
  keyCall(server.app, method, url, key, payload);

const templates = (key: string) => call('GET', '/api/v1/contracts/templates', key);

/** A new key of the customer account, made through the API, used until it is cached. */
async function cachedKey(scopes: string[] = ['contracts'], tier = 'public'): Promise<{ id: string; key: string }> {
  const made = await call('POST', '/api/v1/api-keys', manager, { name: 'k', scopes, tier });
  expect(made.status).toBe(201);
  const { id, key } = made.body.data as { id: string; key: string };
  // The first use records lastUsedAt (a write, which moves the revision); the second is read afresh; then cached.
  for (let i = 0; i < 3; i++) expect((await templates(key)).status).toBe(200);
  return { id, key };
}

it('the revisioned collections are the ones admission reads', () => {
  expect([...REVISIONED_COLLECTIONS].sort()).toEqual([ACCOUNTS, API_KEYS].sort());
  expect(isRevisioned(server.services.store)).toBe(true);
});

describe('changes apply on the very next request', () => {
  it('a revoked key is refused', async () => {
    const { id, key } = await cachedKey();
    expect((await call('DELETE', `/api/v1/api-keys/${id}`, manager)).status).toBe(200);
    const after = await templates(key);
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('API_KEY_INVALID');
  });

  it('a key revoked or deleted by a write straight to the store is refused', async () => {
    const store = server.services.store;
    const revoked = await cachedKey();
    const record = (await store.get<ApiKeyRecord>(API_KEYS, revoked.id))!;
    await store.put(API_KEYS, { ...record, revokedAt: clock.now().toISOString() });
    expect((await templates(revoked.key)).status).toBe(401);

    const deleted = await cachedKey();
    expect(await store.delete(API_KEYS, deleted.id)).toBe(true);
    expect((await templates(deleted.key)).status).toBe(401);
  });

  it("a key's new scopes apply, both ways", async () => {
    const { id, key } = await cachedKey(['contracts']);
    expect((await call('PATCH', `/api/v1/api-keys/${id}`, manager, { scopes: ['webhooks'] })).status).toBe(200);
    const narrowed = await templates(key);
    expect(narrowed.status).toBe(403);
    expect(narrowed.body.error.code).toBe('INSUFFICIENT_SCOPE');
    expect((await call('PATCH', `/api/v1/api-keys/${id}`, manager, { scopes: ['contracts'] })).status).toBe(200);
    expect((await templates(key)).status).toBe(200);
  });

  it("a key's own limit and its account's tier apply to the next count", async () => {
    const { id, key } = await cachedKey(['contracts'], 'partner');
    expect((await templates(key)).headers['x-ratelimit-limit']).toBe('1000'); // the partner account's budget
    expect((await call('PATCH', `/api/v1/api-keys/${id}`, manager, { rateLimit: { all: 50 } })).status).toBe(200);
    expect((await templates(key)).headers['x-ratelimit-limit']).toBe('50');

    const other = await server.account({ tier: 'partner' });
    const k2 = await server.key({ tier: 'partner', scopes: ['contracts'], ownerId: other });
    for (let i = 0; i < 3; i++) await templates(k2);
    expect((await templates(k2)).headers['x-ratelimit-limit']).toBe('1000');
    const account = (await server.services.store.get<AccountRecord>(ACCOUNTS, other))!;
    await server.services.store.put(ACCOUNTS, { ...account, tier: 'public' });
    expect((await templates(k2)).headers['x-ratelimit-limit']).toBe('100');
  });

  it("an account's suspension refuses its cached keys, and re-activation lets them in", async () => {
    const other = await server.account({ tier: 'partner' });
    const key = await server.key({ tier: 'public', scopes: ['contracts'], ownerId: other });
    for (let i = 0; i < 3; i++) expect((await templates(key)).status).toBe(200);
    expect((await call('DELETE', `/api/v1/accounts/${other}`, server.adminKey)).status).toBe(200);
    const refused = await templates(key);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('ACCOUNT_SUSPENDED');
    expect((await call('PATCH', `/api/v1/accounts/${other}`, server.adminKey, { status: 'active' })).status).toBe(200);
    expect((await templates(key)).status).toBe(200);
  });
});

/** Counts the store's reads (the revision included) while passing everything through. */
function countingStore(store: Store): { store: Store; reads: Record<string, number> } {
  const reads: Record<string, number> = {};
  const READS = new Set(['get', 'findBy', 'all', 'count', 'transact', 'accessRevision']);
  const counted = new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof prop !== 'string' || typeof value !== 'function') return value;
      if (!READS.has(prop)) return value.bind(target);
      return (...args: unknown[]) => {
        reads[prop] = (reads[prop] ?? 0) + 1;
        return value.apply(target, args);
      };
    },
  });
  return { store: counted, reads };
}

describe('store reads per request', () => {
  it('a cached key costs one read, of the revision; a changed one is read again', async () => {
    const raw = server.services.store;
    const counting = countingStore(raw);
    server.services.store = counting.store;
    try {
      const { id, key } = await cachedKey();
      for (const k of Object.keys(counting.reads)) delete counting.reads[k];
      const N = 5;
      for (let i = 0; i < N; i++) expect((await templates(key)).status).toBe(200);
      const total = Object.values(counting.reads).reduce((a, b) => a + b, 0);
      expect(total).toBeLessThanOrEqual(N);
      expect(counting.reads.accessRevision).toBe(N);
      expect(counting.reads.findBy ?? 0).toBe(0);
      expect(counting.reads.get ?? 0).toBe(0);

      // A write to the key moves the revision: the next request reads the key and its account again.
      expect((await call('PATCH', `/api/v1/api-keys/${id}`, manager, { name: 'renamed' })).status).toBe(200);
      for (const k of Object.keys(counting.reads)) delete counting.reads[k];
      expect((await templates(key)).status).toBe(200);
      expect(counting.reads.findBy).toBe(1);
      expect(counting.reads.get).toBe(1);
    } finally {
      server.services.store = raw;
    }
  });

  it('a store without a revision is read on every request, and still answers', async () => {
    const raw = server.services.store;
    // A plain object passing the port's methods through, without accessRevision: no caching.
    const plain: Store = {
      get: (c, id) => raw.get(c, id),
      findBy: (c, f, v) => raw.findBy(c, f, v),
      all: (c) => raw.all(c),
      count: (c) => raw.count(c),
      put: (c, d) => raw.put(c, d),
      delete: (c, id) => raw.delete(c, id),
      transact: (fn, opts) => raw.transact(fn, opts),
      flush: () => raw.flush(),
      compactNow: () => raw.compactNow(),
      close: () => raw.close(),
    };
    const counting = countingStore(plain);
    server.services.store = counting.store;
    try {
      const { id, key } = await cachedKey();
      for (const k of Object.keys(counting.reads)) delete counting.reads[k];
      expect((await templates(key)).status).toBe(200);
      expect(counting.reads.findBy).toBe(1);
      expect((await call('DELETE', `/api/v1/api-keys/${id}`, manager)).status).toBe(200);
      expect((await templates(key)).status).toBe(401);
    } finally {
      server.services.store = raw;
    }
  });
});

/**
 * What a start reads of the data: the migrations every start runs (the sealing of secrets an earlier version left in
 * plaintext, and an account for each owner of data from before accounts) read every secret and every key once, then
 * record that they are done, so later starts read neither: a start no longer grows with the number of keys,
 * subscriptions and vaults.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tenantCollections } from '../../src/accounts/tenancy.js';
import { FakeClock, tmpStore } from '../helpers.js';
import { loadMasterKey, sealedFieldsLine, type LoadedMasterKey } from '../../src/core/keyring.js';
import { API_KEYS, buildKey } from '../../src/keys/keys.js';
import { migrateOwners } from '../../src/keys/provision.js';
import { attachKeyring } from '../../src/store/master-key.js';
import type { Store } from '../../src/store/port.js';
import '../../src/webhooks/index.js';
import { countReads } from '../support/store-wrap.js';

const clock = new FakeClock(Date.UTC(2026, 3, 1));
let store: Store;
let loaded: LoadedMasterKey;
let cleanup: () => Promise<void>;
const owned = () => [...tenantCollections().entries()].filter(([, f]) => f === 'ownerId').map(([c]) => c);

beforeAll(async () => {
  let dir: string;
  ({ store, dir, cleanup } = await tmpStore('svc-start-reads-'));
  loaded = await loadMasterKey({ dataDir: dir, shared: false }, () => {});
  // As an earlier version left them: plaintext signing secrets, keys of owners without accounts.
  await store.transact(async (tx) => {
    for (let i = 0; i < 3; i++)
      await tx.put('webhooks', {
        id: `whk_${i}`,
        ownerId: 'own_OLD',
        secret: `whsec_plain_${i}`,
        previousSecret: null,
      });
    for (const tier of ['internal', 'partner'] as const)
      await tx.put(API_KEYS, buildKey({ name: tier, tier, scopes: ['all'], ownerId: `own_${tier}` }, clock).record);
  });
});
afterAll(() => cleanup?.());

async function reading<T>(collection: string, run: () => Promise<T>): Promise<{ result: T; reads: number }> {
  const reads = countReads(store, collection);
  try {
    return { result: await run(), reads: reads.count() };
  } finally {
    reads.restore();
  }
}

it('seals and migrates at the first start, then reads no secret and no key at the next', async () => {
  const first = await reading('webhooks', () => attachKeyring(store, loaded, clock.now()));
  expect(first.result.migrated).toBe(3);
  expect(first.reads).toBe(3);
  expect((await store.get<{ id: string; secret: string }>('webhooks', 'whk_0'))!.secret).toMatch(/^svcenc1\./);
  const owners = await reading(API_KEYS, () => migrateOwners(store, clock, owned()));
  expect(owners.result).toBeGreaterThanOrEqual(2);
  expect(owners.reads).toBeGreaterThanOrEqual(2);

  const again = await reading('webhooks', () => attachKeyring(store, loaded, clock.now()));
  expect(again).toMatchObject({ result: { migrated: 0 }, reads: 0 });
  expect(await reading(API_KEYS, () => migrateOwners(store, clock, owned()))).toEqual({ result: 0, reads: 0 });
});

it('reads the secrets again, once, when the sealed fields are not those the last pass sealed', async () => {
  // A version that declares another sealed field: its values may be plaintext still.
  const keyring = (await store.get<{ id: string; sealed?: string }>('system', 'keyring'))!;
  expect(keyring.sealed).toBe(sealedFieldsLine());
  await store.put('system', { ...keyring, sealed: 'webhooks:secret|' });
  const pass = await reading('webhooks', () => attachKeyring(store, loaded, clock.now()));
  expect(pass).toMatchObject({ result: { migrated: 0 }, reads: 3 });
  expect((await store.get<{ id: string; sealed?: string }>('system', 'keyring'))!.sealed).toBe(sealedFieldsLine());
  expect((await reading('webhooks', () => attachKeyring(store, loaded, clock.now()))).reads).toBe(0);
});

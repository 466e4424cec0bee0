import type { Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORE_INDEXES } from '../../src/app.js';
import { systemClock } from '../../src/core/clock.js';
import { EVENTS, type EventRecord } from '../../src/events/events.js';
import { MAIL, type MailRecord } from '../../src/events/mail.js';
import { openLowdbStore, type Store } from '../../src/store/index.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { WATCH_LEASES, type LeaseRecord } from '../../src/watch/lease.js';
import { Watcher } from '../../src/watch/watcher.js';
import { tmpDir } from '../helpers.js';
import { dropSchemas, randomSchema, testDatabaseUrl } from '../support/engines.js';
import { SwitchChain, seedWatched } from '../support/switch-chain.js';

// Two watchers on one store (two instances on PostgreSQL, two in one process on lowdb): one leads the network and
// the other waits; when the leader stops, the other takes over; every event is recorded once.

const DAY = 86_400;
const OWNER = 'own_WATCH000000000000000000000';
const HEIR = '0x52908400098527886E0F7030069857D2E4169EE7' as Hex;

async function until(what: string, probe: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.each(['lowdb', 'postgres'] as const)('one leader per network (%s)', (engine) => {
  let stores: Store[] = [];
  let cleanup: () => Promise<void> = async () => undefined;
  const chain = new SwitchChain();
  let ids: string[] = [];

  beforeAll(async () => {
    if (engine === 'postgres') {
      const url = await testDatabaseUrl();
      const schema = randomSchema('svc_watch');
      const a = await openPostgresStore({ url, schema, indexes: STORE_INDEXES, poolSize: 4 });
      const b = await openPostgresStore({ url, schema, indexes: STORE_INDEXES, poolSize: 4 });
      stores = [a, b];
      cleanup = async () => {
        for (const s of stores) await s.close();
        await dropSchemas(url, schema);
      };
    } else {
      const dir = await tmpDir('svc-watch-');
      const s = await openLowdbStore({ dataDir: dir.dir, indexes: STORE_INDEXES });
      stores = [s, s];
      cleanup = async () => {
        await s.close();
        await dir.cleanup();
      };
    }
    ids = await seedWatched(stores[0]!, chain, OWNER, 3, [HEIR]);
    // The owner's user, with a confirmed address: each warning is mailed to it too.
    await stores[0]!.transact((tx) =>
      tx.put('users', {
        id: 'usr_WATCH000000000000000000000',
        ownerId: OWNER,
        email: 'owner@example.test',
        name: 'Owner',
        emailVerified: true,
        locale: 'es',
        createdAt: new Date().toISOString(),
      }),
    );
  });
  afterAll(() => cleanup());

  const watcherOn = (store: Store) =>
    new Watcher({
      store,
      clock: systemClock,
      networks: ['31337'],
      pollMs: 20,
      confirmations: 2,
      leaseMs: 60_000,
      readerFor: async () => chain.reader(),
    });

  const events = async () =>
    (await stores[0]!.findBy<EventRecord>(EVENTS, 'ownerId', OWNER)).filter((e) =>
      ids.includes(e.data.deploymentId as string),
    );

  it('leads with one watcher, fails over at a clean stop, and records each event once', async () => {
    const a = watcherOn(stores[0]!);
    const b = watcherOn(stores[1]!);
    a.start();
    b.start();
    await until('a leader', () => a.stats.polls + b.stats.polls >= 5);
    await until('a follower', () => a.stats.notLeader + b.stats.notLeader >= 5);
    const [leader, other] = a.stats.polls > 0 ? [a, b] : [b, a];
    expect(other.stats.polls).toBe(0);
    const lease = await stores[0]!.get<LeaseRecord>(WATCH_LEASES, 'lease:31337');
    expect(lease?.holder).toBe(leader.id);

    // 31 days on: one 30-day warning per deployment.
    chain.advance(31 * DAY);
    await until('the warnings', async () => (await events()).length === 3);

    // The leader stops: the other leads at once (the lease was given up), and sends the reset, not the warnings.
    await leader.stop();
    chain.checkIn(`0x${(1).toString(16).padStart(40, 'a')}` as Hex);
    chain.advance(DAY);
    await until('the reset', async () => (await events()).some((e) => e.type === 'deadman.reset'));
    expect(other.stats.polls).toBeGreaterThan(0);

    // Past the deadline of the two that did not check in: triggered once each (and the one that checked in is 29 days
    // from its new deadline: its 30-day warning for that deadline); then a claim.
    chain.advance(30 * DAY);
    await until(
      'the triggers',
      async () => (await events()).filter((e) => e.type === 'deadman.triggered').length === 2,
    );
    chain.claim(`0x${(2).toString(16).padStart(40, 'a')}` as Hex, HEIR, 5n * 10n ** 18n);
    chain.advance(60);
    await until('the claim', async () => (await events()).some((e) => e.type === 'deadman.claimed'));
    const polls = other.stats.polls;
    chain.advance(60);
    await until('more polls', () => other.stats.polls > polls + 3);
    await other.stop();

    const counts: Record<string, number> = {};
    for (const e of await events()) counts[e.type] = (counts[e.type] ?? 0) + 1;
    expect(counts).toEqual({
      'deadman.warning': 4,
      'deadman.reset': 1,
      'deadman.triggered': 2,
      'deadman.claimed': 1,
    });
    // Each warning went to the owner's confirmed address once, in the owner's language, with the contract named.
    const reminders = (await stores[0]!.findBy<MailRecord>(MAIL, 'ownerId', OWNER)).filter(
      (m) => m.template === 'contract-checkin-reminder',
    );
    expect(reminders).toHaveLength(4);
    expect(reminders.every((m) => m.to === 'owner@example.test' && m.locale === 'es')).toBe(true);
    const warned = (await events()).filter((e) => e.type === 'deadman.warning');
    expect(new Set(reminders.map((m) => m.data?.['contractAddress']))).toEqual(
      new Set(warned.map((e) => e.data.contractAddress as string)),
    );
    const keys = (await events()).map(
      (e) => `${e.type}:${e.data.deploymentId}:${e.data.deadline ?? ''}:${e.data.amount ?? ''}`,
    );
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('two watchers reading the same state at once (no lease) still record each event once', async () => {
    const before = (await events()).length;
    const fresh = await seedWatched(stores[0]!, chain, OWNER, 4, [HEIR]);
    ids.push(...fresh);
    const a = watcherOn(stores[0]!);
    const b = watcherOn(stores[1]!);
    await Promise.all([a.pollOnce('31337'), b.pollOnce('31337')]);
    chain.advance(31 * DAY);
    const [ra, rb] = await Promise.all([a.pollOnce('31337'), b.pollOnce('31337')]);
    expect(ra.failed + rb.failed).toBe(0);
    const added = (await events()).slice(before).filter((e) => fresh.includes(e.data.deploymentId as string));
    expect(added.map((e) => e.type)).toEqual(Array(4).fill('deadman.warning'));
    expect(new Set(added.map((e) => e.data.deploymentId)).size).toBe(4);
    // Four more reminders (the first test's four, plus one per new warning), not eight: the mail goes with the event.
    const mailed = (await stores[0]!.findBy<MailRecord>(MAIL, 'ownerId', OWNER)).filter(
      (m) => m.template === 'contract-checkin-reminder',
    );
    expect(mailed).toHaveLength(4 + 4);
  });
});

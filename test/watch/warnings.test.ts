import type { Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPLOYMENTS, type DeploymentRecord } from '../../src/contracts/deployments.js';
import { EVENTS, type EventRecord } from '../../src/events/events.js';
import { MAIL, type MailRecord } from '../../src/events/mail.js';
import type { Store } from '../../src/store/index.js';
import { tmpStore } from '../helpers.js';
import { SwitchChain, seedWatched, switchWatcher } from '../support/switch-chain.js';

// What the owner hears before a deadline, and after a cancel, on the in-memory chain: a lead time as long as the
// period (30 days for a 30-day switch) is never announced right after the deployment or a check-in; each lead time
// warns once per period when crossed, with the whole days really left; a cancelled contract is reported once as
// cancelled, not as a check-in, and is warned about no more (nor mailed).

const DAY = 86_400;
const OWNER = 'own_WARN0000000000000000000000';
const HEIR = '0x52908400098527886E0F7030069857D2E4169EE7' as Hex;

describe('warnings and cancels, read by the watcher', () => {
  let store: Store;
  let cleanup: () => Promise<void>;
  const chain = new SwitchChain();

  beforeAll(async () => {
    ({ store, cleanup } = await tmpStore('svc-watch-warn-'));
    // The owner's user, with a confirmed address: each warning is mailed to it.
    await store.transact((tx) =>
      tx.put('users', {
        id: 'usr_WARN0000000000000000000000',
        ownerId: OWNER,
        email: 'owner@example.test',
        name: 'Owner',
        emailVerified: true,
        locale: 'en',
        createdAt: new Date().toISOString(),
      }),
    );
  });
  afterAll(() => cleanup());

  const watcher = () => switchWatcher(store, chain);
  const eventsOf = async (id: string) =>
    (await store.findBy<EventRecord>(EVENTS, 'ownerId', OWNER))
      .filter((e) => e.data.deploymentId === id)
      .map((e) => ({ type: e.type, data: e.data }));
  const reminders = async () =>
    (await store.findBy<MailRecord>(MAIL, 'ownerId', OWNER)).filter((m) => m.template === 'contract-checkin-reminder');
  const addressOf = async (id: string) => (await store.get<DeploymentRecord>(DEPLOYMENTS, id))!.address as Hex;

  it('warns a 30-day switch once at 7 days, not after its deployment nor its check-ins', async () => {
    const [id] = await seedWatched(store, chain, OWNER, 1, [HEIR], 30);
    const w = watcher();
    // Right after the deployment: the 30-day lead time is the whole period, so nothing is due.
    expect(await w.pollOnce('31337')).toMatchObject({ read: 1, events: 0, failed: 0 });
    chain.advance(60);
    expect(await w.pollOnce('31337')).toMatchObject({ events: 0 });

    // The owner checks in twice within minutes: two resets, no warning and no reminder.
    for (let i = 0; i < 2; i++) {
      chain.advance(120);
      chain.checkIn(await addressOf(id!));
      chain.advance(60);
      expect(await w.pollOnce('31337')).toMatchObject({ events: 1, failed: 0 });
    }
    expect((await eventsOf(id!)).map((e) => e.type)).toEqual(['deadman.reset', 'deadman.reset']);
    expect(await reminders()).toHaveLength(0);

    // 23 days and a minute after the last check-in, 6 days and 23 hours 59 minutes are left: the 7-day warning,
    // saying 6 (whole days, rounded down), once, with one reminder.
    const lastCheckIn = (await store.get<DeploymentRecord>(DEPLOYMENTS, id!))!.watch!.snapshot!.lastCheckIn;
    chain.advance(lastCheckIn + 23 * DAY + 60 - chain.time);
    expect(await w.pollOnce('31337')).toMatchObject({ events: 1 });
    chain.advance(DAY);
    expect(await w.pollOnce('31337')).toMatchObject({ events: 0 });
    const warnings = (await eventsOf(id!)).filter((e) => e.type === 'deadman.warning');
    expect(warnings.map((e) => [e.data.daysLeft, e.data.leadDays, e.data.deadline])).toEqual([
      [6, 7, lastCheckIn + 30 * DAY],
    ]);
    expect(await reminders()).toHaveLength(1);
  });

  it('reports a cancel as deadman.cancelled, not a check-in, and warns no more', async () => {
    const before = (await reminders()).length;
    const [id] = await seedWatched(store, chain, OWNER, 1, [HEIR], 10);
    const w = watcher();
    const types = async () => (await eventsOf(id!)).map((e) => e.type);
    // (The first test's deployment is read in the same polls: its events are its own.)
    await w.pollOnce('31337');
    expect(await types()).toEqual([]);

    chain.advance(DAY);
    chain.cancel(await addressOf(id!));
    const cancelledAt = chain.time;
    chain.advance(60);
    expect(await w.pollOnce('31337')).toMatchObject({ failed: 0 });
    expect(await types()).toEqual(['deadman.cancelled']);
    const snapshot = (await store.get<DeploymentRecord>(DEPLOYMENTS, id!))!.watch!.snapshot!;
    expect(snapshot).toMatchObject({ cancelled: true, triggered: false, lastCheckIn: cancelledAt });

    // 6 days before the deadline the cancel moved, then past it: nothing (a cancelled contract is never released).
    const remindersThen = (await reminders()).length;
    chain.advance(4 * DAY);
    await w.pollOnce('31337');
    chain.advance(10 * DAY);
    await w.pollOnce('31337');
    await watcher().pollOnce('31337');

    const recorded = await eventsOf(id!);
    expect(recorded.map((e) => e.type)).toEqual(['deadman.cancelled']);
    expect(recorded[0]!.data).toMatchObject({ lastCheckIn: cancelledAt, network: '31337', deploymentId: id });
    // No reminder about it: those mailed meanwhile name the first test's contract only.
    const mailed = (await reminders()).slice(before).map((m) => m.data?.contractAddress);
    expect(mailed).not.toContain(await addressOf(id!));
    expect(remindersThen).toBe(before);
  });
});

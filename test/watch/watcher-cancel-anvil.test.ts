import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPLOYMENTS, type DeploymentRecord } from '../../src/contracts/deployments.js';
import { EVENTS, type EventRecord } from '../../src/events/events.js';
import { MEMOIR_HEIR_PLANS, type HeirPlanRecord } from '../../src/memoir/heir-plans.js';
import type { TestServer } from '../helpers.js';
import { ANVIL_KEYS, type Anvil } from '../support/anvil.js';
import {
  adminCall,
  anvilClients,
  startAnvilServer,
  deployGenerated,
  watchedPlan,
  linkPlan,
  registerOnAnvil,
  anvilWatcher,
} from './anvil-plan.js';

// A short switch on anvil (a 10-day interval and a 2-day grace: the deadline 12 days after each check-in) with the
// default lead times, 30 and 7 days: nothing right after the deployment; the 7-day warning once, saying the whole
// days really left; a check-in that is reported as a reset and warned about at once no more; then the owner's
// cancel(), reported as deadman.cancelled (not as a check-in), after which nothing is warned, nor triggered.

const DAY = 86_400;
const owner = privateKeyToAccount(ANVIL_KEYS[0]);
const heirA = privateKeyToAccount(ANVIL_KEYS[1]);
const heirB = privateKeyToAccount(ANVIL_KEYS[2]);

let anvil: Anvil;
let server: TestServer;

beforeAll(async () => {
  ({ anvil, server } = await startAnvilServer(60_000));
}, 120_000);

afterAll(async () => {
  await server?.close();
  await anvil?.stop();
});

const call = adminCall(() => server);

describe('warnings and a cancel on anvil', () => {
  it('warns once when a lead time is crossed, and reports a cancel as deadman.cancelled', async () => {
    const clients = anvilClients(anvil.url);
    const plan = { ...watchedPlan(owner, heirA, heirB), deadMansSwitch: { intervalDays: 10, gracePeriodDays: 2 } };
    const { c, address, hash } = await deployGenerated(call, clients, owner, plan);
    // A memoir plan linked to the contract: watched once the deployment is verified.
    const planId = await linkPlan(call, plan, address);
    const depId = (await registerOnAnvil(call, c.id, address, hash)).id;

    const store = server.services.store;
    const watcher = anvilWatcher(server, anvil.url);
    const recorded = async () =>
      (await store.all<EventRecord>(EVENTS)).filter(
        (e) => e.type.startsWith('deadman.') && e.data.deploymentId === depId,
      );
    const snapshot = async () => (await store.get<DeploymentRecord>(DEPLOYMENTS, depId))!.watch!.snapshot!;
    const poll = async () => {
      await anvil.mine(3);
      return watcher.pollOnce('31337');
    };

    // The first read, right after the deployment: 12 days left, and the 30-day lead time is longer than the period.
    expect(await poll()).toMatchObject({ read: 1, events: 0, failed: 0 });
    expect(await snapshot()).toMatchObject({
      intervalSeconds: 10 * DAY,
      graceSeconds: 2 * DAY,
      triggered: false,
      cancelled: false,
    });
    expect(await recorded()).toEqual([]);

    // 6 days in, 6 are left: the 7-day warning, once, with the whole days left (rounded down) at the block read.
    await anvil.advance(6 * DAY);
    expect(await poll()).toMatchObject({ events: 1 });
    expect(await poll()).toMatchObject({ events: 0 });
    const [warning] = await recorded();
    const { deadline, blockTime } = warning!.data as { deadline: number; blockTime: number };
    expect(deadline).toBe((await snapshot()).lastCheckIn + 12 * DAY);
    expect(warning).toMatchObject({
      type: 'deadman.warning',
      data: { leadDays: 7, daysLeft: Math.floor((deadline - blockTime) / DAY) },
    });
    expect(warning!.data.daysLeft).toBeGreaterThanOrEqual(5);
    expect(warning!.data.daysLeft).toBeLessThanOrEqual(6);

    // The owner checks in: the reset, and no warning right after it.
    await clients.write(owner, address, c.compiled.abi, 'checkIn');
    expect(await poll()).toMatchObject({ events: 1 });
    expect(await poll()).toMatchObject({ events: 0 });
    expect((await recorded()).map((e) => e.type)).toEqual(['deadman.warning', 'deadman.reset']);

    // The owner cancels: deadman.cancelled, not a reset (the cancel moved the last check-in).
    const checkedIn = (await snapshot()).lastCheckIn;
    await anvil.advance(DAY);
    await clients.write(owner, address, c.compiled.abi, 'cancel');
    expect(await poll()).toMatchObject({ events: 1, failed: 0 });
    const cancelled = await snapshot();
    expect(cancelled).toMatchObject({ cancelled: true, triggered: false });
    expect(cancelled.lastCheckIn).toBeGreaterThan(checkedIn);
    expect((await recorded()).at(-1)).toMatchObject({
      type: 'deadman.cancelled',
      data: { lastCheckIn: cancelled.lastCheckIn, contractAddress: address },
    });

    // Past the 7-day lead time of the deadline the cancel moved, then past that deadline: nothing more.
    await anvil.advance(6 * DAY);
    expect(await poll()).toMatchObject({ events: 0, failed: 0 });
    await anvil.advance(7 * DAY);
    expect(await poll()).toMatchObject({ events: 0, failed: 0 });
    expect((await recorded()).map((e) => e.type)).toEqual(['deadman.warning', 'deadman.reset', 'deadman.cancelled']);

    // The chain will never open the linked memoir plan: it is watched no more, and a report is heard again (with its
    // waiting period), where before it was refused for good ("watched on chain").
    const heirPlan = await store.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, planId);
    expect(heirPlan).toMatchObject({ watched: false, state: 'armed' });
    await poll();
    expect((await store.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, planId))?.watched).toBe(false);
    const report = await call('POST', `/svcloom/heirs/plans/${planId}/events`, { type: 'deadman.triggered' });
    expect(report.status, JSON.stringify(report.body)).toBe(200);
    expect((await store.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, planId))?.state).toBe('verifying');
  }, 120_000);
});

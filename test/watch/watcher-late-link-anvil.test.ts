import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { DEPLOYMENTS, type DeploymentRecord } from '../../src/contracts/deployments.js';
import { EVENTS, type EventRecord } from '../../src/events/events.js';
import { MEMOIR_HEIR_PLANS, type HeirPlanRecord } from '../../src/memoir/heir-plans.js';
import { watchLinkedPlans } from '../../src/watch/plans.js';
import type { TestServer } from '../helpers.js';
import { ANVIL_KEYS, type Anvil } from '../support/anvil.js';
import {
  adminCall,
  anvilClients,
  deployGenerated,
  linkPlan,
  registerOnAnvil,
  startAnvilServer,
  watchedPlan,
  anvilWatcher,
} from './anvil-plan.js';

// A memoir plan linked to a contract whose switch already fired on chain: the trigger was read and recorded before
// the plan existed, and is not read again. Before, the watcher only marked the new plan watched: reports about it
// were refused, and the chain, having fired already, never opened it either. It opens as the others did at the
// trigger, with the recorded deadman.triggered event, once.

const DAY = 86_400;
const owner = privateKeyToAccount(ANVIL_KEYS[0]);
const heirA = privateKeyToAccount(ANVIL_KEYS[1]);
const heirB = privateKeyToAccount(ANVIL_KEYS[2]);

let anvil: Anvil;
let server: TestServer;
const call = adminCall(() => server);

beforeAll(async () => {
  ({ anvil, server } = await startAnvilServer(60_000));
}, 120_000);

afterAll(async () => {
  await server?.close();
  await anvil?.stop();
});

describe('a plan linked after the switch fired on chain', () => {
  it('opens at the next poll with the recorded trigger, once', async () => {
    const store = server.services.store;
    const plan = watchedPlan(owner, heirA, heirB);
    const { c, address, hash } = await deployGenerated(call, anvilClients(anvil.url), owner, plan);
    const depId = (await registerOnAnvil(call, c.id, address, hash)).id;
    const watcher = anvilWatcher(server, anvil.url);
    const poll = async () => {
      await anvil.mine(3);
      return watcher.pollOnce('31337');
    };
    const ofType = async (type: string) => (await store.all<EventRecord>(EVENTS)).filter((e) => e.type === type);
    await poll();
    await anvil.advance(61 * DAY);
    await poll();
    const [trigger] = (await ofType('deadman.triggered')).filter((e) => e.data.deploymentId === depId);
    expect(trigger).toBeDefined();

    const planId = await linkPlan(call, plan, address);
    expect(await poll()).toMatchObject({ failed: 0, events: 0 });
    const opened = (await store.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, planId))!;
    expect(opened).toMatchObject({
      state: 'triggered',
      watched: true,
      triggerEventId: trigger!.id,
      verification: { state: 'complete', reporter: `chain:31337:${address}` },
    });
    const complete = async () => (await ofType('verification.complete')).filter((e) => e.data.planId === planId);
    expect(await complete()).toHaveLength(1);

    // Once: later polls leave it as it is.
    await poll();
    await poll();
    expect(await complete()).toHaveLength(1);
    expect((await store.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, planId))!.updatedAt).toBe(opened.updatedAt);
    await watcher.stop();

    // What the watcher remembers of such plans is only what still waits: an opened plan (or one no longer stored)
    // is forgotten at the next pass, a plan still armed is kept. Before, the set only grew.
    const waiting = await linkPlan(call, plan, '0x000000000000000000000000000000000000dEaD');
    const remembered = new Set([`${depId}:${planId}`, `${depId}:mhp_GONE`, `${depId}:${waiting}`]);
    const dep = (await store.get<DeploymentRecord>(DEPLOYMENTS, depId))!;
    await watchLinkedPlans({ store, clock: systemClock }, [dep], remembered);
    expect([...remembered]).toEqual([`${depId}:${waiting}`]);
  }, 120_000);
});

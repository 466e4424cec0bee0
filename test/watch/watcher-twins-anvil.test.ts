import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvmReader } from '../../src/chains/evm.js';
import { systemClock } from '../../src/core/clock.js';
import { EVENTS, type EventRecord } from '../../src/events/events.js';
import { MEMOIR_HEIR_PLANS, type HeirPlanRecord } from '../../src/memoir/heir-plans.js';
import { Watcher } from '../../src/watch/watcher.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { ANVIL_KEYS, type Anvil, startAnvil } from '../support/anvil.js';
import { adminCall, anvilClients, deployGenerated, linkPlan, watchedPlan } from './anvil-plan.js';

// An owner tries the contract out on a test network, then deploys it on a main network from the same fresh wallet:
// the same creation code and nonce give the same address on both, and both deployments watch the memoir plan linked
// to that address. The owner checks in on the main network only, so the test copy's switch fires while they are
// alive: that must not open the plan to the heirs. The main network's switch firing does.

const DAY = 86_400;
const MAIN = 1;
const TEST = 31337;
const owner = privateKeyToAccount(ANVIL_KEYS[0]);
const heirA = privateKeyToAccount(ANVIL_KEYS[1]);
const heirB = privateKeyToAccount(ANVIL_KEYS[2]);

let main: Anvil;
let test: Anvil;
let server: TestServer;

beforeAll(async () => {
  [main, test] = await Promise.all([startAnvil(['--chain-id', String(MAIN)]), startAnvil()]);
  server = await startTestServer({
    config: {
      chains: {
        evmRpcUrls: { [MAIN]: main.url, [TEST]: test.url },
        tonApis: {},
        watchPollMs: 60_000,
        watchConfirmations: 2,
      },
    },
    listen: false,
  });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await Promise.all([main?.stop(), test?.stop()]);
});

const call = adminCall(() => server);

/**
 * The same contract deployed on both nodes at one address and registered on both networks (verified), with a watcher
 * of both networks; the deployments' ids by network.
 */
async function deployTwins() {
  const testClients = anvilClients(test.url, TEST);
  const mainClients = anvilClients(main.url, MAIN);
  // The same next nonce on both nodes, so that the same deploy lands at the same address.
  for (;;) {
    const [t, m] = await Promise.all(
      [testClients, mainClients].map((cl) => cl.pub.getTransactionCount({ address: owner.address })),
    );
    if (t === m) break;
    await (t! < m! ? testClients : mainClients).send(owner, { to: heirA.address, value: 1n });
  }
  const plan = watchedPlan(owner, heirA, heirB);
  const onTest = await deployGenerated(call, testClients, owner, plan);
  const receipt = await mainClients.send(owner, { data: onTest.c.deployData });
  expect(receipt.contractAddress?.toLowerCase()).toBe(onTest.address.toLowerCase());
  const ids: Record<number, string> = {};
  for (const [network, hash] of [
    [TEST, onTest.hash],
    [MAIN, receipt.transactionHash],
  ] as const) {
    const reg = await call('POST', `/contracts/${onTest.c.id}/deployments`, {
      network,
      address: onTest.address,
      txHash: hash,
    });
    expect(reg.status, JSON.stringify(reg.body)).toBe(200);
    expect((reg.body as { data: { status: string } }).data.status).toBe('verified');
    ids[network] = (reg.body as { data: { id: string } }).data.id;
  }
  const store = server.services.store;
  const watcher = new Watcher({
    store,
    clock: systemClock,
    networks: [String(MAIN), String(TEST)],
    pollMs: 60_000,
    confirmations: 2,
    readerFor: async (network) =>
      network === String(MAIN) ? createEvmReader(main.url, MAIN) : createEvmReader(test.url, TEST),
  });
  const poll = async (node: Anvil, network: number) => {
    await node.mine(3);
    return watcher.pollOnce(String(network));
  };
  return { testClients, mainClients, onTest, plan, ids, store, watcher, poll };
}

/** deployTwins, with a memoir plan (heirs' access on) linked to the contract's address. */
async function twins() {
  const deployed = await deployTwins();
  const planId = await linkPlan(call, deployed.plan, deployed.onTest.address);
  const planNow = async () => (await deployed.store.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, planId))!;
  return { ...deployed, planId, planNow };
}

describe('the same contract on a test network and a main network', () => {
  it("opens the plan when the main network's switch fires, not the test copy's", async () => {
    const { mainClients, onTest, store, poll, planNow } = await twins();
    const triggers = async (network: number) =>
      (await store.all<EventRecord>(EVENTS)).filter(
        (e) => e.type === 'deadman.triggered' && e.data.network === String(network),
      );
    expect(await poll(test, TEST)).toMatchObject({ read: 1, failed: 0 });
    expect(await poll(main, MAIN)).toMatchObject({ read: 1, failed: 0 });
    expect(await planNow()).toMatchObject({ watched: true, state: 'armed' });

    // The test copy is left alone past its deadline: its switch fires, and is told as such, but opens nothing.
    await test.advance(61 * DAY);
    await poll(test, TEST);
    expect(await triggers(TEST)).toHaveLength(1);
    expect(await planNow()).toMatchObject({ watched: true, state: 'armed', triggeredAt: null });

    // The owner checks in on the main network meanwhile; later, no more check-ins: its switch fires and opens.
    await mainClients.write(owner, onTest.address, onTest.c.compiled.abi, 'checkIn');
    await poll(main, MAIN);
    expect(await planNow()).toMatchObject({ state: 'armed' });
    await main.advance(61 * DAY);
    await poll(main, MAIN);
    expect(await triggers(MAIN)).toHaveLength(1);
    expect(await planNow()).toMatchObject({ state: 'triggered', verification: { state: 'complete' } });
  }, 120_000);

  it("opens a plan linked after both switches fired on the main network's trigger, not the test copy's", async () => {
    const { onTest, plan, ids, store, watcher, poll } = await deployTwins();
    await poll(test, TEST);
    await poll(main, MAIN);
    await Promise.all([test.advance(61 * DAY), main.advance(61 * DAY)]);
    await poll(test, TEST);
    await poll(main, MAIN);
    const trigger = async (network: number) =>
      (await store.all<EventRecord>(EVENTS)).find(
        (e) => e.type === 'deadman.triggered' && e.data.deploymentId === ids[network],
      );
    expect(await trigger(TEST)).toBeDefined();
    const mainTrigger = await trigger(MAIN);
    expect(mainTrigger).toBeDefined();

    const planId = await linkPlan(call, plan, onTest.address);
    const planNow = async () => (await store.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, planId))!;
    // The test network's poll comes first: its trigger marks the plan watched and opens nothing.
    await poll(test, TEST);
    expect(await planNow()).toMatchObject({ watched: true, state: 'armed', triggeredAt: null });
    // The main network's opens it, with its own trigger, though the plan is watched already.
    await poll(main, MAIN);
    expect(await planNow()).toMatchObject({ state: 'triggered', triggerEventId: mainTrigger!.id });
    await watcher.stop();
  }, 120_000);

  it('keeps the plan watched when the test copy is cancelled, while the main network still watches it', async () => {
    // Before, the test copy's cancel unwatched the plan the main network's deployment still watched: reports about
    // it were taken again (until the main network's next poll marked it back) although the main switch was live.
    const { testClients, mainClients, onTest, store, watcher, poll, planNow } = await twins();
    await poll(test, TEST);
    await poll(main, MAIN);
    expect(await planNow()).toMatchObject({ watched: true, state: 'armed' });

    await testClients.write(owner, onTest.address, onTest.c.compiled.abi, 'cancel');
    await poll(test, TEST);
    const cancels = async () =>
      (await store.all<EventRecord>(EVENTS)).filter(
        (e) => e.type === 'deadman.cancelled' && e.data.contractAddress === onTest.address,
      );
    expect((await cancels()).map((e) => e.data.network)).toEqual([String(TEST)]);
    expect(await planNow()).toMatchObject({ watched: true, state: 'armed' });

    // Cancelled on the main network too: nothing watches it any more.
    await mainClients.write(owner, onTest.address, onTest.c.compiled.abi, 'cancel');
    await poll(main, MAIN);
    expect(await cancels()).toHaveLength(2);
    expect(await planNow()).toMatchObject({ watched: false, state: 'armed' });
    await watcher.stop();
  }, 120_000);
  it("opens nothing when the test copy fires after the main network's contract was cancelled", async () => {
    // The owner cancelled on the main network and is alive: the test copy, never checked in, fires later. Before, the
    // main contract's cancel left the test copy in charge (its twin no longer counted), and its trigger opened the plan.
    const { testClients, mainClients, onTest, planId, watcher, poll, planNow } = await twins();
    await poll(test, TEST);
    await poll(main, MAIN);
    expect(await planNow()).toMatchObject({ watched: true, state: 'armed' });

    await mainClients.write(owner, onTest.address, onTest.c.compiled.abi, 'cancel');
    await poll(main, MAIN);
    // Nothing on chain can open the plan now: reports and their waiting period apply to it again.
    expect(await planNow()).toMatchObject({ watched: false, state: 'armed' });

    await test.advance(61 * DAY);
    await testClients.send(owner, { to: heirA.address, value: 1n });
    await poll(test, TEST);
    await poll(test, TEST);
    expect(await planNow()).toMatchObject({ watched: false, state: 'armed' });
    const report = await call('POST', `/svcloom/heirs/plans/${planId}/events`, { type: 'deadman.warning' });
    expect(report.status, JSON.stringify(report.body)).toBe(200);
    await watcher.stop();
  }, 120_000);
});

import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS, type EventRecord } from '../../src/events/events.js';
import { MEMOIR_HEIR_PLANS, type HeirPlanRecord } from '../../src/memoir/heir-plans.js';
import type { TestServer } from '../helpers.js';
import { ANVIL_KEYS, type Anvil, startAnvil } from '../support/anvil.js';
import {
  adminCall,
  anvilClients,
  deployGenerated,
  startAnvilServer,
  watchedPlan,
  linkPlan,
  registerOnAnvil,
  anvilWatcher,
} from './anvil-plan.js';

// The watcher reads a network through the endpoint the operator configured for it. Registration checks that this
// endpoint serves the chain it is configured for; the watcher must too. Before, an endpoint swapped for a test
// network's (the same wallet deploys the same contract at the same address there, where the owner never checks in)
// was read as the main network: its switch fired, deadman.triggered was recorded for the main network's deployment,
// and the memoir plan opened to the heirs while the owner was alive and checking in where it counts.

const DAY = 86_400;
const owner = privateKeyToAccount(ANVIL_KEYS[0]);
const heirA = privateKeyToAccount(ANVIL_KEYS[1]);
const heirB = privateKeyToAccount(ANVIL_KEYS[2]);

let anvil: Anvil;
let testnet: Anvil;
let server: TestServer;
const call = adminCall(() => server);

beforeAll(async () => {
  ({ anvil, server } = await startAnvilServer(60_000));
  testnet = await startAnvil(['--chain-id', '11155111']);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await anvil?.stop();
  await testnet?.stop();
});

describe('an endpoint that serves another chain than its network', () => {
  it('is not read: no trigger is recorded and the watched plan stays closed', async () => {
    const store = server.services.store;
    const plan = watchedPlan(owner, heirA, heirB);
    const { c, address, hash } = await deployGenerated(call, anvilClients(anvil.url), owner, plan);
    const planId = await linkPlan(call, plan, address);
    const depId = (await registerOnAnvil(call, c.id, address, hash)).id;

    // The same wallet's first deployment on the test network: the same contract at the same address.
    const twin = await anvilClients(testnet.url, 11155111).send(owner, { data: c.deployData });
    expect(twin.contractAddress?.toLowerCase()).toBe(address.toLowerCase());
    await testnet.advance(61 * DAY);
    await testnet.mine(3);

    // The endpoint configured for 31337 now answers for the test network.
    const watcher = anvilWatcher(server, testnet.url);
    await expect(watcher.pollOnce('31337')).rejects.toThrow(/serves chain 11155111/);
    const events = (await store.all<EventRecord>(EVENTS)).filter(
      (e) => e.data.deploymentId === depId && e.type.startsWith('deadman.'),
    );
    expect(events).toEqual([]);
    expect(await store.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, planId)).toMatchObject({ state: 'armed' });
    await watcher.stop();
  }, 120_000);
});

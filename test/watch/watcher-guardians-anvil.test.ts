import type { Abi, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvmReader } from '../../src/chains/evm.js';
import { EVENTS, type EventRecord } from '../../src/events/events.js';
import { MEMOIR_HEIR_PLANS, type HeirPlanRecord } from '../../src/memoir/heir-plans.js';
import type { TestServer } from '../helpers.js';
import { ANVIL_KEYS, type Anvil } from '../support/anvil.js';
import {
  adminCall,
  anvilClients,
  deployGenerated,
  startAnvilServer,
  linkPlan,
  registerOnAnvil,
  anvilWatcher,
} from './anvil-plan.js';

// Guardians confirm an owner's absence; they never overrule a living owner: their early release waits `waitDays`
// for a sign of life that cancels it. The owner can answer only if told: the watcher warns (deadman.warning, and the
// mail that goes with it) as soon as it reads a release the guardians proposed, long before the switch's own
// deadline. Before, it warned about the switch's deadline only: a quorum's release took effect unannounced, and the
// watched memoir plan opened to the heirs at once, while the owner was alive.

const DAY = 86_400;
const owner = privateKeyToAccount(ANVIL_KEYS[0]);
const heirA = privateKeyToAccount(ANVIL_KEYS[1]);
const heirB = privateKeyToAccount(ANVIL_KEYS[2]);
// anvil's fourth funded account
const guardian = privateKeyToAccount('0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6');

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

describe("the guardians' early release, read by the watcher", () => {
  it('warns the owner at once, and a check-in cancels it: nothing opens', async () => {
    const store = server.services.store;
    const plan = {
      blockchain: 'evm',
      ownerAddress: owner.address,
      beneficiaries: [
        { name: 'A', address: heirA.address, percentage: 60 },
        { name: 'B', address: heirB.address, percentage: 40 },
      ],
      deadMansSwitch: { enabled: true, intervalDays: 365 },
      guardians: { addresses: [guardian.address], threshold: 1, waitDays: 7 },
    };
    const clients = anvilClients(anvil.url);
    const { c, address, hash } = await deployGenerated(call, clients, owner, plan);
    const abi = c.compiled.abi as Abi;
    const planId = await linkPlan(call, plan, address);
    const depId = (await registerOnAnvil(call, c.id, address, hash)).id;

    const reader = createEvmReader(anvil.url, anvil.chainId);
    const watcher = anvilWatcher(server, anvil.url, { reader });
    const events = async () =>
      (await store.all<EventRecord>(EVENTS)).filter(
        (e) => e.data.deploymentId === depId && e.type.startsWith('deadman.'),
      );
    await anvil.mine(3);
    await watcher.pollOnce('31337');
    expect(await events()).toEqual([]);

    // The guardian (threshold 1) confirms the owner's absence: the release is proposed, 7 days from now.
    await clients.write(guardian, address as Hex, abi, 'confirmRelease');
    await anvil.mine(3);
    await watcher.pollOnce('31337');
    const warned = (await events()).filter((e) => e.type === 'deadman.warning');
    expect(warned).toHaveLength(1);
    const releaseAt = Number(warned[0]!.data.deadline);
    expect(warned[0]!.data).toMatchObject({ guardians: true });
    expect(warned[0]!.data.daysLeft).toBe(Math.floor((releaseAt - Number(warned[0]!.data.blockTime)) / DAY));
    // Far before the switch's deadline (365 days): only the guardians' release is this near.
    expect(releaseAt).toBeLessThan(Number(warned[0]!.data.blockTime) + 8 * DAY);
    // Once per proposal.
    await anvil.mine(3);
    await watcher.pollOnce('31337');
    expect((await events()).filter((e) => e.type === 'deadman.warning')).toHaveLength(1);

    // The owner, told, checks in a day later: the proposal is cancelled, and past its time nothing is released.
    await anvil.advance(DAY);
    await clients.write(owner, address as Hex, abi, 'checkIn');
    await anvil.mine(3);
    await watcher.pollOnce('31337');
    await anvil.advance(8 * DAY);
    await anvil.mine(3);
    await watcher.pollOnce('31337');
    const types = (await events()).map((e) => e.type);
    expect(types).toEqual(['deadman.warning', 'deadman.reset']);
    expect(await store.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, planId)).toMatchObject({ state: 'armed' });
    await watcher.stop();
  }, 120_000);

  it("reports the guardians' veto of a trigger as theirs, not as the owner's check-in", async () => {
    // A veto in the grace period restarts the clock (it moves lastCheckIn) as a check-in does, but the owner did
    // nothing: before, the watcher told the owner "you checked in" when the guardians had postponed the release.
    const store = server.services.store;
    const plan = {
      blockchain: 'evm',
      ownerAddress: owner.address,
      beneficiaries: [
        { name: 'A', address: heirA.address, percentage: 60 },
        { name: 'B', address: heirB.address, percentage: 40 },
      ],
      deadMansSwitch: { enabled: true, intervalDays: 30, gracePeriodDays: 10 },
      guardians: { addresses: [guardian.address], threshold: 1, waitDays: 7, maxVetoes: 2 },
    };
    const clients = anvilClients(anvil.url);
    const { c, address, hash } = await deployGenerated(call, clients, owner, plan);
    const abi = c.compiled.abi as Abi;
    const depId = (await registerOnAnvil(call, c.id, address, hash)).id;
    const watcher = anvilWatcher(server, anvil.url);
    const resets = async () =>
      (await store.all<EventRecord>(EVENTS)).filter((e) => e.data.deploymentId === depId && e.type === 'deadman.reset');
    await anvil.mine(3);
    await watcher.pollOnce('31337');

    // Past the deadline, in the grace period: the guardian vetoes the trigger.
    await anvil.advance(31 * DAY);
    await clients.write(guardian, address as Hex, abi, 'vetoTrigger');
    await anvil.mine(3);
    await watcher.pollOnce('31337');
    const [vetoed] = await resets();
    expect(vetoed?.data).toMatchObject({ by: 'guardians', vetoesLeft: 1 });

    // The owner's own check-in is the owner's.
    await anvil.advance(DAY);
    await clients.write(owner, address as Hex, abi, 'checkIn');
    await anvil.mine(3);
    await watcher.pollOnce('31337');
    expect((await resets()).map((e) => e.data.by)).toEqual(['guardians', 'owner']);
    await watcher.stop();
  }, 120_000);
});

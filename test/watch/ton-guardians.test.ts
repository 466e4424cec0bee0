import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPLOYMENTS, type DeploymentRecord } from '../../src/contracts/deployments.js';
import { TON_OP } from '../../src/contracts/ton/index.js';
import { EVENTS, type EventRecord } from '../../src/events/events.js';
import type { TestServer } from '../helpers.js';
import { startTonApiStandin, type TonApiStandin } from '../support/ton-api.js';
import { sendOp, tonPlan } from '../contracts/ton-register-support.js';
import { deployWatched, startTonWatchServer, tonWatcher } from './ton-watch-support.js';

// The guardians' early release of a TON contract, read by the watcher through the toncenter-kind stand-in: the owner
// is warned as soon as the quorum proposed it (get_guardians' release time), once, and a check-in cancels it. Before,
// only the switch's own deadline was warned about: the release took effect unannounced.

const DAY = 86_400;
const API_KEY = 'ton-guardians-key';

let api: TonApiStandin;
let server: TestServer;
let deploymentId: string;
let owner: Awaited<ReturnType<TonApiStandin['chain']['treasury']>>;
let guardian: Awaited<ReturnType<TonApiStandin['chain']['treasury']>>;
let contract: import('@ton/core').Address;

const watcherOn = () => tonWatcher(server, api, API_KEY);

const deadmanEvents = async () =>
  (await server.services.store.all<EventRecord>(EVENTS)).filter(
    (e) => e.data.deploymentId === deploymentId && e.type.startsWith('deadman.'),
  );

beforeAll(async () => {
  api = await startTonApiStandin({ apiKey: API_KEY });
  server = await startTonWatchServer(api, API_KEY);
  owner = await api.chain.treasury('owner');
  guardian = await api.chain.treasury('guardian');
  const heirA = await api.chain.treasury('heir-a');
  const heirB = await api.chain.treasury('heir-b');
  ({ contract, deploymentId } = await deployWatched(
    server,
    api,
    owner,
    tonPlan(
      owner.address,
      [
        { address: heirA.address, percentage: 60 },
        { address: heirB.address, percentage: 40 },
      ],
      { guardians: { addresses: [guardian.address.toRawString()], threshold: 1, waitDays: 7 } },
    ),
  ));
}, 180_000);

afterAll(async () => {
  await server?.close();
  await api?.close();
});

describe("the guardians' early release of a TON contract", () => {
  it('is announced to the owner once when proposed, and a check-in cancels it', async () => {
    const w = watcherOn();
    // The first get_guardians fails (the API, not the contract): the read fails this round, and the contract is not
    // taken for one without guardians. Before, it was, for good: its early releases were never announced.
    api.failNextGet('get_guardians');
    expect(await w.pollOnce('ton-testnet')).toMatchObject({ read: 0, events: 0, failed: 1 });
    expect(await w.pollOnce('ton-testnet')).toMatchObject({ read: 1, events: 0, failed: 0 });
    const first = (await server.services.store.get<DeploymentRecord>(DEPLOYMENTS, deploymentId))!.watch!.snapshot!;
    expect(first).toMatchObject({ guardianReleaseAt: 0 });
    expect(first.noGuardians).toBeUndefined();

    api.advance(DAY);
    await sendOp(api, guardian, contract, TON_OP.approve, (b) => b.storeUint(0, 8));
    expect(await w.pollOnce('ton-testnet')).toMatchObject({ events: 1, failed: 0 });
    expect((await w.pollOnce('ton-testnet')).events).toBe(0);
    const [warning] = await deadmanEvents();
    expect(warning).toMatchObject({
      type: 'deadman.warning',
      data: { guardians: true, deadline: api.chain.now! + 7 * DAY, daysLeft: 7 },
    });

    api.advance(DAY);
    await sendOp(api, owner, contract, TON_OP.checkIn);
    expect((await w.pollOnce('ton-testnet')).events).toBe(1);
    api.advance(7 * DAY);
    expect((await w.pollOnce('ton-testnet')).events).toBe(0);
    expect((await deadmanEvents()).map((e) => e.type)).toEqual(['deadman.warning', 'deadman.reset']);
    const snap = (await server.services.store.get<DeploymentRecord>(DEPLOYMENTS, deploymentId))!.watch!.snapshot!;
    expect(snap).toMatchObject({ triggered: false, guardianReleaseAt: 0 });
  });

  it("reports the guardians' veto of a trigger as theirs, not as the owner's check-in", async () => {
    const w = watcherOn();
    await w.pollOnce('ton-testnet');
    const resets = async () => (await deadmanEvents()).filter((e) => e.type === 'deadman.reset');
    const before = (await resets()).length;
    // The 90-day interval passed since the owner's check-in above: in the 7-day grace period, the guardian vetoes.
    api.advance(84 * DAY);
    await sendOp(api, guardian, contract, TON_OP.veto, (b) => b.storeUint(0, 8));
    await w.pollOnce('ton-testnet');
    const vetoed = (await resets()).slice(before);
    expect(vetoed.map((e) => e.data)).toEqual([
      expect.objectContaining({ lastCheckIn: api.chain.now, by: 'guardians', vetoesLeft: 1 }),
    ]);
  });
});

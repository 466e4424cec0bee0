import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWatcher as startServiceWatcher } from '../../src/app.js';
import { Watcher } from '../../src/watch/watcher.js';
import { DEPLOYMENTS, type DeploymentRecord } from '../../src/contracts/deployments.js';
import { TON_OP } from '../../src/contracts/ton/index.js';
import { EVENTS, type EventRecord } from '../../src/events/events.js';
import { WATCH_LEASES, type LeaseRecord } from '../../src/watch/lease.js';
import type { TestServer } from '../helpers.js';
import { startTonApiStandin, type TonApiStandin } from '../support/ton-api.js';
import { sendOp, tonPlan } from '../contracts/ton-register-support.js';
import { deployWatched, startTonWatchServer, tonWatcher } from './ton-watch-support.js';

// The watcher on TON, through the toncenter-kind stand-in backed by @ton/sandbox whose clock the test moves: a
// warning before the deadline, a restart that sends nothing again, the owner's check-in (reset), the trigger once
// the deadline and grace period pass, and an heir's claim. Each event is recorded once, in the outbox.

const DAY = 86_400;
const API_KEY = 'ton-watch-key';

let api: TonApiStandin;
let server: TestServer;
let deploymentId: string;
let owner: Awaited<ReturnType<TonApiStandin['chain']['treasury']>>;
let heirA: Awaited<ReturnType<TonApiStandin['chain']['treasury']>>;
let heirB: Awaited<ReturnType<TonApiStandin['chain']['treasury']>>;
let contract: import('@ton/core').Address;

const watcherOn = () => tonWatcher(server, api, API_KEY);

const events = async () =>
  (await server.services.store.all<EventRecord>(EVENTS)).filter((e) => e.data.deploymentId === deploymentId);
const deadmanEvents = async () => (await events()).filter((e) => e.type.startsWith('deadman.'));
const deployment = async () => (await server.services.store.get<DeploymentRecord>(DEPLOYMENTS, deploymentId))!;

beforeAll(async () => {
  api = await startTonApiStandin({ apiKey: API_KEY });
  server = await startTonWatchServer(api, API_KEY);
  owner = await api.chain.treasury('owner');
  heirA = await api.chain.treasury('heir-a');
  heirB = await api.chain.treasury('heir-b');
  ({ contract, deploymentId } = await deployWatched(
    server,
    api,
    owner,
    tonPlan(owner.address, [
      { address: heirA.address, percentage: 60 },
      { address: heirB.address, percentage: 40 },
    ]),
  ));
}, 180_000);

afterAll(async () => {
  await server?.close();
  await api?.close();
});

describe('the TON watcher', () => {
  it('reads the switch, warns once before the deadline, and sends nothing again after a restart', async () => {
    const first = watcherOn();
    const quiet = await first.pollOnce('ton-testnet');
    expect(quiet).toMatchObject({ read: 1, events: 0, failed: 0 });
    const snap = (await deployment()).watch!.snapshot!;
    expect(snap).toMatchObject({ intervalSeconds: 90 * DAY, graceSeconds: 7 * DAY, triggered: false, claimed: {} });
    // No guardians: get_guardians is "method not found" (exit code 11), remembered so it is not asked again.
    expect(snap.noGuardians).toBe(true);
    expect(snap.lastCheckIn).toBe(api.chain.now);
    expect(BigInt(snap.balance)).toBeGreaterThan(19n * 10n ** 9n);

    // 29 days before the release time (last check-in + 90 + 7 days): the 30-day warning is due.
    api.advance((97 - 29) * DAY);
    expect((await first.pollOnce('ton-testnet')).events).toBe(1);
    expect((await first.pollOnce('ton-testnet')).events).toBe(0);
    const second = watcherOn();
    expect((await second.pollOnce('ton-testnet')).events).toBe(0);
    const warnings = (await deadmanEvents()).filter((e) => e.type === 'deadman.warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.data).toMatchObject({
      network: 'ton-testnet',
      daysLeft: 29,
      leadDays: 30,
      deadline: snap.lastCheckIn + 97 * DAY,
      blockTime: api.chain.now,
    });
  });

  it("sends deadman.reset once at the owner's check-in", async () => {
    const before = (await deployment()).watch!.snapshot!.lastCheckIn;
    api.advance(DAY);
    await sendOp(api, owner, contract, TON_OP.checkIn);
    const w = watcherOn();
    expect((await w.pollOnce('ton-testnet')).events).toBe(1);
    expect((await w.pollOnce('ton-testnet')).events).toBe(0);
    const resets = (await deadmanEvents()).filter((e) => e.type === 'deadman.reset');
    expect(resets).toHaveLength(1);
    expect(resets[0]!.data.lastCheckIn).toBe(api.chain.now);
    expect(resets[0]!.data.lastCheckIn).toBeGreaterThan(before);
  });

  it('sends deadman.triggered once the deadline and grace period pass, then deadman.claimed for a claim', async () => {
    const w = watcherOn();
    api.advance(98 * DAY);
    expect((await w.pollOnce('ton-testnet')).events).toBe(1);
    expect((await w.pollOnce('ton-testnet')).events).toBe(0);
    expect((await deployment()).watch!.snapshot!.triggered).toBe(true);

    const result = await sendOp(api, heirA, contract, TON_OP.claim, (b) => b.storeUint(0, 8));
    expect(result.transactions.some((t) => t.description.type === 'generic' && !t.description.aborted)).toBe(true);
    expect((await w.pollOnce('ton-testnet')).events).toBe(1);
    expect((await watcherOn().pollOnce('ton-testnet')).events).toBe(0);
    const all = await deadmanEvents();
    const counts = Object.fromEntries(
      ['deadman.warning', 'deadman.reset', 'deadman.triggered', 'deadman.claimed'].map((t) => [
        t,
        all.filter((e) => e.type === t).length,
      ]),
    );
    expect(counts).toEqual({ 'deadman.warning': 1, 'deadman.reset': 1, 'deadman.triggered': 1, 'deadman.claimed': 1 });
    const claimed = all.find((e) => e.type === 'deadman.claimed')!;
    expect(claimed.data.beneficiary).toBe(heirA.address.toString({ bounceable: true }));
    expect(claimed.data.asset).toBe('native');
    // The amount is the heir's share the contract counts as claimed: its payout message carries that share plus
    // what is left of the 0.1 TON the claim message brought.
    const paid = result.transactions
      .flatMap((t) => t.outMessages.values())
      .filter((m) => m.info.type === 'internal' && m.info.dest.equals(heirA.address))
      .map((m) => (m.info.type === 'internal' ? m.info.value.coins : 0n));
    expect(paid).toHaveLength(1);
    const amount = BigInt(claimed.data.amount as string);
    expect(amount).toBeGreaterThan(0n);
    expect(paid[0]! - amount).toBeGreaterThan(0n);
    expect(paid[0]! - amount).toBeLessThan(100_000_000n);
  });

  it("reports the owner's cancel as deadman.cancelled, not a check-in, and warns no more", async () => {
    // A second contract, a 10-day interval and a 2-day grace: its deadline is 12 days after the owner's last message.
    const { contract: short, deploymentId: id } = await deployWatched(
      server,
      api,
      owner,
      tonPlan(owner.address, [{ address: heirA.address, percentage: 100 }], {
        deadMansSwitch: { enabled: true, intervalDays: 10, gracePeriodDays: 2 },
      }),
      '5',
    );
    const own = async () =>
      (await server.services.store.all<EventRecord>(EVENTS)).filter(
        (e) => e.type.startsWith('deadman.') && e.data.deploymentId === id,
      );
    const w = watcherOn();
    await w.pollOnce('ton-testnet');
    // Right after the deployment: nothing (the 30-day lead time is longer than the 12-day period).
    expect(await own()).toEqual([]);

    api.advance(DAY);
    await sendOp(api, owner, short, TON_OP.cancel);
    const cancelledAt = api.chain.now;
    expect((await w.pollOnce('ton-testnet')).failed).toBe(0);
    const d = (await server.services.store.get<DeploymentRecord>(DEPLOYMENTS, id))!;
    expect(d.watch!.snapshot).toMatchObject({ cancelled: true, triggered: false, lastCheckIn: cancelledAt });
    expect((await own()).map((e) => [e.type, e.data.lastCheckIn])).toEqual([['deadman.cancelled', cancelledAt]]);

    // 6 days before the deadline the cancel moved, then past it: nothing more.
    api.advance(6 * DAY);
    await w.pollOnce('ton-testnet');
    api.advance(7 * DAY);
    await w.pollOnce('ton-testnet');
    await watcherOn().pollOnce('ton-testnet');
    expect((await own()).map((e) => e.type)).toEqual(['deadman.cancelled']);
  });

  it('is started by the service for a TON-only configuration, under a lease, and sends nothing twice', async () => {
    const before = (await events()).length;
    const w = await startServiceWatcher(server.services);
    expect(w).toBeInstanceOf(Watcher);
    const deadline = Date.now() + 20_000;
    while (w!.stats.polls < 1 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    expect(w!.stats.polls).toBeGreaterThanOrEqual(1);
    expect(w!.stats.errors).toBe(0);
    const leases = await server.services.store.all<LeaseRecord>(WATCH_LEASES);
    expect(leases.map((l) => l.network)).toContain('ton-testnet');
    expect((await events()).length).toBe(before);
  });
});

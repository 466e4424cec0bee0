import { parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvmReader } from '../../src/chains/evm.js';
import { systemClock } from '../../src/core/clock.js';
import { DEPLOYMENTS, type DeploymentRecord } from '../../src/contracts/deployments.js';
import { EVENTS, type EventRecord } from '../../src/events/events.js';
import { GRANTS, type GrantRecord } from '../../src/accounts/grants.js';
import { MEMOIR_HEIR_PLANS, type HeirPlanRecord } from '../../src/memoir/heir-plans.js';
import type { Watcher } from '../../src/watch/watcher.js';
import { Dispatcher, verifyWebhookSignature } from '../../src/webhooks/index.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { ANVIL_KEYS, type Anvil, startAnvil } from '../support/anvil.js';
import {
  adminCall,
  anvilClients,
  deployGenerated,
  until,
  watchedPlan,
  linkPlan,
  registerOnAnvil,
  anvilWatcher,
} from './anvil-plan.js';
import { makeCert, startReceiver } from '../webhooks/helpers.js';

// The watcher on a real node (anvil) whose time the test moves: a warning before the deadline, a check-in that
// resets it, the trigger that opens the watched memoir plan's shares at once, and an heir's claim. Each event is
// recorded once and delivered once through the outbox as a signed webhook, across a restart of the watcher.

const DAY = 86_400;
const SECRET = 'whsec_watcher-test-secret-0123456789abcdef';
const owner = privateKeyToAccount(ANVIL_KEYS[0]);
const heirA = privateKeyToAccount(ANVIL_KEYS[1]);
const heirB = privateKeyToAccount(ANVIL_KEYS[2]);

let anvil: Anvil;
let server: TestServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let dispatcher: Dispatcher;
let watcher: Watcher | undefined;

const call = adminCall(() => server);

function startWatcher(): Watcher {
  const reader = createEvmReader(anvil.url, anvil.chainId);
  watcher = anvilWatcher(server, anvil.url, { pollMs: 50, reader });
  watcher.start();
  return watcher;
}

beforeAll(async () => {
  anvil = await startAnvil();
  const tls = makeCert();
  receiver = await startReceiver(tls);
  server = await startTestServer({
    config: {
      webhookAllow: '127.0.0.1',
      chains: { evmRpcUrls: { '31337': anvil.url }, tonApis: {}, watchPollMs: 50, watchConfirmations: 2 },
    },
    listen: false,
  });
  dispatcher = new Dispatcher({
    store: server.services.store,
    clock: systemClock,
    keyring: server.services.keyring,
    ca: tls.cert,
    allow: '127.0.0.1',
    jitterMs: 0,
    timeoutMs: 5000,
  });
  dispatcher.start();
}, 120_000);

afterAll(async () => {
  await watcher?.stop();
  await dispatcher?.stop();
  await server?.close();
  await receiver?.close();
  await anvil?.stop();
});

const clients = () => anvilClients(anvil.url);
const write: ReturnType<typeof anvilClients>['write'] = (...args) => clients().write(...args);

async function recorded(depId: string): Promise<EventRecord[]> {
  const all = await server.services.store.all<EventRecord>(EVENTS);
  return all.filter((e) => e.type.startsWith('deadman.') && e.data.deploymentId === depId);
}

const deadmanDeliveries = () =>
  receiver.received
    .map((r) => ({ r, body: JSON.parse(r.body) as { type: string; data: Record<string, unknown> } }))
    .filter(({ body }) => body.type.startsWith('deadman.') || body.type.startsWith('verification.'));

describe('the chain watcher on anvil', () => {
  it('sends warning, reset, trigger and claim once each, signed, across a restart', async () => {
    const plan = watchedPlan(owner, heirA, heirB);
    const { c, address, hash } = await deployGenerated(call, clients(), owner, plan);

    const sub = await call('POST', '/webhooks/subscriptions', {
      url: receiver.url('/watch'),
      name: 'watch',
      events: ['deadman.warning', 'deadman.reset', 'deadman.triggered', 'deadman.claimed', 'verification.complete'],
    });
    expect(sub.status, JSON.stringify(sub.body)).toBe(201);
    const secret = sub.body.meta.secret as string;

    // A memoir plan linked to this contract before it is registered: verification makes it watched.
    const planId = await linkPlan(call, plan, address);

    const reg = await registerOnAnvil(call, c.id, address, hash);
    const depId = reg.id;
    expect(reg.watch).toEqual({ warnDays: [30, 7], paused: false, snapshot: null });
    const store = server.services.store;
    expect((await store.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, planId))?.watched).toBe(true);
    const report = await call('POST', `/svcloom/heirs/plans/${planId}/events`, { type: 'deadman.triggered' });
    expect(report.status).toBe(409);

    // The first read: nothing to say yet (the deadline is 60 days away).
    await anvil.mine(3);
    startWatcher();
    const first = await until('the first snapshot', async () => {
      const d = await store.get<DeploymentRecord>(DEPLOYMENTS, depId);
      return d?.watch?.snapshot ?? undefined;
    });
    expect(first).toMatchObject({
      intervalSeconds: 60 * DAY,
      graceSeconds: 0,
      triggered: false,
      balance: '10000000000000000000',
    });
    expect(await recorded(depId)).toEqual([]);

    // 31 days later, 29 are left: the 30-day warning, once.
    await anvil.advance(31 * DAY);
    await anvil.mine(2);
    await until('the warning', async () => (await recorded(depId)).length === 1);
    await anvil.mine(3);
    const seenAt = watcher!.stats.polls;
    await until('more polls', () => watcher!.stats.polls > seenAt + 3);
    expect((await recorded(depId)).map((e) => [e.type, e.data.leadDays])).toEqual([['deadman.warning', 30]]);
    // The days really left at the block read, rounded down: 29 less the seconds the blocks added, so 28 (or 29).
    const { deadline, blockTime, daysLeft } = (await recorded(depId))[0]!.data as Record<string, number>;
    expect(daysLeft).toBe(Math.floor((deadline! - blockTime!) / DAY));
    expect([28, 29]).toContain(daysLeft);

    // The watcher stops; the owner checks in meanwhile; a new watcher on the same store sends the reset once and
    // not the warning again.
    await watcher!.stop();
    await write(owner, address, c.compiled.abi, 'checkIn');
    await anvil.mine(2);
    startWatcher();
    await until('the reset', async () => (await recorded(depId)).length === 2);
    // The same state applied again (as after a crash between the read and the write) sends nothing.
    const again = await store.get<DeploymentRecord>(DEPLOYMENTS, depId);
    expect(await watcher!.apply(depId, again!.watch!.snapshot!)).toEqual([]);

    // Past the deadline: the switch fires on chain and the watched plan's shares open at once.
    await anvil.advance(61 * DAY);
    await anvil.mine(2);
    await until('the trigger', async () => (await recorded(depId)).some((e) => e.type === 'deadman.triggered'));
    const opened = await store.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, planId);
    expect(opened).toMatchObject({ state: 'triggered', verification: { state: 'complete' } });
    const shares = (await store.findBy<GrantRecord>(GRANTS, 'sourceId', planId)).filter((g) => g.kind === 'memoir');
    expect(shares).toHaveLength(2);
    for (const g of shares) expect(g.opensAt! <= new Date().toISOString()).toBe(true);

    // An heir claims: the claim event names the amount.
    await write(heirA, address, c.compiled.abi, 'claim');
    await anvil.mine(2);
    await until('the claim', async () => (await recorded(depId)).some((e) => e.type === 'deadman.claimed'));
    await anvil.mine(5);
    const later = watcher!.stats.polls;
    await until('more polls', () => watcher!.stats.polls > later + 3);

    const events = await recorded(depId);
    expect(events.map((e) => e.type)).toEqual([
      'deadman.warning',
      'deadman.reset',
      'deadman.triggered',
      'deadman.claimed',
    ]);
    expect(events[3]!.data).toMatchObject({
      beneficiary: heirA.address,
      amount: parseEther('6').toString(),
      asset: 'native',
      contractAddress: address,
      network: '31337',
    });

    // Delivered once each, signed with the subscription's secret.
    await until('the deliveries', () => deadmanDeliveries().length === 5);
    await dispatcher.idle();
    const delivered = deadmanDeliveries();
    expect(delivered.map(({ body }) => body.type).sort()).toEqual([
      'deadman.claimed',
      'deadman.reset',
      'deadman.triggered',
      'deadman.warning',
      'verification.complete',
    ]);
    for (const { r } of delivered)
      expect(verifyWebhookSignature(r.body, String(r.headers['x-webhook-signature']), secret)).toBe(true);
    expect(
      verifyWebhookSignature(delivered[0]!.r.body, String(delivered[0]!.r.headers['x-webhook-signature']), SECRET),
    ).toBe(false);
  }, 120_000);
});

import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Address, Cell, loadStateInit, toNano } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRANTS, type GrantRecord } from '../../src/accounts/grants.js';
import { systemClock } from '../../src/core/clock.js';
import { DEPLOYMENTS, type DeploymentRecord } from '../../src/contracts/deployments.js';
import { TON_OP } from '../../src/contracts/ton/index.js';
import { EVENTS, type EventRecord } from '../../src/events/events.js';
import { MEMOIR_HEIR_PLANS, type HeirPlanRecord } from '../../src/memoir/heir-plans.js';
import type { Watcher } from '../../src/watch/watcher.js';
import { Dispatcher, verifyWebhookSignature } from '../../src/webhooks/index.js';
import type { TestServer } from '../helpers.js';
import { startTonApiStandin, type TonApiStandin } from '../support/ton-api.js';
import { makeCert, startReceiver } from '../webhooks/helpers.js';
import { call, sendOp, tonPlan } from '../contracts/ton-register-support.js';
import { startTonWatchServer, tonWatcher } from './ton-watch-support.js';

// A TON plan followed from the generated deploy script to the heir's claim, on the toncenter-kind stand-in backed
// by @ton/sandbox: the script (run on its own with tsx) builds the StateInit and deployment body, the owner's
// sandbox wallet sends them, register_deployment verifies the contract, the linked memoir plan becomes watched, and
// the watcher's own loop sends warning, reset (across a restart), trigger (opening the plan's shares) and claim,
// each recorded once and delivered once as a signed webhook.

const run = promisify(execFile);
const TMP = join(import.meta.dirname, '.tmp', 'ton-lifecycle');
const DAY = 86_400;
const API_KEY = 'ton-lifecycle-key';

let api: TonApiStandin;
let server: TestServer;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let dispatcher: Dispatcher;
let watcher: Watcher | undefined;

async function until<T>(what: string, probe: () => Promise<T | undefined | false> | T | undefined | false) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const got = await probe();
    if (got) return got;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

function startWatcher(): Watcher {
  watcher = tonWatcher(server, api, API_KEY, 50);
  watcher.start();
  return watcher;
}

beforeAll(async () => {
  api = await startTonApiStandin({ apiKey: API_KEY });
  const tls = makeCert();
  receiver = await startReceiver(tls);
  server = await startTonWatchServer(api, API_KEY, 50, { webhookAllow: '127.0.0.1' });
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
  await api?.close();
  rmSync(TMP, { recursive: true, force: true });
});

const recorded = async (depId: string) =>
  (await server.services.store.all<EventRecord>(EVENTS)).filter(
    (e) => e.type.startsWith('deadman.') && e.data.deploymentId === depId,
  );

const deliveries = () =>
  receiver.received
    .map((r) => ({ r, body: JSON.parse(r.body) as { type: string; data: Record<string, unknown> } }))
    .filter(({ body }) => body.type.startsWith('deadman.') || body.type.startsWith('verification.'));

describe('a TON plan from its deploy script to the claim', () => {
  it('deploys with the script, verifies, and sends warning, reset, trigger and claim once each, signed', async () => {
    const owner = await api.chain.treasury('owner');
    const heirA = await api.chain.treasury('heir-a');
    const heirB = await api.chain.treasury('heir-b');
    const plan = tonPlan(owner.address, [
      { address: heirA.address, percentage: 60 },
      { address: heirB.address, percentage: 40 },
    ]);
    const gen = await call(server, 'POST', '/contracts/generate', plan);
    expect(gen.status, JSON.stringify(gen.body).slice(0, 300)).toBe(200);
    const { id, compiled } = gen.body as { id: string; compiled: { address: string; deployScript: string } };

    // The deploy script the owner downloads, run on its own.
    mkdirSync(TMP, { recursive: true });
    const file = join(TMP, 'deploy.ts');
    writeFileSync(file, compiled.deployScript);
    const { stdout } = await run(process.execPath, ['--import', 'tsx', file], { cwd: process.cwd(), timeout: 60_000 });
    const out = JSON.parse(stdout) as {
      address: string;
      stateInit: string;
      deployBody: string;
      minimumValueTon: string;
    };
    expect(out.address).toBe(compiled.address);
    const init = loadStateInit(Cell.fromBase64(out.stateInit).beginParse());
    const contract = Address.parse(out.address);
    await owner.send({
      to: contract,
      value: toNano(out.minimumValueTon) + toNano('10'),
      bounce: false,
      init: { code: init.code!, data: init.data! },
      body: Cell.fromBase64(out.deployBody),
    });
    api.bump();

    const sub = await call(server, 'POST', '/webhooks/subscriptions', {
      url: receiver.url('/watch'),
      name: 'watch',
      events: ['deadman.warning', 'deadman.reset', 'deadman.triggered', 'deadman.claimed', 'verification.complete'],
    });
    expect(sub.status, JSON.stringify(sub.body)).toBe(201);
    const secret = sub.body.meta.secret as string;
    const linked = await call(server, 'POST', '/svcloom/heirs/plans', {
      plan,
      contractAddress: compiled.address,
      heirAccess: { enabled: true },
    });
    expect(linked.status, JSON.stringify(linked.body)).toBe(201);
    const planId = linked.body.data.plan.id as string;

    const reg = await call(server, 'POST', `/contracts/${id}/deployments`, {
      network: 'ton-testnet',
      address: compiled.address,
    });
    expect(reg.status, JSON.stringify(reg.body)).toBe(200);
    expect(reg.body.data.status).toBe('verified');
    const depId = reg.body.data.id as string;
    const store = server.services.store;
    expect((await store.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, planId))?.watched).toBe(true);
    expect(
      (await call(server, 'POST', `/svcloom/heirs/plans/${planId}/events`, { type: 'deadman.triggered' })).status,
    ).toBe(409);

    startWatcher();
    const first = await until('the first snapshot', async () => {
      const d = await store.get<DeploymentRecord>(DEPLOYMENTS, depId);
      return d?.watch?.snapshot ?? undefined;
    });
    expect(first).toMatchObject({ intervalSeconds: 90 * DAY, graceSeconds: 7 * DAY, triggered: false });
    expect(await recorded(depId)).toEqual([]);

    // 7 days before the release time: the 7-day warning only (the nearest lead time passed), once.
    api.advance((97 - 7) * DAY);
    await until('the warning', async () => (await recorded(depId)).length === 1);
    const seen = watcher!.stats.polls;
    await until('more polls', () => watcher!.stats.polls > seen + 3);
    expect((await recorded(depId)).map((e) => [e.type, e.data.daysLeft])).toEqual([['deadman.warning', 7]]);

    // The watcher stops; the owner checks in meanwhile; a new one sends the reset once, not the warning again.
    await watcher!.stop();
    await sendOp(api, owner, contract, TON_OP.checkIn);
    startWatcher();
    await until('the reset', async () => (await recorded(depId)).length === 2);

    // Past the new release time: the switch fires and the watched plan's shares open at once.
    api.advance(98 * DAY);
    await until('the trigger', async () => (await recorded(depId)).some((e) => e.type === 'deadman.triggered'));
    const opened = await store.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, planId);
    expect(opened).toMatchObject({ state: 'triggered', verification: { state: 'complete' } });
    const shares = (await store.findBy<GrantRecord>(GRANTS, 'sourceId', planId)).filter((g) => g.kind === 'memoir');
    expect(shares).toHaveLength(2);

    await sendOp(api, heirB, contract, TON_OP.claim, (b) => b.storeUint(1, 8));
    await until('the claim', async () => (await recorded(depId)).some((e) => e.type === 'deadman.claimed'));
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
      beneficiary: heirB.address.toString({ bounceable: true }),
      asset: 'native',
      contractAddress: compiled.address,
      network: 'ton-testnet',
    });

    await until('the deliveries', () => deliveries().length === 5);
    await dispatcher.idle();
    const delivered = deliveries();
    expect(delivered.map(({ body }) => body.type).sort()).toEqual([
      'deadman.claimed',
      'deadman.reset',
      'deadman.triggered',
      'deadman.warning',
      'verification.complete',
    ]);
    for (const { r } of delivered)
      expect(verifyWebhookSignature(r.body, String(r.headers['x-webhook-signature']), secret)).toBe(true);
  }, 180_000);
});

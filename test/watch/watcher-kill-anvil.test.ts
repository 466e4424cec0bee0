import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseEther } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '../../src/webhooks/index.js';
import { TEST_MASTER_KEY, tmpDir } from '../helpers.js';
import { ANVIL_KEYS, type Anvil, startAnvil } from '../support/anvil.js';
import { anvilClients, deployGenerated, watchedPlan } from './anvil-plan.js';
import { type Served, startServe } from '../support/cli.js';
import { dropSchemas, randomSchema, testDatabaseUrl } from '../support/engines.js';
import { hasOpenssl, makeCert, startReceiver } from '../webhooks/helpers.js';

// The watcher inside `svc serve`, on each store engine, killed with SIGKILL (no chance to finish a poll, flush a write or stop its
// dispatcher) at moments around each change on the chain, then started again on the same data directory. Every
// occurrence (the 30-day warning, the owner's check-in, the trigger, the heir's claim) must become exactly one event
// and reach the receiver as a signed webhook: none lost, none recorded twice. A delivery in flight at a kill may
// arrive again with the same event id (webhooks are at least once; receivers deduplicate by id).

const DAY = 86_400;
const WEBHOOK_TIMEOUT_MS = 5000;
const owner = privateKeyToAccount(ANVIL_KEYS[0]);
const heirA = privateKeyToAccount(ANVIL_KEYS[1]);
const heirB = privateKeyToAccount(ANVIL_KEYS[2]);

let anvil: Anvil;
let tmp: Awaited<ReturnType<typeof tmpDir>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let caFile: string;

beforeAll(async () => {
  anvil = await startAnvil();
  tmp = await tmpDir('svc-watch-kill-');
  const tls = makeCert();
  caFile = path.join(tmp.dir, 'ca.pem');
  writeFileSync(caFile, tls.cert);
  receiver = await startReceiver(tls);
}, 60_000);

afterAll(async () => {
  await receiver?.close();
  await anvil?.stop();
  await tmp?.cleanup();
});

describe.skipIf(!hasOpenssl()).each(['lowdb', 'postgres'] as const)('the watcher killed mid-run (%s)', (engine) => {
  let serve: Served | undefined;
  let env: Record<string, string>;
  let adminKey: string;
  let kills = 0;
  let schema: string | undefined;
  let dbUrl = '';
  const path_ = '/watch-' + engine;
  async function until<T>(what: string, probe: () => Promise<T | undefined | false> | T | undefined | false) {
    const deadline = Date.now() + 45_000;
    for (;;) {
      const got = await probe();
      if (got) return got;
      if (Date.now() > deadline)
        throw new Error(`timed out waiting for ${what}; svc said: ${serve?.stderr().slice(-800)}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  async function api(method: 'GET' | 'POST', url: string, payload?: object) {
    const res = await fetch(`${serve!.url}/api/v1${url}`, {
      method,
      headers: { authorization: `Bearer ${adminKey}`, ...(payload ? { 'content-type': 'application/json' } : {}) },
      ...(payload ? { body: JSON.stringify(payload) } : {}),
    });
    return { status: res.status, body: (await res.json()) as unknown };
  }

  /** Kills `svc serve` with SIGKILL after `delayMs` (0: at once) and starts it again on the same data directory. */
  async function killAndRestart(delayMs: number): Promise<void> {
    if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
    serve!.child.kill('SIGKILL');
    await serve!.exited;
    kills++;
    serve = await startServe(path.join(tmp.dir, engine), env);
  }

  const clients = () => anvilClients(anvil.url);

  type Delivery = { id: string; type: string; data: Record<string, unknown>; raw: string; signature: string };
  const deliveries = (): Delivery[] =>
    receiver.received
      .filter((r) => r.path === path_)
      .map((r) => {
        const body = JSON.parse(r.body) as { id: string; type: string; data: Record<string, unknown> };
        return { ...body, raw: r.body, signature: String(r.headers['x-webhook-signature']) };
      });
  const delivered = (type: string) => deliveries().some((d) => d.type === type);

  beforeAll(async () => {
    env = {
      SVC_EVM_RPC_URLS: JSON.stringify({ '31337': anvil.url }),
      SVC_WATCH_POLL_MS: '50',
      SVC_WATCH_CONFIRMATIONS: '2',
      SVC_WEBHOOK_ALLOW: '127.0.0.1',
      SVC_WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS),
      NODE_EXTRA_CA_CERTS: caFile,
    };
    if (engine === 'postgres') {
      schema = randomSchema('svc_watchkill');
      dbUrl = await testDatabaseUrl();
      Object.assign(env, {
        SVC_DATABASE_URL: dbUrl,
        SVC_DATABASE_SCHEMA: schema,
        SVC_MASTER_KEY: TEST_MASTER_KEY,
        // A shared store respects the claim of a delivery until its lease ends, even a claim of a killed process: a
        // kill that lands while a delivery is on the wire leaves it to be taken over only then. The default lease
        // (timeout + 60 s) is longer than the waits below allow. A lease of timeout + 3 s keeps the takeover within
        // them and still leaves a claim 3 s to start sending (a later start is given back and claimed again).
        SVC_WEBHOOK_LEASE_MS: String(WEBHOOK_TIMEOUT_MS + 3000),
      });
    }
    serve = await startServe(path.join(tmp.dir, engine), env);
    // The first start on an empty store prints the operator's first key, once.
    adminKey = /(svc_sk_[A-Za-z0-9_-]{43})/.exec(serve.stderr())?.[1] ?? '';
    expect(adminKey, serve.stderr().slice(-1000)).not.toBe('');
  }, 120_000);

  afterAll(async () => {
    if (serve && serve.child.exitCode === null) {
      serve.child.kill('SIGKILL');
      await serve.exited;
    }
    if (schema) await dropSchemas(dbUrl, schema);
  });

  it('loses and doubles no event across SIGKILLs around every change on the chain', async () => {
    const { c, address, hash } = await deployGenerated(api, clients(), owner, watchedPlan(owner, heirA, heirB));

    const sub = await api('POST', '/webhooks/subscriptions', {
      url: receiver.url(path_),
      name: 'watch',
      events: ['deadman.warning', 'deadman.reset', 'deadman.triggered', 'deadman.claimed'],
    });
    expect(sub.status, JSON.stringify(sub.body)).toBe(201);
    const secret = (sub.body as { meta: { secret: string } }).meta.secret;
    const reg = await api('POST', `/contracts/${c.id}/deployments`, { network: 31337, address, txHash: hash });
    expect(reg.status, JSON.stringify(reg.body)).toBe(200);
    await anvil.mine(3);
    // Killed while it takes its first reading.
    await killAndRestart(30);

    // 31 days on: 29 left, the 30-day warning. Killed at once, before the watcher can have read the new blocks.
    await anvil.advance(31 * DAY);
    await anvil.mine(2);
    await killAndRestart(0);
    await until('the warning', () => delivered('deadman.warning'));

    // The owner checks in; killed a poll or so later, while the reset may be between the read and the write.
    await clients().write(owner, address, c.compiled.abi, 'checkIn');
    await anvil.mine(2);
    await killAndRestart(60);
    await until('the reset', () => delivered('deadman.reset'));

    // Past the new deadline: the switch fires. Killed twice in a row, the second time soon after starting.
    await anvil.advance(61 * DAY);
    await anvil.mine(2);
    await killAndRestart(120);
    await killAndRestart(250);
    await until('the trigger', () => delivered('deadman.triggered'));

    // An heir claims; killed as soon as its event is delivered (the cursor may not have moved past it yet).
    await clients().write(heirA, address, c.compiled.abi, 'claim');
    await anvil.mine(2);
    await until('the claim', () => delivered('deadman.claimed'));
    await killAndRestart(0);

    // The restarted watcher reads the same blocks again: it must find every change already recorded. A later change
    // (the second heir's claim) shows it has read past them before the count is taken.
    // (ANVIL_KEYS[2] is not one of anvil's funded accounts: the owner pays for the heir's gas.)
    await clients().send(owner, { to: heirB.address, value: parseEther('1') });
    await clients().write(heirB, address, c.compiled.abi, 'claim');
    await anvil.mine(3);
    await until('the second claim', () => deliveries().filter((d) => d.type === 'deadman.claimed').length >= 2);
    await until(
      'both claims as events',
      () =>
        new Set(
          deliveries()
            .filter((d) => d.type === 'deadman.claimed')
            .map((d) => d.id),
        ).size === 2,
    );
    expect(kills).toBe(6);

    const byId = new Map<string, Delivery>();
    for (const d of deliveries()) {
      // A redelivery carries the same event: same type, same data, and it is signed like the first.
      const first = byId.get(d.id);
      if (first) expect(d.raw).toBe(first.raw);
      else byId.set(d.id, d);
      expect(verifyWebhookSignature(d.raw, d.signature, secret)).toBe(true);
    }
    const events = [...byId.values()];
    expect(events.map((e) => e.type).sort()).toEqual([
      'deadman.claimed',
      'deadman.claimed',
      'deadman.reset',
      'deadman.triggered',
      'deadman.warning',
    ]);
    const warning = events.find((e) => e.type === 'deadman.warning')!.data as Record<string, number>;
    expect(warning).toMatchObject({
      leadDays: 30,
      daysLeft: Math.floor((warning.deadline! - warning.blockTime!) / DAY),
    });
    const claims = events.filter((e) => e.type === 'deadman.claimed').map((e) => [e.data.beneficiary, e.data.amount]);
    expect(claims.sort()).toEqual(
      [
        [heirA.address, parseEther('6').toString()],
        [heirB.address, parseEther('4').toString()],
      ].sort(),
    );
  }, 300_000);
});

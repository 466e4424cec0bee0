import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhookSignature } from '../../src/webhooks/index.js';
import { svcArgs, tmpDir } from '../helpers.js';
import { cleanEnv } from '../support/cli.js';
import { makeCert, startReceiver } from '../webhooks/helpers.js';

// End to end through the real `svc serve` process: operations emit events, the
// dispatcher delivers them signed to a local HTTPS receiver, and the receiver
// verifies them with the exported function. The receiver's certificate is
// trusted the way an operator would do it: NODE_EXTRA_CA_CERTS.

let data: Awaited<ReturnType<typeof tmpDir>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let child: ChildProcessWithoutNullStreams;
let base = '';
let key = '';

beforeAll(async () => {
  data = await tmpDir();
  const tls = makeCert();
  const caFile = path.join(data.dir, 'ca.pem');
  writeFileSync(caFile, tls.cert);
  receiver = await startReceiver(tls);
  const env = cleanEnv();
  Object.assign(env, { SVC_WEBHOOK_ALLOW: '127.0.0.1', NODE_EXTRA_CA_CERTS: caFile, SVC_LOG_LEVEL: 'warn' });
  child = spawn(
    process.execPath,
    svcArgs('serve', '--port', '0', '--data-dir', path.join(data.dir, 'data'), '--log-level', 'info'),
    { env },
  );
  let stderr = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr.on('data', (d) => {
      stderr += d;
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
      const k = /(svc_sk_[A-Za-z0-9_-]{43})/.exec(stderr);
      if (m && k) {
        base = m[1]!;
        key = k[1]!;
        resolve();
      }
    });
    child.on('close', (code) => reject(new Error(`svc serve exited (${code}): ${stderr}`)));
  });
}, 60_000);

afterAll(async () => {
  // Wait for svc to close its store before its directory is removed.
  const exited = child && child.exitCode === null ? new Promise((r) => child.once('exit', r)) : undefined;
  child?.kill('SIGTERM');
  await exited;
  await receiver?.close();
  await data?.cleanup();
});

/** A call with the key; `T` is the answer's JSON as the caller reads it. */
async function api<T = unknown>(method: string, url: string, body?: unknown): Promise<{ status: number; json: T }> {
  const res = await fetch(base + url, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, json: (await res.json()) as T };
}

async function waitFor(pred: () => boolean, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('webhooks end to end', () => {
  it('delivers signed events of real operations, and the test endpoint really delivers', async () => {
    const created = await api<{
      meta: { secret: string; warning: string };
      data: { id: string; _id: string };
    }>('POST', '/api/v1/webhooks/subscriptions', {
      url: receiver.url('/hook'),
      name: 'e2e',
      events: ['api_key.created', 'contract.generated'],
    });
    expect(created.status).toBe(201);
    const secret: string = created.json.meta.secret;
    expect(secret).toMatch(/^whsec_/);
    expect(created.json.meta.warning).toBeTruthy();
    expect(created.json.data).toMatchObject({
      url: receiver.url('/hook'),
      status: 'active',
      events: ['api_key.created', 'contract.generated'],
    });
    expect(created.json.data.id).toBe(created.json.data._id);

    const test = await api<{ data: { responseTime: number } }>(
      'POST',
      `/api/v1/webhooks/subscriptions/${created.json.data.id}/test`,
    );
    expect(test.json.data).toMatchObject({ delivered: true, statusCode: 200, payload: { type: 'test.webhook' } });
    expect(test.json.data.responseTime).toBeGreaterThanOrEqual(0);

    const newKey = await api<{ data: { key: string } }>('POST', '/api/v1/api-keys', {
      name: 'for a client',
      scopes: ['contracts:read'],
      tier: 'public',
    });
    expect(newKey.status).toBe(201);
    await api('POST', '/api/v1/contracts/generate', {
      blockchain: 'solana',
      ownerAddress: '7EYnhQoR9YM3N7UoaKRoA44Uy8JeaZV3qyouov87awMs',
      beneficiaries: [{ name: 'Heir', address: 'So11111111111111111111111111111111111111112', percentage: 100 }],
    });
    await waitFor(() => receiver.received.filter((r) => r.headers['x-webhook-event'] !== 'test.webhook').length >= 2);
    const events = receiver.received.filter((r) => r.headers['x-webhook-event'] !== 'test.webhook');
    expect(events.map((r) => r.headers['x-webhook-event']).sort()).toEqual(['api_key.created', 'contract.generated']);
    for (const r of receiver.received) {
      expect(verifyWebhookSignature(r.body, String(r.headers['x-webhook-signature']), secret)).toBe(true);
      expect(verifyWebhookSignature(r.body + ' ', String(r.headers['x-webhook-signature']), secret)).toBe(false);
      const payload = JSON.parse(r.body);
      expect(payload).toMatchObject({ apiVersion: 'v1', webhookId: created.json.data.id });
      expect(payload.event).toBe(payload.type);
      expect(r.headers['x-webhook-delivery']).toBe(payload.id);
    }
    // No key value travels in an event.
    expect(receiver.received.map((r) => r.body).join('')).not.toContain(newKey.json.data.key);

    const log = await api<{ data: Array<{ type: string; deliveries: Array<{ attempts: unknown[] }> }> }>(
      'GET',
      '/api/v1/webhooks/events?limit=10',
    );
    expect(log.status).toBe(200);
    const types = log.json.data.map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['api_key.created', 'contract.generated']));
    const delivered = log.json.data.find((e) => e.type === 'api_key.created');
    expect(delivered!.deliveries[0]!.attempts.length).toBeGreaterThanOrEqual(1);
  }, 60_000);
});

/**
 * A subscription to every account's events (`accounts: "*"`) is an operator's: creating it needs an internal key with
 * scope `all`, and so does changing, rotating or deleting it. A narrower key of the operator's own account once
 * could point it at its own URL and take its secret, and so receive every account's events.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookRecord } from '../../src/webhooks/index.js';
import { startTestServer, type TestServer } from '../helpers.js';

let srv: TestServer;

async function call(key: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) {
  const res = await srv.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: { authorization: `Bearer ${key}` },
    ...(payload ? { payload } : {}),
  });
  return { status: res.statusCode, body: res.json() as { data?: Record<string, unknown>; error?: { code: string } } };
}

beforeAll(async () => {
  srv = await startTestServer({ config: { webhookAllow: '127.0.0.1' }, listen: false });
});

afterAll(async () => {
  await srv?.close();
});

describe('operator subscriptions (accounts "*")', () => {
  it('a key of the operator account without scope "all" cannot change, rotate or delete one', async () => {
    const url = 'https://127.0.0.1:9/operator';
    const made = await call(srv.adminKey, 'POST', '/webhooks/subscriptions', { url, events: ['*'], accounts: '*' });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const id = made.body.data!.id as string;
    const operator = (await srv.services.store.get<WebhookRecord>('webhooks', id))!.ownerId;
    const narrow = await srv.key({ ownerId: operator, tier: 'internal', scopes: ['webhooks'] });

    const moved = await call(narrow, 'PATCH', `/webhooks/subscriptions/${id}`, { url: 'https://127.0.0.1:9/mine' });
    expect(moved.status).toBe(403);
    expect(moved.body.error?.code).toBe('INSUFFICIENT_SCOPE');
    const rotated = await call(narrow, 'POST', `/webhooks/subscriptions/${id}/regenerate-secret`, {});
    expect(rotated.status).toBe(403);
    const deleted = await call(narrow, 'DELETE', `/webhooks/subscriptions/${id}`);
    expect(deleted.status).toBe(403);
    const stored = (await srv.services.store.get<WebhookRecord>('webhooks', id))!;
    expect(stored.url).toBe(url);

    // The narrow key keeps its own subscriptions, and the operator keeps its own.
    const own = await call(narrow, 'POST', '/webhooks/subscriptions', { url, events: ['*'] });
    expect(own.status).toBe(201);
    const ownId = own.body.data!.id as string;
    expect((await call(narrow, 'PATCH', `/webhooks/subscriptions/${ownId}`, { name: 'mine' })).status).toBe(200);
    expect((await call(narrow, 'DELETE', `/webhooks/subscriptions/${ownId}`)).status).toBe(200);
    expect((await call(srv.adminKey, 'PATCH', `/webhooks/subscriptions/${id}`, { name: 'all' })).status).toBe(200);
    // Another account's id is still a 404, whatever the key.
    const stranger = await srv.key({ tier: 'internal', scopes: ['webhooks'] });
    expect((await call(stranger, 'PATCH', `/webhooks/subscriptions/${id}`, { name: 'x' })).status).toBe(404);
    expect((await call(srv.adminKey, 'DELETE', `/webhooks/subscriptions/${id}`)).status).toBe(200);
  });
});

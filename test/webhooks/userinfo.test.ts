import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/log.js';
import { checkUrl } from '../../src/webhooks/guard.js';
import { startTestServer, type TestServer } from '../helpers.js';

// Webhook URLs carrying credentials (https://user:pass@host/) are refused, and the password is never echoed or logged.

const PASSWORD = 'Pa55w0rd-do-not-leak';
const publicResolver = async () => ['93.184.216.34'];

const lines: string[] = [];
let server: TestServer;
beforeAll(async () => {
  const sink = new Writable({
    write: (chunk, _e, cb) => {
      lines.push(String(chunk));
      cb();
    },
  });
  server = await startTestServer({ listen: false, log: createLogger('trace', sink) });
});
afterAll(async () => {
  await server?.close();
});

const auth = () => ({ authorization: `Bearer ${server.adminKey}` });

function expectRefused(res: { statusCode: number; body: string; json(): unknown }): void {
  expect(res.statusCode).toBe(400);
  const { error } = res.json() as { error: { code: string; details: unknown } };
  expect(error.code).toBe('VALIDATION_ERROR');
  expect(error.details).toEqual([
    { field: 'url', reason: expect.stringMatching(/must not contain a user name or password/) },
  ]);
  expect(res.body).not.toContain(PASSWORD);
  expect(res.body).not.toContain('alice:');
}

describe('webhook URLs with userinfo', () => {
  it('the guard refuses user:pass@, user@ and :pass@ without repeating the URL', async () => {
    for (const url of [
      `https://alice:${PASSWORD}@hooks.example.com/x`,
      'https://alice@hooks.example.com/x',
      `https://:${PASSWORD}@hooks.example.com/x`,
    ]) {
      const err = await checkUrl(url, { resolve: publicResolver }).then(
        () => undefined,
        (e: unknown) => e as { code: string; message: string; details: Array<{ reason: string }> },
      );
      expect(err?.code, url).toBe('VALIDATION_ERROR');
      expect(JSON.stringify(err?.details) + err?.message).not.toContain(PASSWORD);
    }
    await expect(checkUrl('https://hooks.example.com/x', { resolve: publicResolver })).resolves.toBeUndefined();
  });

  it('create answers VALIDATION_ERROR and neither the answer nor the log holds the password', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks/subscriptions',
      headers: auth(),
      payload: { url: `https://alice:${PASSWORD}@hooks.example.com/x`, events: ['*'] },
    });
    expectRefused(res);
    expect(lines.length).toBeGreaterThan(0); // the request was logged
    expect(lines.join('')).not.toContain(PASSWORD);
  });

  it('update answers VALIDATION_ERROR and neither the answer nor the log holds the password', async () => {
    // A subscription to update; its host is an allowed literal address so nothing is resolved.
    const created = await server.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks/subscriptions',
      headers: auth(),
      payload: { url: 'https://93.184.216.34/hook', events: ['*'] },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().data.id as string;
    const before = lines.length;
    const res = await server.app.inject({
      method: 'PATCH',
      url: `/api/v1/webhooks/subscriptions/${id}`,
      headers: auth(),
      payload: { url: `https://alice:${PASSWORD}@93.184.216.34/hook` },
    });
    expectRefused(res);
    expect(lines.length).toBeGreaterThan(before);
    expect(lines.join('')).not.toContain(PASSWORD);
    const after = await server.app.inject({ url: '/api/v1/webhooks/subscriptions', headers: auth() });
    expect(after.json().data.find((w: { id: string }) => w.id === id).url).toBe('https://93.184.216.34/hook');
  });
});

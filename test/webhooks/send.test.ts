import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookClient } from '../../src/webhooks/send.js';
import { hasOpenssl, makeCert, startReceiver, type Tls } from './helpers.js';

const run = hasOpenssl() ? describe : describe.skip;

run('WebhookClient (one attempt over guarded keep-alive connections)', () => {
  let tls: Tls;
  beforeAll(() => {
    tls = makeCert();
  });

  const clients: WebhookClient[] = [];
  const client = (opts: ConstructorParameters<typeof WebhookClient>[0] = {}) => {
    const c = new WebhookClient({ ca: tls.cert, allow: '127.0.0.1', ...opts });
    clients.push(c);
    return c;
  };
  afterAll(async () => {
    for (const c of clients) await c.destroy();
  });

  it('reuses connections for consecutive attempts and sends the exact body and headers', async () => {
    const receiver = await startReceiver(tls);
    try {
      const c = client();
      for (let i = 0; i < 5; i++) {
        const r = await c.send(
          receiver.url(`/h?n=${i}`),
          `{"n":${i}}`,
          { 'content-type': 'application/json', 'x-webhook-id': `evt_${i}` },
          5000,
        );
        expect(r).toMatchObject({ ok: true, statusCode: 200, error: null });
        expect(r.latencyMs).toBeGreaterThanOrEqual(0);
      }
      expect(receiver.received.map((x) => [x.path, x.body, x.headers['x-webhook-id']])).toEqual(
        [0, 1, 2, 3, 4].map((i) => [`/h?n=${i}`, `{"n":${i}}`, `evt_${i}`]),
      );
      // Keep-alive: the five attempts share connections (undici may open a second
      // one when the next request is queued before the first socket is released).
      expect(receiver.connections()).toBeLessThanOrEqual(2);
    } finally {
      await receiver.close();
    }
  });

  it('judges by the status: a large 2xx body is a success, a 4xx with a body a failure', async () => {
    const big = 'x'.repeat(200 * 1024);
    const receiver = await startReceiver(tls, (req) =>
      req.path === '/big' ? { status: 200, body: big } : { status: 410, body: 'gone' },
    );
    try {
      const c = client();
      expect(await c.send(receiver.url('/big'), '{}', {}, 5000)).toMatchObject({
        ok: true,
        statusCode: 200,
        error: null,
      });
      expect(await c.send(receiver.url('/gone'), '{}', {}, 5000)).toMatchObject({
        ok: false,
        statusCode: 410,
        error: 'HTTP 410',
      });
    } finally {
      await receiver.close();
    }
  });

  it('checks the host again when it opens a connection, and connects only to the checked addresses', async () => {
    const receiver = await startReceiver(tls);
    try {
      // The per-attempt check sees the allowed loopback address; by the time the
      // connection is opened the name resolves to a private address.
      const answers = [['127.0.0.1'], ['10.0.0.7']];
      let calls = 0;
      const c = client({ resolve: async () => answers[Math.min(calls++, answers.length - 1)]! });
      const r = await c.send(`https://receiver.test:${receiver.port}/named`, '{}', {}, 5000);
      expect(calls).toBe(2);
      expect(r).toMatchObject({ ok: false, statusCode: null });
      expect(r.error).toMatch(/address refused.*private/);
      expect(r.error).not.toContain('10.0.0.7');
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });

  it('refuses a non-HTTPS URL and reports an unreachable receiver, without throwing', async () => {
    const c = client();
    expect(await c.send('http://127.0.0.1:9/x', '{}', {}, 1000)).toMatchObject({
      ok: false,
      statusCode: null,
      error: expect.stringMatching(/address refused.*https/),
    });
    const receiver = await startReceiver(tls);
    const url = receiver.url('/gone');
    await receiver.close();
    const r = await c.send(url, '{}', {}, 2000);
    expect(r).toMatchObject({ ok: false, statusCode: null });
    expect(r.error).toMatch(/ECONNREFUSED|socket|closed/i);
  });

  it('gives up at the timeout, whether or not headers arrived', async () => {
    const receiver = await startReceiver(tls, () => 'hang');
    try {
      const r = await client().send(receiver.url('/slow'), '{}', {}, 300);
      expect(r).toMatchObject({ ok: false, statusCode: null, error: 'timeout after 300 ms' });
      expect(r.latencyMs).toBeGreaterThanOrEqual(250);
    } finally {
      await receiver.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SENDER_THREAD_NAME, senderThreadProbe, WebhookClient } from '../../src/webhooks/send.js';
import { UNDICI_AGENT, UNDICI_CONNECT } from '../../src/webhooks/wire.js';
import { until } from '../support/loop.js';
import { threadNamesShown, threadsNamed } from '../support/threads.js';
import { hasOpenssl, makeCert, startReceiver, type Tls } from './helpers.js';

describe("the sender thread loads two of undici's modules rather than its index", () => {
  it('they are the Agent and buildConnector the index exports', async () => {
    const [undici, agent, connect] = await Promise.all([
      import('undici'),
      import(UNDICI_AGENT) as Promise<{ default: unknown }>,
      import(UNDICI_CONNECT) as Promise<{ default: unknown }>,
    ]);
    expect(agent.default).toBe(undici.Agent);
    expect(connect.default).toBe(undici.buildConnector);
  });
});

const run = hasOpenssl() ? describe : describe.skip;

run('the webhook sender thread (one per process, shared by every client)', () => {
  let tls: Tls;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let idleMs: number;
  beforeAll(async () => {
    // These tests follow the thread from its start to its stop: it stops with the last close (an earlier file of this
    // worker may have left one waiting). The wait after the last close has a test of its own.
    idleMs = senderThreadProbe.idleFor(0);
    tls = makeCert();
    receiver = await startReceiver(tls, (req) => (req.path === '/hang' ? 'hang' : 200));
  });
  afterAll(async () => {
    senderThreadProbe.idleFor(idleMs);
    await receiver.close();
  });
  const client = () => new WebhookClient({ ca: tls.cert, allow: '127.0.0.1' });

  it('starts with the first attempt, serves every client, and stops when the last one closes', async () => {
    expect(senderThreadProbe.state()).toBeNull();
    const a = client();
    const b = client();
    expect(senderThreadProbe.state()).toBeNull(); // no attempt yet: no thread
    expect(await a.send(receiver.url('/a'), '{}', {}, 5000)).toMatchObject({ ok: true, statusCode: 200 });
    const first = senderThreadProbe.state();
    expect(first).toMatchObject({ clients: 1, referenced: false });
    expect(await b.send(receiver.url('/b'), '{}', {}, 5000)).toMatchObject({ ok: true, statusCode: 200 });
    expect(senderThreadProbe.state()).toMatchObject({ threadId: first!.threadId, clients: 2 });
    await a.close();
    expect(senderThreadProbe.state()).toMatchObject({ threadId: first!.threadId, clients: 1 });
    await b.close();
    expect(senderThreadProbe.state()).toBeNull();
    // A closed client sends nothing; a new one starts a new thread.
    expect(await a.send(receiver.url('/a'), '{}', {}, 5000)).toMatchObject({
      ok: false,
      error: 'the webhook client is closed',
    });
    const c = client();
    expect(await c.send(receiver.url('/c'), '{}', {}, 5000)).toMatchObject({ ok: true });
    expect(senderThreadProbe.state()!.threadId).not.toBe(first!.threadId);
    await c.close();
    expect(senderThreadProbe.state()).toBeNull();
  });

  it('waits a while after the last close: the next client uses it, and it stops when the wait ends', async () => {
    senderThreadProbe.idleFor(120_000);
    try {
      const a = client();
      expect(await a.send(receiver.url('/idle-a'), '{}', {}, 5000)).toMatchObject({ ok: true });
      const first = senderThreadProbe.state()!.threadId;
      await a.close();
      // Waiting, and not keeping the process alive (test/core/pool-exit.test.ts sees such a process end).
      expect(senderThreadProbe.state()).toEqual({ threadId: first, clients: 0, referenced: false, idle: true });
      const b = client();
      expect(await b.send(receiver.url('/idle-b'), '{}', {}, 5000)).toMatchObject({ ok: true });
      expect(senderThreadProbe.state()).toEqual({ threadId: first, clients: 1, referenced: false, idle: false });
      await b.close();
      expect(senderThreadProbe.state()).toMatchObject({ threadId: first, idle: true });
      // A short wait now: the thread stops by itself when it ends.
      senderThreadProbe.idleFor(1);
      await until(() => senderThreadProbe.state() === null);
    } finally {
      senderThreadProbe.idleFor(0);
    }
  });

  it.skipIf(!threadNamesShown)('is shown by the system as svc-sender while it runs', async () => {
    // The thread the test before stopped may still be ending.
    await until(() => threadsNamed(SENDER_THREAD_NAME) === 0);
    const c = client();
    expect(await c.send(receiver.url('/named'), '{}', {}, 5000)).toMatchObject({ ok: true });
    expect(threadsNamed(SENDER_THREAD_NAME)).toBe(1);
    await c.close();
    // Its end is asked for with the last close; the system lists the thread until it has ended.
    await until(() => threadsNamed(SENDER_THREAD_NAME) === 0);
  });

  it('keeps the process alive only while an attempt is under way', async () => {
    const c = client();
    const sent = c.send(receiver.url('/hang'), '{}', {}, 30_000);
    await until(() => receiver.received.some((r) => r.path === '/hang'));
    expect(senderThreadProbe.state()).toMatchObject({ referenced: true });
    await c.destroy();
    expect(await sent).toMatchObject({ ok: false, statusCode: null });
    expect(senderThreadProbe.state()).toBeNull();
  });

  it('close waits for the attempts under way; destroy fails them at once', async () => {
    const slow = await startReceiver(tls, () => ({ status: 204, delayMs: 200 }));
    try {
      const c = client();
      const sent = c.send(slow.url('/slow'), '{}', {}, 30_000);
      await until(() => slow.received.length === 1);
      await c.close();
      expect(await sent).toMatchObject({ ok: true, statusCode: 204, error: null });
    } finally {
      await slow.close();
    }
    const d = client();
    const hanging = d.send(receiver.url('/hang'), '{}', {}, 30_000);
    await until(() => receiver.received.filter((r) => r.path === '/hang').length === 2);
    await d.destroy();
    const result = await hanging;
    expect(result).toMatchObject({ ok: false, statusCode: null });
    expect(result.error).not.toMatch(/timeout/);
  });

  it('a thread that dies fails its attempts, which are tried again like any failure, and the next starts another', async () => {
    const c = client();
    expect(await c.send(receiver.url('/ok'), '{}', {}, 5000)).toMatchObject({ ok: true });
    const dead = senderThreadProbe.state()!.threadId;
    const sent = c.send(receiver.url('/hang'), '{}', {}, 30_000);
    await until(() => receiver.received.filter((r) => r.path === '/hang').length === 3);
    await senderThreadProbe.crash();
    expect(await sent).toMatchObject({
      ok: false,
      statusCode: null,
      error: expect.stringMatching(/the webhook sender thread exited/),
    });
    expect(senderThreadProbe.state()).toBeNull();
    // The same client goes on in a new thread (its pool opened there again).
    expect(await c.send(receiver.url('/again'), '{"n":1}', { 'x-n': '1' }, 5000)).toMatchObject({
      ok: true,
      statusCode: 200,
    });
    expect(senderThreadProbe.state()!.threadId).not.toBe(dead);
    expect(receiver.received.at(-1)).toMatchObject({ path: '/again', body: '{"n":1}', headers: { 'x-n': '1' } });
    await c.close();
    expect(senderThreadProbe.state()).toBeNull();
  });

  it('asks the guard in this thread when a pool connects: a refused host fails the attempt, not the thread', async () => {
    const c = new WebhookClient({
      ca: tls.cert,
      allow: '127.0.0.1',
      // The URL check sees loopback; by the time the pool connects, the name resolves to a metadata address.
      resolve: (() => {
        let calls = 0;
        return async () => (calls++ === 0 ? ['127.0.0.1'] : ['169.254.169.254']);
      })(),
    });
    const r = await c.send(`https://hooks.test:${receiver.port}/x`, '{}', {}, 5000);
    expect(r).toMatchObject({
      ok: false,
      statusCode: null,
      error: expect.stringMatching(/^address refused: host "hooks\.test" resolves to a link-local/),
    });
    // What the name resolves to is not told (anyone may submit any name).
    expect(r.error).not.toContain('169.254');
    // The thread is still there and serves the next attempt.
    const d = client();
    expect(await d.send(receiver.url('/after'), '{}', {}, 5000)).toMatchObject({ ok: true });
    await c.close();
    await d.close();
    expect(senderThreadProbe.state()).toBeNull();
  });
});

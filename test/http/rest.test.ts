import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EnvelopeMeta } from '../../src/core/envelope.js';
import type { ApiErrorBody } from '../../src/core/errors.js';
import { createLogger } from '../../src/core/log.js';
import { buildApp } from '../../src/http/app.js';
import { releaseSlowCall, slowCallStarted, TEST_TOOLS } from '../fixtures/tools.js';
import { startTestServer, type TestServer } from '../helpers.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ tools: TEST_TOOLS, config: { bodyLimit: 4096 } });
});
afterAll(async () => {
  await server?.close();
});

const auth = () => ({ authorization: `Bearer ${server.adminKey}` });

/** An answer's envelope, as these tests read it (a top-level answer carries its own fields beside it). */
interface Envelope {
  success: boolean;
  data?: unknown;
  error?: ApiErrorBody;
  meta: EnvelopeMeta;
  templates?: unknown;
}

function expectEnvelope(
  res: { statusCode: number; headers: Record<string, unknown>; json(): unknown },
  status: number,
  code?: string,
) {
  expect(res.statusCode).toBe(status);
  expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
  const body = res.json() as Envelope;
  expect(body.success).toBe(code === undefined);
  expect(body.meta.requestId).toBe(res.headers['x-request-id']);
  expect(new Date(body.meta.timestamp).toISOString()).toBe(body.meta.timestamp);
  if (code) expect(body.error!.code).toBe(code);
  return body;
}

describe('REST envelope', () => {
  it('answers list_templates at the top level', async () => {
    const res = await server.app.inject({ url: '/api/v1/contracts/templates', headers: auth() });
    const body = expectEnvelope(res, 200);
    expect(body.templates).toHaveLength(5);
    expect(body.data).toBeUndefined();
  });

  it('accepts the key as Bearer, X-API-Key or api_key', async () => {
    for (const req of [
      { url: '/api/v1/contracts/templates', headers: { authorization: `bearer ${server.adminKey}` } },
      { url: '/api/v1/contracts/templates', headers: { 'x-api-key': server.adminKey } },
      { url: `/api/v1/contracts/templates?api_key=${server.adminKey}` },
    ]) {
      expectEnvelope(await server.app.inject(req), 200);
    }
  });

  it('refuses missing, unknown and non-Bearer credentials, with a Bearer challenge', async () => {
    const missing = await server.app.inject({ url: '/api/v1/contracts/templates' });
    expectEnvelope(missing, 401, 'API_KEY_MISSING');
    // RFC 6750 §3.1: no error code when no credential was sent.
    expect(missing.headers['www-authenticate']).toBe('Bearer realm="svc"');
    for (const headers of [{ 'x-api-key': 'svc_pk_nope' }, { authorization: `Basic ${server.adminKey}` }]) {
      const res = await server.app.inject({ url: '/api/v1/contracts/templates', headers });
      expectEnvelope(res, 401, 'API_KEY_INVALID');
      expect(res.headers['www-authenticate']).toBe('Bearer realm="svc", error="invalid_token"');
    }
    // An expired key is a presented credential that is refused.
    const expired = await server.key({ expiresAt: '2001-01-01T00:00:00.000Z' });
    const late = await server.app.inject({
      url: '/api/v1/contracts/templates',
      headers: { authorization: `Bearer ${expired}` },
    });
    expectEnvelope(late, 401, 'API_KEY_INVALID');
    expect(late.headers['www-authenticate']).toBe('Bearer realm="svc", error="invalid_token"');
    // A 401 of a session-only operation is challenged too.
    const session = await server.app.inject({ url: '/api/v1/auth/session' });
    expect(session.statusCode).toBe(401);
    expect(session.headers['www-authenticate']).toBe('Bearer realm="svc"');
    // Other refusals carry no challenge.
    const notFound = await server.app.inject({ url: '/api/v1/nowhere', headers: auth() });
    expect(notFound.headers['www-authenticate']).toBeUndefined();
  });

  it('puts data-shaped outputs under data, with the route status and path params', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo/abc',
      headers: auth(),
      payload: { count: 2, flag: true },
    });
    const body = expectEnvelope(res, 201);
    expect(body.data).toMatchObject({ id: 'abc', count: 2, flag: true });
  });

  it('pages lists with offset metadata in meta.pagination', async () => {
    const res = await server.app.inject({ url: '/api/v1/test/items?page=3&limit=20', headers: auth() });
    const body = expectEnvelope(res, 200);
    expect((body.data as Array<{ n: number }>).map((i) => i.n)).toEqual([41, 42, 43, 44, 45]);
    expect(body.meta.pagination).toEqual({ page: 3, limit: 20, total: 45, pages: 3, hasNext: false, hasPrev: true });
    const defaults = expectEnvelope(await server.app.inject({ url: '/api/v1/test/items', headers: auth() }), 200);
    expect(defaults.meta.pagination).toMatchObject({ page: 1, limit: 20, hasNext: true, hasPrev: false });
    const tooMany = expectEnvelope(
      await server.app.inject({ url: '/api/v1/test/items?limit=101', headers: auth() }),
      400,
      'VALIDATION_ERROR',
    );
    expect(tooMany.error!.details).toEqual([expect.objectContaining({ field: 'limit' })]);
    const notNumber = expectEnvelope(
      await server.app.inject({ url: '/api/v1/test/items?page=two', headers: auth() }),
      400,
      'VALIDATION_ERROR',
    );
    expect(notNumber.error!.details![0]!.field).toBe('page');
  });

  it('reads query numbers in plain decimal only', async () => {
    const limit = async (value: string) => {
      const res = await server.app.inject({ url: `/api/v1/test/items?limit=${value}`, headers: auth() });
      return res.statusCode === 200 ? (res.json() as Envelope) : expectEnvelope(res, 400, 'VALIDATION_ERROR');
    };
    // Number() would read each of these as a number (16, 10, 10, 3, 10): none is how a client writes one.
    for (const value of ['0x10', '1e1', '%2010', '10%20', '0b11', '0o12', '+10', 'Infinity', '1_0', '']) {
      const body = await limit(value);
      expect(body.success, value).toBe(false);
      expect(body.error!.details, value).toEqual([{ field: 'limit', reason: expect.any(String) }]);
    }
    expect((await limit('1.5')).error!.details).toEqual([{ field: 'limit', reason: expect.stringMatching(/whole/) }]);
    expect((await limit('-1')).error!.details![0]!.field).toBe('limit');
    // A whole number written with a decimal part is read as a JSON body or an MCP call reads `10.0`.
    for (const [value, read] of [
      ['10', 10],
      ['007', 7],
      ['10.0', 10],
      ['10.000', 10],
    ] as const)
      expect((await limit(value)).meta.pagination, value).toMatchObject({ limit: read });
  });

  it('names every bad field', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo/a',
      headers: auth(),
      payload: { count: 'x', extra: 1 },
    });
    const body = expectEnvelope(res, 400, 'VALIDATION_ERROR');
    expect(body.error!.details!.map((d) => d.field).sort()).toEqual(['count', 'extra', 'id']);
  });

  it('wraps unknown routes, malformed JSON, wrong content types and non-object bodies', async () => {
    expectEnvelope(await server.app.inject({ url: '/api/v1/nowhere', headers: auth() }), 404, 'NOT_FOUND');
    expectEnvelope(
      await server.app.inject({ method: 'DELETE', url: '/api/v1/contracts/templates', headers: auth() }),
      404,
      'NOT_FOUND',
    );
    expectEnvelope(await server.app.inject({ url: '/elsewhere' }), 404, 'NOT_FOUND');
    // A path that exists, with a method it does not take: 405, and Allow names those it takes.
    const patch = await server.app.inject({ method: 'PATCH', url: '/api/v1/contracts/ctr_abc', headers: auth() });
    expect(expectEnvelope(patch, 405, 'METHOD_NOT_ALLOWED').error!.message).toBe(
      '/api/v1/contracts/ctr_abc does not take PATCH; it takes DELETE, GET.',
    );
    expect(patch.headers.allow).toBe('DELETE, GET');
    const put = await server.app.inject({ method: 'PUT', url: '/api/v1/test/echo/ab', headers: auth() });
    expectEnvelope(put, 405, 'METHOD_NOT_ALLOWED');
    expect(put.headers.allow).toBe('POST');
    expect((await server.app.inject({ url: '/api/v1/test/echo/ab/more', headers: auth() })).statusCode).toBe(404);
    expect((await server.app.inject({ method: 'POST', url: '/docs/static/anything' })).headers.allow).toBe('GET, HEAD');
    const json = { ...auth(), 'content-type': 'application/json' };
    expectEnvelope(
      await server.app.inject({ method: 'POST', url: '/api/v1/test/echo/ab', headers: json, payload: '{"count": 1,' }),
      400,
      'VALIDATION_ERROR',
    );
    expectEnvelope(
      await server.app.inject({ method: 'POST', url: '/api/v1/test/echo/ab', headers: json, payload: '' }),
      400,
      'VALIDATION_ERROR',
    );
    expectEnvelope(
      await server.app.inject({ method: 'POST', url: '/api/v1/test/echo/ab', headers: json, payload: '[1,2]' }),
      400,
      'VALIDATION_ERROR',
    );
    expectEnvelope(
      await server.app.inject({
        method: 'POST',
        url: '/api/v1/test/echo/ab',
        headers: { ...auth(), 'content-type': 'text/plain' },
        payload: 'count=1',
      }),
      400,
      'VALIDATION_ERROR',
    );
    expectEnvelope(
      await server.app.inject({
        method: 'POST',
        url: '/api/v1/test/echo/ab',
        headers: { ...auth(), 'content-type': 'application/xml' },
        payload: '<a/>',
      }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('says why valid JSON with a __proto__ or constructor.prototype key is refused', async () => {
    const json = { ...auth(), 'content-type': 'application/json' };
    const post = (payload: string) =>
      server.app.inject({ method: 'POST', url: '/api/v1/test/echo/ab', headers: json, payload });
    for (const [payload, field] of [
      ['{"count": 1, "__proto__": {"admin": true}}', '__proto__'],
      ['{"count": 1, "nested": [{"ok": 1}, {"__proto__": null}]}', 'nested.1.__proto__'],
      ['{"constructor": {"prototype": {"admin": true}}}', 'constructor.prototype'],
      ['\ufeff{"__proto__": 1}', '__proto__'],
    ] as const) {
      const body = expectEnvelope(await post(payload), 400, 'VALIDATION_ERROR');
      expect(body.error!.message, payload).toMatch(/__proto__ \(or constructor\.prototype\) key/);
      expect(body.error!.message, payload).not.toMatch(/not valid JSON/);
      expect(body.error!.details, payload).toEqual([{ field, reason: expect.stringMatching(/forbidden key/) }]);
    }
    // Malformed JSON is still told so; a "constructor" that is plain data reaches the tool's validation.
    expect(expectEnvelope(await post('{"__proto__": '), 400, 'VALIDATION_ERROR').error!.message).toBe(
      'The body is not valid JSON.',
    );
    const plain = expectEnvelope(await post('{"count": 1, "constructor": "x"}'), 400, 'VALIDATION_ERROR');
    expect(plain.error!.details).toEqual([expect.objectContaining({ field: 'constructor' })]);
  });

  it('refuses oversized bodies with 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/v1/test/echo/ab',
      headers: { ...auth(), 'content-type': 'application/json' },
      payload: JSON.stringify({ count: 1, tags: ['x'.repeat(5000)] }),
    });
    expectEnvelope(res, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('hides internals of unexpected errors', async () => {
    const res = await server.app.inject({ url: '/api/v1/test/fail', headers: auth() });
    const body = expectEnvelope(res, 500, 'INTERNAL_ERROR');
    expect(res.body).not.toMatch(/hunter2|\/srv|stack|\.ts/);
    expect(body.error!.message).toMatch(/request id/);
  });

  it('echoes a well-formed X-Request-Id and replaces a malformed one', async () => {
    const mine = await server.app.inject({
      url: '/api/v1/contracts/templates',
      headers: { ...auth(), 'x-request-id': 'client-123' },
    });
    expect(mine.json().meta.requestId).toBe('client-123');
    const bad = await server.app.inject({
      url: '/api/v1/contracts/templates',
      headers: { ...auth(), 'x-request-id': 'has spaces and <tags>' },
    });
    expect(bad.json().meta.requestId).toMatch(/^req_/);
  });

  it('serves /health, /docs and the OpenAPI document without a key', async () => {
    const health = expectEnvelope(await server.app.inject({ url: '/health' }), 200);
    expect((health.data as { status: string }).status).toBe('ok');
    const docs = await server.app.inject({ url: '/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.body).toMatch(/swagger/i);
    expect((await server.app.inject({ url: '/api/v1/openapi.json' })).json().openapi).toBe('3.0.3');
  });

  it('answers GET and DELETE /mcp with 405', async () => {
    for (const method of ['GET', 'DELETE'] as const) {
      const res = await server.app.inject({ method, url: '/mcp', headers: auth() });
      expect(res.statusCode).toBe(405);
      expect(res.headers.allow).toBe('POST');
    }
  });
});

describe('request log', () => {
  it('writes one line per answered request, with the api_key masked, and at warn level only errors', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write: (chunk, _e, cb) => {
        lines.push(String(chunk));
        cb();
      },
    });
    const logged = await startTestServer({ tools: TEST_TOOLS, log: createLogger('info', sink), listen: false });
    try {
      const ok = await logged.app.inject({
        url: '/api/v1/contracts/templates',
        headers: { authorization: `Bearer ${logged.adminKey}` },
      });
      const missing = await logged.app.inject({ url: `/api/v1/nowhere?api_key=${logged.adminKey}&x=1` });
      const entries = lines.map((l) => JSON.parse(l)).filter((e) => e.msg !== 'incoming request');
      expect(entries.map((e) => e.msg)).toEqual(['request', 'request']);
      expect(entries[0]).toMatchObject({
        level: 30,
        requestId: ok.headers['x-request-id'],
        method: 'GET',
        url: '/api/v1/contracts/templates',
        status: 200,
      });
      expect(entries[1]).toMatchObject({
        requestId: missing.headers['x-request-id'],
        url: '/api/v1/nowhere?api_key=[redacted]&x=1',
        status: 404,
      });
      expect(entries[0].ms).toBeGreaterThanOrEqual(0);
      expect(lines.join('')).not.toContain(logged.adminKey);
      expect(lines.some((l) => l.includes('incoming request') || l.includes('not found'))).toBe(false);
    } finally {
      await logged.close();
    }
    const quiet: string[] = [];
    const warnOnly = await startTestServer({
      tools: TEST_TOOLS,
      log: createLogger(
        'warn',
        new Writable({
          write: (c, _e, cb) => {
            quiet.push(String(c));
            cb();
          },
        }),
      ),
      listen: false,
    });
    try {
      await warnOnly.app.inject({
        url: '/api/v1/contracts/templates',
        headers: { authorization: `Bearer ${warnOnly.adminKey}` },
      });
      expect(quiet).toEqual([]);
      // Without request logs Fastify has no logger of its own, but a request's logger is still the service's: a route
      // outside the tool wrapper that fails unexpectedly is logged (the same app, plus that route).
      const app = await buildApp(warnOnly.services, TEST_TOOLS);
      app.get('/api/v1/test/boom', async () => {
        throw new Error('boom');
      });
      try {
        const failed = await app.inject({ url: '/api/v1/test/boom' });
        expect(failed.statusCode).toBe(500);
        const entries = quiet.map((l) => JSON.parse(l));
        expect(entries).toHaveLength(1);
        expect(entries[0]).toMatchObject({
          level: 50,
          msg: 'request failed',
          requestId: failed.headers['x-request-id'],
          url: '/api/v1/test/boom',
        });
      } finally {
        await app.close();
      }
    } finally {
      await warnOnly.close();
    }
  });
});

describe('graceful shutdown', () => {
  it('lets an in-flight request finish before closing', async () => {
    const s = await startTestServer({ tools: TEST_TOOLS });
    const started = slowCallStarted();
    const pending = fetch(`${s.url}/api/v1/test/slow`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.adminKey}` },
    });
    // Close while the handler is running.
    await started;
    const closing = s.close();
    let closed = false;
    void closing.then(() => (closed = true));
    await new Promise((r) => setTimeout(r, 50));
    expect(closed).toBe(false);
    releaseSlowCall();
    const res = await pending;
    expect(res.status).toBe(200);
    expect((await res.json()).data).toEqual({ done: true });
    await closing;
  });
});

describe('protocol-level failures', () => {
  it('answers headers too large and a malformed request line with the envelope and a request id', async () => {
    const { default: net } = await import('node:net');
    const { startTestServer } = await import('../helpers.js');
    const s = await startTestServer();
    try {
      const port = Number(new URL(s.url).port);
      const raw = (request: string) =>
        new Promise<string>((resolve, reject) => {
          const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
          let out = '';
          socket.on('data', (d) => (out += d));
          socket.on('end', () => resolve(out));
          socket.on('error', reject);
        });
      const big = await raw(
        `GET /api/v1/contracts/templates HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(64 * 1024)}\r\n\r\n`,
      );
      expect(big).toMatch(/^HTTP\/1\.1 431 /);
      const [head, body] = big.split('\r\n\r\n') as [string, string];
      const json = JSON.parse(body);
      expect(json).toMatchObject({ success: false, error: { code: 'PAYLOAD_TOO_LARGE' } });
      expect(head).toContain(`X-Request-Id: ${json.meta.requestId}`);
      const garbage = await raw('NOT HTTP AT ALL\r\n\r\n');
      expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
      expect(JSON.parse(garbage.split('\r\n\r\n')[1]!)).toMatchObject({
        success: false,
        error: { code: 'VALIDATION_ERROR' },
      });
    } finally {
      await s.close();
    }
  });
});

describe('cancellation', () => {
  it('a REST client that disconnects during a compile stops it and frees its place', async () => {
    const { default: http } = await import('node:http');
    const { startTestServer } = await import('../helpers.js');
    const s = await startTestServer();
    try {
      const pool = s.services.contracts.pool;
      const before = pool.stats.aborted;
      const { slowSolidity, untilCompileStarts } = await import('../support/slow-compile.js');
      const source = slowSolidity('Gone');
      const misses = pool.stats.misses;
      const req = http.request(new URL('/api/v1/contracts/compile', s.url), {
        method: 'POST',
        headers: { authorization: `Bearer ${s.adminKey}`, 'content-type': 'application/json' },
      });
      req.on('error', () => undefined);
      req.end(JSON.stringify({ blockchain: 'evm', sourceCode: source }));
      // The client leaves once the compile has started.
      await untilCompileStarts(pool, misses);
      req.destroy();
      for (let i = 0; i < 200 && pool.stats.aborted === before; i++) await new Promise((r) => setTimeout(r, 50));
      expect(pool.stats.aborted).toBe(before + 1);
      // The pool still works afterwards.
      const ok = await s.app.inject({
        method: 'POST',
        url: '/api/v1/contracts/compile',
        headers: { authorization: `Bearer ${s.adminKey}` },
        payload: { blockchain: 'evm', sourceCode: source },
      });
      expect(ok.statusCode).toBe(200);
    } finally {
      await s.close();
    }
  });
});

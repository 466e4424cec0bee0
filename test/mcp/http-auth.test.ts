import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock, startTestServer, type TestServer } from '../helpers.js';
import { httpClient } from '../mcp-clients.js';

// MCP over HTTP: every JSON-RPC request is authenticated,
// counted and labelled like a REST call; browser origins and Host names are
// checked against DNS rebinding; malformed params are -32602.

const clock = new FakeClock();
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ clock, config: { allowedOrigins: ['https://app.example.com'] } });
});
afterAll(async () => {
  await server?.close();
});

async function rpc(body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(new URL('/mcp', server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};
const list = (id = 2) => ({ jsonrpc: '2.0', id, method: 'tools/list' });

describe('MCP over HTTP: authenticated on every call', () => {
  it('refuses initialize and tools/list without a valid key: 401 with WWW-Authenticate: Bearer', async () => {
    for (const headers of [{}, { authorization: 'Bearer svc_pk_wrongwrongwrongwrongwrongwrongwrongwrongwro' }] as Array<
      Record<string, string>
    >) {
      for (const body of [initialize, list()]) {
        const res = await rpc(body, headers);
        expect(res.status).toBe(401);
        // RFC 6750 §3.1: error="invalid_token" for a key that was sent and refused, no error code without one.
        expect(res.headers.get('www-authenticate')).toBe(
          headers.authorization ? 'Bearer realm="svc", error="invalid_token"' : 'Bearer realm="svc"',
        );
        expect(res.json.error.code).toBe(-32001);
        expect(res.json.error.data.code).toMatch(/^API_KEY_(MISSING|INVALID)$/);
        expect(res.json.error.message).not.toMatch(/MCP error/);
        expect(res.json.id).toBe(body.id);
      }
    }
    // The SDK client notices at connect time (mcp-remote connected with a wrong key without noticing before).
    await expect(httpClient(server.url, 'svc_pk_wrongwrongwrongwrongwrongwrongwrongwrongwro')).rejects.toThrow(
      /invalid/i,
    );
  });

  it('counts tools/list, resources and prompts like REST calls and labels every answer with X-RateLimit-*', async () => {
    clock.advance(15 * 60 * 1000);
    const key = await server.key({ tier: 'public', scopes: ['contracts'] });
    const auth = { authorization: `Bearer ${key}` };
    const first = await rpc(list(), auth);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-limit')).toBe('100');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('99');
    expect(first.headers.get('x-ratelimit-reset')).toMatch(/^\d{4}-\d\d-\d\dT/);
    for (const method of ['resources/templates/list', 'prompts/list']) {
      expect((await rpc({ jsonrpc: '2.0', id: 3, method }, auth)).status).toBe(200);
    }
    // REST and MCP share one counter.
    const rest = await fetch(`${server.url}/api/v1/contracts/templates`, { headers: auth });
    expect(rest.headers.get('x-ratelimit-remaining')).toBe('96');
    // A batch counts once per request it carries; a notification in it is no request.
    const batch = await rpc([list(10), list(11), list(12)], auth);
    expect(batch.headers.get('x-ratelimit-remaining')).toBe('93');
    const mixed = await rpc(
      [
        list(13),
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', method: 'notifications/x' },
      ],
      auth,
    );
    expect(mixed.headers.get('x-ratelimit-remaining')).toBe('92');
    // Exhausted: 429 with Retry-After, at the HTTP level.
    for (let i = 0; i < 92; i++) await rpc(list(), auth);
    const limited = await rpc(list(), auth);
    expect(limited.status).toBe(429);
    expect(limited.json.error.data.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('counts and labels the answers the endpoint refuses before JSON-RPC (bad JSON, wrong type, GET), as REST does', async () => {
    clock.advance(15 * 60 * 1000);
    const key = await server.key({ tier: 'public', scopes: ['contracts'] });
    const auth = { authorization: `Bearer ${key}` };
    const post = (body: string, type = 'application/json') =>
      fetch(new URL('/mcp', server.url), {
        method: 'POST',
        headers: { ...auth, 'content-type': type, accept: 'application/json, text/event-stream' },
        body,
      });
    const answers = [
      await post('{"jsonrpc":'),
      await post('{}', 'text/xml'),
      await fetch(new URL('/mcp', server.url), { headers: auth }),
      await fetch(new URL('/mcp', server.url), { method: 'DELETE', headers: auth }),
    ];
    expect(answers.map((r) => r.status)).toEqual([400, 400, 405, 405]);
    expect(answers.map((r) => r.headers.get('x-ratelimit-remaining'))).toEqual(['99', '98', '97', '96']);
    for (const r of answers) {
      expect(r.headers.get('x-ratelimit-limit')).toBe('100');
      expect(r.headers.get('x-ratelimit-reset')).toMatch(/^\d{4}-\d\d-\d\dT/);
    }
    // The same counter as the calls that reach the server.
    expect((await rpc(list(), auth)).headers.get('x-ratelimit-remaining')).toBe('95');
  });

  it('lets a page on a listed origin call from the browser: a preflight, then answers it may read', async () => {
    const preflight = (origin: string) =>
      fetch(new URL('/mcp', server.url), {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type, mcp-protocol-version',
        },
      });
    const ok = await preflight('https://app.example.com');
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(ok.headers.get('access-control-allow-methods')).toBe('POST');
    const allowed = ok.headers.get('access-control-allow-headers')!.toLowerCase();
    for (const h of ['authorization', 'content-type', 'mcp-protocol-version', 'x-api-key'])
      expect(allowed).toContain(h);
    expect(ok.headers.get('access-control-allow-credentials')).toBeNull();
    expect(ok.headers.get('vary')).toMatch(/origin/i);
    // An origin not listed gets no CORS headers: the browser then sends nothing.
    const evil = await preflight('https://evil.example');
    expect(evil.status).toBe(403);
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    // The call itself, and a refused one, name the origin so the page can read the answer and its headers.
    const auth = { authorization: `Bearer ${server.adminKey}` };
    const listed = await rpc(list(), { ...auth, origin: 'https://app.example.com' });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    const exposed = listed.headers.get('access-control-expose-headers')!.toLowerCase();
    for (const h of ['x-ratelimit-remaining', 'x-request-id', 'www-authenticate', 'retry-after'])
      expect(exposed).toContain(h);
    const refused = await rpc(list(), { origin: 'https://app.example.com' });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    // Without an Origin (not a browser) and on REST: no CORS headers at all.
    expect((await rpc(list(), auth)).headers.get('access-control-allow-origin')).toBeNull();
    const rest = await fetch(new URL('/api/v1/contracts/templates', server.url), {
      headers: { ...auth, origin: 'https://app.example.com' },
    });
    expect(rest.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses a browser Origin that is not allowed, and a non-loopback Host while bound to loopback', async () => {
    const auth = { authorization: `Bearer ${server.adminKey}` };
    const evil = await rpc(list(), { ...auth, origin: 'https://evil.example' });
    expect(evil.status).toBe(403);
    expect(evil.json.error.data.code).toBe('ORIGIN_NOT_ALLOWED');
    expect((await rpc(list(), { ...auth, origin: 'https://app.example.com' })).status).toBe(200);
    // fetch will not send another Host header: node:http does.
    const withHost = (host: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(new URL('/mcp', server.url), {
          method: 'POST',
          headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...auth },
        });
        req.on('response', (res) => {
          let body = '';
          res.on('data', (d) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode!, body }));
        });
        req.on('error', reject);
        req.end(JSON.stringify(list()));
      });
    const rebinding = await withHost('attacker.example:80');
    expect(rebinding.status).toBe(403);
    expect(JSON.parse(rebinding.body).error.data.code).toBe('ORIGIN_NOT_ALLOWED');
    expect((await withHost('localhost:1234')).status).toBe(200);
    expect((await withHost('[::1]')).status).toBe(200);
  });

  it('answers malformed tool arguments with -32602 naming the field, without a doubled prefix', async () => {
    const auth = { authorization: `Bearer ${server.adminKey}` };
    const res = await rpc(
      { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'get_jurisdiction', arguments: 'fr' } },
      auth,
    );
    expect(res.json.error.code).toBe(-32602);
    expect(res.json.error.message).toMatch(/^Invalid params for tools\/call: arguments: /);
    expect(res.json.error.data.details[0].field).toBe('arguments');
    // A parameter left out is said to be required.
    const uriless = await rpc({ jsonrpc: '2.0', id: 9, method: 'resources/read', params: {} }, auth);
    expect(uriless.json.error.code).toBe(-32602);
    expect(uriless.json.error.data.details).toEqual([{ field: 'uri', reason: 'This field is required.' }]);
    // A request's own fields are no person's: a tool call without its tool's name is not asked to "Enter a name."
    const nameless = await rpc({ jsonrpc: '2.0', id: 10, method: 'tools/call', params: { arguments: {} } }, auth);
    expect(nameless.json.error.code).toBe(-32602);
    expect(nameless.json.error.data.details).toEqual([{ field: 'name', reason: 'This field is required.' }]);
    const missing = await rpc(
      { jsonrpc: '2.0', id: 8, method: 'resources/read', params: { uri: 'svc://jurisdictions/zz' } },
      auth,
    );
    expect(missing.json.error.code).toBe(-32002);
    expect(missing.json.error.message).toBe('Resource not found: svc://jurisdictions/zz');
  });
});

describe('credentials in one request', () => {
  it('a non-Bearer Authorization header does not hide a valid X-API-Key', async () => {
    const headers = { authorization: 'Basic dXNlcjpwYXNz', 'x-api-key': server.adminKey };
    expect((await fetch(`${server.url}/api/v1/contracts/templates`, { headers })).status).toBe(200);
    expect((await rpc(list(), headers)).status).toBe(200);
  });

  it('two different keys in one request are a 400', async () => {
    const other = await server.key({ tier: 'public', scopes: ['contracts'] });
    const headers = { authorization: `Bearer ${server.adminKey}`, 'x-api-key': other };
    const rest = await fetch(`${server.url}/api/v1/contracts/templates`, { headers });
    expect(rest.status).toBe(400);
    expect(((await rest.json()) as { error: { code: string } }).error.code).toBe('VALIDATION_ERROR');
    const mcp = await rpc(list(), headers);
    expect(mcp.status).toBe(400);
    // A malformed request, not a refused credential: -32600 as for any other refusal of the request itself.
    expect(mcp.json.error).toMatchObject({ code: -32600, data: { code: 'VALIDATION_ERROR' } });
    // The same key twice is fine.
    expect(
      (
        await fetch(`${server.url}/api/v1/contracts/templates`, {
          headers: { authorization: `Bearer ${other}`, 'x-api-key': other },
        })
      ).status,
    ).toBe(200);
  });
});

import { cp, rm } from 'node:fs/promises';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServices, openServices } from '../../src/app.js';
import { systemClock } from '../../src/core/clock.js';
import { loadConfig } from '../../src/core/config.js';
import { ERROR_STATUS } from '../../src/core/errors.js';
import { createLogger } from '../../src/core/log.js';
import { createKey } from '../../src/keys/provision.js';
import { findTool } from '../../src/tools/index.js';
import { TEST_TOOLS } from '../fixtures/tools.js';
import { startTestServer, tmpDir, type TestServer } from '../helpers.js';
import { httpClient, mcpHttpCall, mcpOutcome, restOutcome, stdioClient, type Outcome } from '../mcp-clients.js';

// One input through MCP stdio (`svc mcp` child process), MCP Streamable HTTP and
// REST must give the same output, for success and for every error class.

type Cred = 'admin' | 'chatOnly' | 'none' | 'wrong';
const WRONG_KEY = 'svc_sk_thisKeyDoesNotExist0000000000000000000000';

interface Case {
  name: string;
  cred: Cred;
  tool: string;
  args: Record<string, unknown>;
  /** REST request for the same call. */
  rest: { method: 'GET' | 'POST'; path: string; body?: unknown };
  expect: { ok: boolean; code?: keyof typeof ERROR_STATUS };
}

const realCases: Case[] = [
  {
    name: 'success',
    cred: 'admin',
    tool: 'list_templates',
    args: {},
    rest: { method: 'GET', path: '/api/v1/contracts/templates' },
    expect: { ok: true },
  },
  {
    name: 'missing key',
    cred: 'none',
    tool: 'list_templates',
    args: {},
    rest: { method: 'GET', path: '/api/v1/contracts/templates' },
    expect: { ok: false, code: 'API_KEY_MISSING' },
  },
  {
    name: 'wrong key',
    cred: 'wrong',
    tool: 'list_templates',
    args: {},
    rest: { method: 'GET', path: '/api/v1/contracts/templates' },
    expect: { ok: false, code: 'API_KEY_INVALID' },
  },
  {
    name: 'scope',
    cred: 'chatOnly',
    tool: 'list_templates',
    args: {},
    rest: { method: 'GET', path: '/api/v1/contracts/templates' },
    expect: { ok: false, code: 'INSUFFICIENT_SCOPE' },
  },
  {
    name: 'validation',
    cred: 'admin',
    tool: 'list_templates',
    args: { blockchain: 'evm' },
    rest: { method: 'GET', path: '/api/v1/contracts/templates?blockchain=evm' },
    expect: { ok: false, code: 'VALIDATION_ERROR' },
  },
];

// Error classes only test tools can produce; served by the in-process transports.
const testCases: Case[] = [
  {
    name: 'data shape with path param',
    cred: 'admin',
    tool: 'test_echo',
    args: { id: 'ab', count: 3, tags: ['x'] },
    rest: { method: 'POST', path: '/api/v1/test/echo/ab', body: { count: 3, tags: ['x'] } },
    expect: { ok: true },
  },
  {
    name: 'field validation',
    cred: 'admin',
    tool: 'test_echo',
    args: { id: 'ab', count: 0 },
    rest: { method: 'POST', path: '/api/v1/test/echo/ab', body: { count: 0 } },
    expect: { ok: false, code: 'VALIDATION_ERROR' },
  },
  {
    name: 'not found',
    cred: 'admin',
    tool: 'test_missing',
    args: { id: 'x1' },
    rest: { method: 'GET', path: '/api/v1/test/missing/x1' },
    expect: { ok: false, code: 'NOT_FOUND' },
  },
  {
    name: 'internal',
    cred: 'admin',
    tool: 'test_fail',
    args: {},
    rest: { method: 'GET', path: '/api/v1/test/fail' },
    expect: { ok: false, code: 'INTERNAL_ERROR' },
  },
  {
    name: 'list shape',
    cred: 'admin',
    tool: 'test_items',
    args: { page: 2, limit: 10 },
    rest: { method: 'GET', path: '/api/v1/test/items?page=2&limit=10' },
    expect: { ok: true },
  },
];

let server: TestServer;
let keys: Record<Cred, string | undefined>;
const httpClients = new Map<Cred, Client>();
const stdioClients = new Map<Cred, Client>();
let stdioDir: Awaited<ReturnType<typeof tmpDir>>;
const copies: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ tools: TEST_TOOLS });
  // The stdio server has its own data directory (one process per directory), with keys of the same kinds.
  stdioDir = await tmpDir();
  const services = await openServices(loadConfig({ 'data-dir': stdioDir.dir }, {}), { log: createLogger('silent') });
  const stdioKeys = {
    admin: (await createKey(services.store, { name: 'a', tier: 'internal', scopes: ['all'] }, systemClock)).key,
    chatOnly: (await createKey(services.store, { name: 'c', tier: 'public', scopes: ['chat'] }, systemClock)).key,
  };
  await closeServices(services);
  // Each `svc mcp` process locks its data directory, so every client gets its own copy.
  const dirFor = async (c: Cred) => {
    const dir = `${stdioDir.dir}-${c}`;
    await cp(stdioDir.dir, dir, { recursive: true });
    copies.push(dir);
    return dir;
  };
  keys = {
    admin: server.adminKey,
    chatOnly: await server.key({ tier: 'public', scopes: ['chat'] }),
    none: undefined,
    wrong: WRONG_KEY,
  };
  const stdioCred: Record<Cred, string | undefined> = { ...stdioKeys, none: undefined, wrong: WRONG_KEY };
  await Promise.all(
    (['admin', 'chatOnly', 'none', 'wrong'] as Cred[]).map(async (c) => {
      // Over HTTP, a missing or wrong key cannot even connect (every JSON-RPC request is authenticated): raw calls below.
      if (c !== 'none' && c !== 'wrong') httpClients.set(c, await httpClient(server.url, keys[c]));
      stdioClients.set(c, await stdioClient(await dirFor(c), stdioCred[c]));
    }),
  );
}, 60_000);

afterAll(async () => {
  await Promise.all([...httpClients.values(), ...stdioClients.values()].map((c) => c.close()));
  await server?.close();
  await stdioDir?.cleanup();
  await Promise.all(copies.map((d) => rm(d, { recursive: true, force: true })));
});

async function viaRest(
  c: Case,
): Promise<{ status: number; outcome: Outcome; headers: Headers; json: Record<string, unknown> }> {
  const headers: Record<string, string> = {};
  const key = keys[c.cred];
  if (key) headers.authorization = `Bearer ${key}`;
  if (c.rest.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(server.url + c.rest.path, {
    method: c.rest.method,
    headers,
    body: c.rest.body === undefined ? undefined : JSON.stringify(c.rest.body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  const tool = TEST_TOOLS.find((t) => t.name === c.tool)!;
  return {
    status: res.status,
    outcome: restOutcome(res.status, json, tool.rest.shape, tool.rest),
    headers: res.headers,
    json,
  };
}

/** A tools/call over MCP HTTP with a credential: through the SDK client, or raw when the client could not connect. */
async function viaHttp(cred: Cred, tool: string, args: Record<string, unknown>): Promise<Outcome> {
  const client = httpClients.get(cred);
  if (client) return mcpOutcome(client, tool, args);
  const { ok, body, status } = await mcpHttpCall(server.url, keys[cred], tool, args);
  expect(status).toBe(401);
  return { ok, body };
}

function checkExpected(outcome: Outcome, c: Case): void {
  expect(outcome.ok).toBe(c.expect.ok);
  if (!c.expect.ok) expect((outcome.body as { error: { code: string } }).error.code).toBe(c.expect.code);
}

/** Outputs that name the calling key differ by key, not by transport. */
function withoutPrincipal(o: Outcome): Outcome {
  if (!o.ok || typeof o.body !== 'object' || o.body === null) return o;
  const { principal: _p, ...rest } = o.body as Record<string, unknown>;
  return { ok: o.ok, body: rest };
}

describe('the same call over MCP stdio, MCP HTTP and REST', () => {
  it.each(realCases)('$name', async (c) => {
    const rest = await viaRest(c);
    const http = await viaHttp(c.cred, c.tool, c.args);
    const stdio = await mcpOutcome(stdioClients.get(c.cred)!, c.tool, c.args);
    checkExpected(rest.outcome, c);
    expect(http).toEqual(rest.outcome);
    expect(stdio).toEqual(rest.outcome);
    if (c.expect.code) expect(rest.status).toBe(ERROR_STATUS[c.expect.code]);
    expect(rest.headers.get('x-request-id')).toBe((rest.json.meta as { requestId: string }).requestId);
  });

  it.each(testCases)('$name (in-process transports)', async (c) => {
    const rest = await viaRest(c);
    const http = await viaHttp(c.cred, c.tool, c.args);
    checkExpected(rest.outcome, c);
    expect(withoutPrincipal(http)).toEqual(withoutPrincipal(rest.outcome));
    if (c.expect.code) expect(rest.status).toBe(ERROR_STATUS[c.expect.code]);
    else expect(rest.status).toBe(TEST_TOOLS.find((t) => t.name === c.tool)!.rest.status ?? 200);
  });

  it('the success output is what the registry handler returns', async () => {
    const res = await viaRest(realCases[0]!);
    expect((res.outcome.body as { templates: Array<{ type: string }> }).templates.map((t) => t.type)).toEqual([
      'common-law',
      'civil-law',
      'islamic-mirth',
      'islamic-wasiyyah',
      'custom',
    ]);
    expect(findTool('list_templates')).toBeDefined();
  });

  it('validation details name the field on every transport', async () => {
    const c = testCases[1]!;
    const rest = await viaRest(c);
    expect((rest.outcome.body as { error: { details: Array<{ field: string }> } }).error.details).toEqual([
      expect.objectContaining({ field: 'count' }),
    ]);
  });

  it('an unexpected error reveals nothing internal', async () => {
    const rest = await viaRest(testCases[3]!);
    const text = JSON.stringify(rest.json);
    expect(text).not.toMatch(/hunter2|secret|\.ts|stack/);
    const http = await mcpOutcome(httpClients.get('admin')!, 'test_fail', {});
    expect(JSON.stringify(http)).not.toMatch(/hunter2|secret|\.ts|stack/);
  });

  it('an unknown tool over MCP is a NOT_FOUND error result', async () => {
    const out = await mcpOutcome(stdioClients.get('admin')!, 'no_such_tool', {});
    expect(out).toEqual({
      ok: false,
      body: { success: false, error: { code: 'NOT_FOUND', message: 'Unknown tool "no_such_tool"' } },
    });
  });
});

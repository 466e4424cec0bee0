import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServices, openServices } from '../../src/app.js';
import { ACCOUNTS, newAccount, type AccountRecord } from '../../src/accounts/records.js';
import { systemClock } from '../../src/core/clock.js';
import { loadConfig } from '../../src/core/config.js';
import { createLogger } from '../../src/core/log.js';
import { API_KEYS, type ApiKeyRecord, type NewKey } from '../../src/keys/keys.js';
import { createKey } from '../../src/keys/provision.js';
import type { Services } from '../../src/tools/define.js';
import { svcArgs, tmpDir } from '../helpers.js';
import { cleanEnv } from '../support/cli.js';

// `svc mcp` answers its first lists from the build-time manifest and a light key check, before the SDK, the tools and
// the store load (docs/architecture.md, "The first lists of svc mcp"). Each case spawns the suite's build with one
// key and asks the four lists twice: first at once (answered early), then after a `logging/setLevel` (which the early
// path leaves to the server, and every request after it: those lists are the live server's answers). Both must be
// the same. The SDK's Server answers `logging/setLevel` as soon as it is connected, long before the tools have
// loaded: a list answered before its answer was answered early.

const LISTS = ['tools/list', 'resources/list', 'resources/templates/list', 'prompts/list'] as const;
const EARLY = [2, 3, 4, 5];
const MARK = 6;
const LIVE = [7, 8, 9, 10];

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'first-lists', version: '1' } },
};
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };
/** Answered by the Server as soon as it is connected; never early. */
const mark = (id: number) => ({ jsonrpc: '2.0', id, method: 'logging/setLevel', params: { level: 'info' } });

interface Answer {
  id: number;
  result?: unknown;
  error?: { code: number; message: string; data?: { code?: string } };
}

/** Spawns `svc mcp` with `apiKey`, sends initialize, the lists, the mark and the lists again; the answers in order. */
function session(dataDir: string, apiKey: string): Promise<Answer[]> {
  return converse(dataDir, apiKey, [
    INITIALIZE,
    INITIALIZED,
    ...LISTS.map((method, i) => ({ jsonrpc: '2.0', id: EARLY[i], method })),
    mark(MARK),
    ...LISTS.map((method, i) => ({ jsonrpc: '2.0', id: LIVE[i], method })),
  ]);
}

/**
 * Spawns `svc mcp` with `apiKey`, sends `first`, then `late` once `initialize` is answered (while the service is
 * loading); the answers in order, once every request is answered.
 */
function converse(dataDir: string, apiKey: string, first: object[], late: object[] = []): Promise<Answer[]> {
  const expected = [...first, ...late].filter((r) => 'id' in r).length;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, svcArgs('mcp', '--data-dir', dataDir), {
      env: cleanEnv({ SVC_API_KEY: apiKey, SVC_LOG_LEVEL: 'warn' }),
    });
    const answers: Answer[] = [];
    let out = '';
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const lines = out.split('\n');
      out = lines.pop()!;
      for (const line of lines) {
        const a = JSON.parse(line) as Answer;
        answers.push(a);
        if (a.id === 1 && late.length) child.stdin.write(`${late.map((r) => JSON.stringify(r)).join('\n')}\n`);
      }
      if (answers.length >= expected) child.stdin.end();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (answers.length < expected)
        reject(new Error(`svc mcp ended (${code}) after ${answers.length} answers: ${stderr}`));
      else resolve(answers);
    });
    child.stdin.write(`${first.map((r) => JSON.stringify(r)).join('\n')}\n`);
  });
}

/** The answer to `id`, without its id (the same request asked early and live gets the same answer). */
function answer(answers: Answer[], id: number): Omit<Answer, 'id'> {
  const found = answers.find((a) => a.id === id);
  if (!found) throw new Error(`no answer to ${id}`);
  const { id: _, ...rest } = found;
  return rest;
}

/** The position of the answer to `id` among the answers. */
const position = (answers: Answer[], id: number) => answers.findIndex((a) => a.id === id);

/** Every id up to `last` answered exactly once. */
function answeredOnce(answers: Answer[], last = 10): void {
  expect(answers.map((a) => a.id).sort((a, b) => a - b)).toEqual(Array.from({ length: last }, (_, i) => i + 1));
}

let dataDir: string;
let cleanup: () => Promise<void>;
const keys: Record<string, string> = {};

beforeAll(async () => {
  ({ dir: dataDir, cleanup } = await tmpDir());
  dataDir = path.join(dataDir, 'data');
  const services: Services = await openServices(loadConfig({ 'data-dir': dataDir }, {}), {
    log: createLogger('silent'),
  });
  try {
    const make = async (input: Partial<NewKey>) =>
      createKey(services.store, { name: 'test', tier: 'internal', scopes: ['all'], ...input }, systemClock);
    const account = async (status: AccountRecord['status']) => {
      const record = { ...newAccount({ name: 'a', tier: 'partner', kind: 'customer' }, systemClock), status };
      await services.store.put(ACCOUNTS, record);
      return record.id;
    };
    keys.admin = (await make({})).key;
    keys.scoped = (await make({ ownerId: await account('active'), tier: 'partner', scopes: ['webhooks'] })).key;
    keys.suspended = (await make({ ownerId: await account('suspended'), tier: 'partner', scopes: ['contracts'] })).key;
    keys.limited = (await make({ rateLimit: { all: 2 } })).key;
    keys.elsewhere = (await make({ ipWhitelist: ['10.0.0.1'] })).key;
    const revoked = await make({});
    await services.store.put<ApiKeyRecord>(API_KEYS, { ...revoked.record, revokedAt: new Date().toISOString() });
    keys.revoked = revoked.key;
  } finally {
    await closeServices(services);
  }
}, 60_000);

afterAll(async () => {
  await cleanup?.();
});

describe('svc mcp answers its first lists early, as the live server does', () => {
  it('with a valid key: the full lists, then the server admits (and counts) the same requests', async () => {
    const answers = await session(dataDir, keys.admin!);
    answeredOnce(answers);
    for (const [i, id] of EARLY.entries()) {
      expect(position(answers, id)).toBeLessThan(position(answers, MARK));
      expect(answer(answers, id)).toEqual(answer(answers, LIVE[i]!));
      expect(answer(answers, id).result).toBeDefined();
    }
    expect((answer(answers, 2).result as { tools: unknown[] }).tools.length).toBeGreaterThan(10);
  });

  it('with a key of fewer scopes: the tools it may call, and the scope error for resources and prompts', async () => {
    const answers = await session(dataDir, keys.scoped!);
    answeredOnce(answers);
    const admin = await session(dataDir, keys.admin!);
    const tools = (a: Answer[]) => (answer(a, 2).result as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
    expect(tools(answers).length).toBeGreaterThan(0);
    expect(tools(answers).length).toBeLessThan(tools(admin).length);
    for (const [i, id] of EARLY.entries()) {
      expect(position(answers, id)).toBeLessThan(position(answers, MARK));
      expect(answer(answers, id)).toEqual(answer(answers, LIVE[i]!));
    }
    expect(answer(answers, 3).error?.data?.code).toBe('INSUFFICIENT_SCOPE');
  });

  it.each([
    ['no key', 'none', 'API_KEY_MISSING'],
    ['a wrong key', 'wrong', 'API_KEY_INVALID'],
    ['a revoked key', 'revoked', 'API_KEY_INVALID'],
    ['a key of a suspended account', 'suspended', 'ACCOUNT_SUSPENDED'],
    ['a key used outside its IP whitelist', 'elsewhere', 'IP_NOT_ALLOWED'],
  ])('with %s: the same error early and live', async (_, which, code) => {
    const key = which === 'none' ? '' : which === 'wrong' ? 'svc_sk_not-a-key-of-this-store' : keys[which]!;
    const answers = await session(dataDir, key);
    answeredOnce(answers);
    for (const [i, id] of EARLY.entries()) {
      expect(position(answers, id)).toBeLessThan(position(answers, MARK));
      expect(answer(answers, id)).toEqual(answer(answers, LIVE[i]!));
      expect(answer(answers, id).error?.data?.code).toBe(code);
    }
  });

  it("stops answering early at the key's own rate limit, which the server then applies counting the early ones", async () => {
    const answers = await session(dataDir, keys.limited!);
    answeredOnce(answers);
    const admin = await session(dataDir, keys.admin!);
    // The limit is two requests: two lists answered early, the third by the server (after the mark), refused.
    for (const id of [2, 3]) {
      expect(position(answers, id)).toBeLessThan(position(answers, MARK));
      expect(answer(answers, id)).toEqual(answer(admin, id));
    }
    expect(position(answers, 4)).toBeGreaterThan(position(answers, MARK));
    for (const id of [4, 5, ...LIVE]) expect(answer(answers, id).error?.data?.code).toBe('RATE_LIMIT_EXCEEDED');
  });
});

// An editor often asks for the lists a while after `initialize`, when the service is loading: they are answered early
// too (from the manifest, for the same key verdict), and still handed to the server, which counts them. Here they are
// sent once `initialize` is answered, with a `ping` among them (answered early too), then the mark and the lists again.
describe('svc mcp answers lists asked after initialize early too, until the service has loaded', () => {
  const late = [
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    { jsonrpc: '2.0', id: 3, method: 'ping' },
    { jsonrpc: '2.0', id: 4, method: 'resources/list' },
    mark(5),
    { jsonrpc: '2.0', id: 6, method: 'tools/list' },
    { jsonrpc: '2.0', id: 7, method: 'resources/list' },
  ];

  it.each([
    ['a valid key', 'admin', undefined],
    ['a key of fewer scopes', 'scoped', 'INSUFFICIENT_SCOPE'],
    ['a revoked key', 'revoked', 'API_KEY_INVALID'],
    ['a key of a suspended account', 'suspended', 'ACCOUNT_SUSPENDED'],
  ])('with %s: answered before the server could, as the server answers them', async (_, which, code) => {
    const answers = await converse(dataDir, keys[which]!, [INITIALIZE, INITIALIZED], late);
    answeredOnce(answers, 7);
    for (const id of [2, 3, 4]) expect(position(answers, id)).toBeLessThan(position(answers, 5));
    expect(answer(answers, 3)).toEqual({ jsonrpc: '2.0', result: {} });
    expect(answer(answers, 2)).toEqual(answer(answers, 6));
    expect(answer(answers, 4)).toEqual(answer(answers, 7));
    if (code === undefined) {
      expect((answer(answers, 2).result as { tools: unknown[] }).tools.length).toBeGreaterThan(10);
      expect(answer(answers, 4).result).toBeDefined();
    } else expect(answer(answers, 4).error?.data?.code).toBe(code);
    if (which === 'revoked' || which === 'suspended') expect(answer(answers, 2).error?.data?.code).toBe(code);
  });
});

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
import { SVC_BIN, tmpDir } from '../helpers.js';
import { cleanEnv } from '../support/cli.js';

// `svc mcp` answers its first lists from the build-time manifest and a light key check, before the SDK, the tools and
// the store load (docs/architecture.md, "The first lists of svc mcp"). Each case spawns the suite's build with one
// key and asks the four lists twice: first at once (answered early), then after a `ping` (which the early path leaves
// to the server, and every request after it: those lists are the live server's answers). Both must be the same.
// The SDK's Server answers `ping` as soon as it is connected, long before the tools have loaded: a list answered
// before the ping's answer was answered early.

const LISTS = ['tools/list', 'resources/list', 'resources/templates/list', 'prompts/list'] as const;
const EARLY = [2, 3, 4, 5];
const PING = 6;
const LIVE = [7, 8, 9, 10];

interface Answer {
  id: number;
  result?: unknown;
  error?: { code: number; message: string; data?: { code?: string } };
}

/** Spawns `svc mcp` with `apiKey`, sends initialize, the lists, a ping and the lists again; the answers in order. */
function session(dataDir: string, apiKey: string): Promise<Answer[]> {
  const requests = [
    {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'first-lists', version: '1' } },
    },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    ...LISTS.map((method, i) => ({ jsonrpc: '2.0', id: EARLY[i], method })),
    { jsonrpc: '2.0', id: PING, method: 'ping' },
    ...LISTS.map((method, i) => ({ jsonrpc: '2.0', id: LIVE[i], method })),
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SVC_BIN, 'mcp', '--data-dir', dataDir], {
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
      for (const line of lines) answers.push(JSON.parse(line) as Answer);
      if (answers.length >= 10) child.stdin.end();
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (answers.length < 10) reject(new Error(`svc mcp ended (${code}) after ${answers.length} answers: ${stderr}`));
      else resolve(answers);
    });
    child.stdin.write(`${requests.map((r) => JSON.stringify(r)).join('\n')}\n`);
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

/** Every id answered exactly once. */
function answeredOnce(answers: Answer[]): void {
  expect(answers.map((a) => a.id).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
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
      expect(position(answers, id)).toBeLessThan(position(answers, PING));
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
      expect(position(answers, id)).toBeLessThan(position(answers, PING));
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
      expect(position(answers, id)).toBeLessThan(position(answers, PING));
      expect(answer(answers, id)).toEqual(answer(answers, LIVE[i]!));
      expect(answer(answers, id).error?.data?.code).toBe(code);
    }
  });

  it("stops answering early at the key's own rate limit, which the server then applies counting the early ones", async () => {
    const answers = await session(dataDir, keys.limited!);
    answeredOnce(answers);
    const admin = await session(dataDir, keys.admin!);
    // The limit is two requests: two lists answered early, the third by the server (after the ping), refused.
    for (const id of [2, 3]) {
      expect(position(answers, id)).toBeLessThan(position(answers, PING));
      expect(answer(answers, id)).toEqual(answer(admin, id));
    }
    expect(position(answers, 4)).toBeGreaterThan(position(answers, PING));
    for (const id of [4, 5, ...LIVE]) expect(answer(answers, id).error?.data?.code).toBe('RATE_LIMIT_EXCEEDED');
  });
});

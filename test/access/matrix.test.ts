import { MEMOIR_JOURNAL, memoirId, type JournalEntry } from '../../src/memoir/records.js';
import { CONTRACTS, type ContractRecord } from '../../src/contracts/stored.js';
import { seedDeployment } from '../support/deployments.js';
import { newId } from '../../src/core/ids.js';
import { storeFiles } from '../support/store-files.js';
import { Writable } from 'node:stream';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/core/log.js';
import { ACCOUNTS, newAccount } from '../../src/accounts/records.js';
import { registerUser, sessionHeaders } from '../support/session.js';
import { SESSION_SCOPES } from '../../src/accounts/sessions.js';
import { API_KEYS, hashKey, type ApiKeyRecord } from '../../src/keys/keys.js';
import { hasScope, SCOPES, type Scope, type Tier } from '../../src/accounts/scopes.js';
import { RATE_WINDOW_MS } from '../../src/keys/limits.js';
import type { AnyTool } from '../../src/tools/define.js';
import { createWebhook } from '../../src/webhooks/index.js';
import { TOOLS } from '../../src/tools/index.js';
import { toolSchemas } from '../../src/tools/schema.js';
import { FakeClock, startTestServer, type TestServer } from '../helpers.js';
import { httpClient, mcpHttpCall, mcpOutcome } from '../mcp-clients.js';
import { restRequest } from '../support/rest.js';
import { validSample } from '../support/samples.js';

// The access matrix, generated from the registry: every operation × every kind
// of caller gives the documented outcome over REST and over MCP; every
// id-bearing operation refuses another owner's id with 404; and no key value
// created during the run appears in the data file or the logs.

const AUTH_CODES = new Set([
  'API_KEY_MISSING',
  'API_KEY_INVALID',
  'UNAUTHORIZED',
  'CSRF_FAILED',
  'TIER_NOT_ALLOWED',
  'INSUFFICIENT_SCOPE',
  'IP_NOT_ALLOWED',
  'RATE_LIMIT_EXCEEDED',
]);
type Expected =
  | 'API_KEY_MISSING'
  | 'API_KEY_INVALID'
  | 'UNAUTHORIZED'
  | 'CSRF_FAILED'
  | 'TIER_NOT_ALLOWED'
  | 'INSUFFICIENT_SCOPE'
  | 'IP_NOT_ALLOWED'
  | 'PASS';

const clock = new FakeClock();
const logLines: string[] = [];
const createdKeys: string[] = [];
let server: TestServer;

beforeAll(async () => {
  const sink = new Writable({
    write: (chunk, _e, cb) => {
      logLines.push(String(chunk));
      cb();
    },
  });
  server = await startTestServer({ clock, log: createLogger('trace', sink) });
  createdKeys.push(server.adminKey);
});
afterAll(async () => {
  await server?.close();
});

async function makeKey(opts: {
  tier: Tier;
  scopes: Scope[];
  ipWhitelist?: string[];
  ownerId?: string;
  expiresAt?: string;
}): Promise<string> {
  if (opts.ownerId && !(await server.services.store.get(ACCOUNTS, opts.ownerId))) {
    await server.services.store.put(ACCOUNTS, {
      ...newAccount({ name: 'other', tier: 'internal', kind: 'customer' }, clock),
      id: opts.ownerId,
    });
  }
  const key = await server.key({ name: 'matrix', ...opts });
  createdKeys.push(key);
  return key;
}

function scopePresent(tool: AnyTool, tier: Tier): Scope[] {
  if (tool.scope === null) return ['contracts'];
  return tool.scope === 'all' ? (tier === 'internal' ? ['all'] : ['contracts']) : [tool.scope];
}

function scopeMissing(tool: AnyTool): Scope[] {
  const other = SCOPES.find((s) => s !== 'all' && (tool.scope === null || !hasScope([s], tool.scope)));
  return [other!];
}

interface Caller {
  name: string;
  key: () => Promise<string | undefined>;
  expected: (tool: AnyTool) => Expected;
}

const tierPasses = (tool: AnyTool, tier: Tier): Expected =>
  tool.tiers && !tool.tiers.includes(tier) ? 'TIER_NOT_ALLOWED' : 'PASS';
const bestTier = (tool: AnyTool): Tier => ((tool.tiers?.includes('partner') ?? true) ? 'partner' : 'internal');

/** What a caller with a valid key gets from a tool that takes no key (PASS) or only a session (UNAUTHORIZED). */
function keyKind(tool: AnyTool, keyed: Expected): Expected {
  if (tool.auth === 'none') return 'PASS';
  if (!(tool.principals ?? ['key']).includes('key'))
    return keyed === 'PASS' || keyed === 'TIER_NOT_ALLOWED' || keyed === 'INSUFFICIENT_SCOPE' ? 'UNAUTHORIZED' : keyed;
  return keyed;
}

function callers(tool: AnyTool): Caller[] {
  return baseCallers(tool).map((c) => ({
    ...c,
    expected: (tl: AnyTool) =>
      c.name === 'no key'
        ? tl.auth === 'none'
          ? 'PASS'
          : (tl.principals ?? ['key']).includes('key')
            ? 'API_KEY_MISSING'
            : 'UNAUTHORIZED'
        : keyKind(tl, c.expected(tl)),
  }));
}

function baseCallers(tool: AnyTool): Caller[] {
  const tier = bestTier(tool);
  return [
    { name: 'no key', key: async () => undefined, expected: () => 'API_KEY_MISSING' },
    {
      name: 'revoked key',
      key: async () => {
        const key = await makeKey({ tier, scopes: scopePresent(tool, tier) });
        const [rec] = await server.services.store.findBy<ApiKeyRecord>(API_KEYS, 'keyHash', hashKey(key));
        await server.services.store.put(API_KEYS, { ...rec!, revokedAt: clock.now().toISOString() });
        return key;
      },
      expected: () => 'API_KEY_INVALID',
    },
    {
      name: 'expired key',
      key: () => makeKey({ tier, scopes: scopePresent(tool, tier), expiresAt: new Date(clock.ms - 1).toISOString() }),
      expected: () => 'API_KEY_INVALID',
    },
    ...(['public', 'partner', 'internal'] as Tier[]).map((t) => ({
      name: `${t} key with the scope`,
      key: () => makeKey({ tier: t, scopes: scopePresent(tool, t) }),
      expected: (tl: AnyTool) => tierPasses(tl, t),
    })),
    {
      name: 'scope missing',
      key: () => makeKey({ tier, scopes: scopeMissing(tool) }),
      expected: (tl: AnyTool) => (tl.scope === null ? 'PASS' : 'INSUFFICIENT_SCOPE'),
    },
    {
      name: 'IP inside whitelist',
      key: () => makeKey({ tier, scopes: scopePresent(tool, tier), ipWhitelist: ['127.0.0.1', '::1'] }),
      expected: () => 'PASS',
    },
    {
      name: 'IP outside whitelist',
      key: () => makeKey({ tier, scopes: scopePresent(tool, tier), ipWhitelist: ['10.0.0.0/8'] }),
      expected: () => 'IP_NOT_ALLOWED',
    },
  ];
}

function sampleInput(tool: AnyTool): Record<string, unknown> {
  return (validSample(toolSchemas(tool).input) ?? {}) as Record<string, unknown>;
}

async function viaRest(tool: AnyTool, input: Record<string, unknown>, key: string | undefined) {
  const res = await server.app.inject({
    ...restRequest(tool, input),
    remoteAddress: '127.0.0.1',
    headers: key ? { authorization: `Bearer ${key}` } : {},
  });
  return answer(tool, res);
}

/** The envelope of a REST answer; a file answer (not JSON) at the success status stands for a success. */
function answer(
  tool: AnyTool,
  res: { statusCode: number; headers: Record<string, unknown>; json(): unknown },
): { success: boolean; error?: { code: string } } {
  if (
    tool.rest.file &&
    res.statusCode === (tool.rest.status ?? 200) &&
    !/json/i.test(String(res.headers['content-type']))
  )
    return { success: true };
  return res.json() as { success: boolean; error?: { code: string } };
}

function outcome(body: { success: boolean; error?: { code: string } }): Expected | string {
  if (body.success) return 'PASS';
  const code = body.error!.code;
  return AUTH_CODES.has(code) ? code : 'PASS';
}

describe('access matrix: every operation × every kind of caller, over REST and MCP', () => {
  for (const tool of TOOLS) {
    it(tool.name, async () => {
      // A fresh rate window per operation: the failed-auth callers all come from 127.0.0.1.
      clock.advance(RATE_WINDOW_MS);
      const input = sampleInput(tool);
      const clients: Client[] = [];
      try {
        for (const caller of callers(tool)) {
          const key = await caller.key();
          const expected = caller.expected(tool);
          const rest = outcome(await viaRest(tool, input, key));
          if (tool.mcp === false) {
            // REST only (session routes and planned legal routes): not offered over MCP.
            expect({ caller: caller.name, rest }).toEqual({ caller: caller.name, rest: expected });
            continue;
          }
          const mcp = await mcpHttpCall(server.url, key, tool.name, input);
          const viaMcp = mcp.ok ? 'PASS' : outcome(mcp.body as { success: boolean; error: { code: string } });
          expect({ caller: caller.name, rest, mcp: viaMcp }).toEqual({
            caller: caller.name,
            rest: expected,
            mcp: expected,
          });
          // Every JSON-RPC request needs a valid key: a refused credential is refused at the HTTP level too.
          if (expected === 'API_KEY_MISSING' || expected === 'API_KEY_INVALID') {
            expect(mcp.status).toBe(401);
            expect(mcp.headers.get('www-authenticate')).toMatch(/^Bearer/);
            continue;
          }
          if (expected === 'IP_NOT_ALLOWED') {
            expect(mcp.status).toBe(403);
            continue;
          }
          expect(mcp.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
          const client = await httpClient(server.url, key);
          clients.push(client);
          // tools/list shows the tool exactly when the key may call it.
          if (key && expected === 'PASS' && caller.name !== 'IP inside whitelist') {
            expect((await client.listTools()).tools.map((t) => t.name)).toContain(tool.name);
          }
          if (key && (expected === 'TIER_NOT_ALLOWED' || expected === 'INSUFFICIENT_SCOPE')) {
            expect((await client.listTools()).tools.map((t) => t.name)).not.toContain(tool.name);
          }
        }
      } finally {
        await Promise.all(clients.map((c) => c.close()));
      }
    });
  }
});

describe('access matrix: every operation × a user session, with and without the CSRF token (REST)', () => {
  for (const tool of TOOLS) {
    it(tool.name, async () => {
      clock.advance(RATE_WINDOW_MS);
      const input = sampleInput(tool);
      const accepts = tool.principals ?? ['key'];
      const mutating = tool.rest.method !== 'GET';
      for (const csrf of [true, false]) {
        const session = await registerUser(server.app);
        let expected: Expected;
        if (tool.auth === 'none') expected = 'PASS';
        else if (mutating && !csrf) expected = 'CSRF_FAILED';
        else if (!accepts.includes('session')) expected = 'API_KEY_MISSING';
        else expected = tool.scope === null || hasScope(SESSION_SCOPES, tool.scope) ? 'PASS' : 'INSUFFICIENT_SCOPE';
        const res = await server.app.inject({
          ...restRequest(tool, input),
          remoteAddress: '127.0.0.1',
          headers: sessionHeaders(session, { csrf }),
        });
        expect({ csrf, outcome: outcome(answer(tool, res)) }).toEqual({ csrf, outcome: expected });
      }
    });
  }
});

/**
 * How to make a resource of another owner, per id-bearing tool; null for shared
 * reference data that no account owns. A new id-bearing tool must add an entry.
 */
const OTHER_OWNER_FIXTURES: Record<string, (() => Promise<string>) | null> = {
  get_jurisdiction: null,
  // Operator tools: they work across accounts by design (internal keys only; other tiers get 403, see test/access/isolation.test.ts).
  get_account: null,
  update_account: null,
  suspend_account: null,
  create_account_key: null,
  grant_credits: null,
  // Planned (501): no records yet.
  sign_legal_document: null,
  // Session-only (keys are refused before ids matter): another user's media id answers 404 in test/memoir/media.test.ts.
  delete_memoir_media: null,
  get_memoir_media_inference: null,
  // Session-only: another user's media id answers 404 in test/memoir/media-privacy.test.ts.
  update_memoir_media: null,
  // Session-only too: another account's share or media id answers 404 in test/memoir/heirs-media.test.ts.
  get_shared_memoir_media_file: null,
  update_webhook: otherOwnersWebhookId,
  delete_webhook: otherOwnersWebhookId,
  regenerate_webhook_secret: otherOwnersWebhookId,
  test_webhook: otherOwnersWebhookId,
  get_api_key: otherOwnersKeyId,
  update_api_key: otherOwnersKeyId,
  revoke_api_key: otherOwnersKeyId,
  get_contract: otherOwnersContractId,
  get_contract_package: otherOwnersContractId,
  delete_contract: otherOwnersContractId,
  register_deployment: otherOwnersContractId,
  list_deployments: otherOwnersContractId,
  get_deployment: async () =>
    seedDeployment(server.services.store, 'own_OTHER0000000000000000000000', await otherOwnersContractId()),
  update_journal_entry: otherOwnersJournalId,
  delete_journal_entry: otherOwnersJournalId,
  // Another owner's contract (the sample deployment id is nobody's); isolation.test.ts names a real deployment.
  update_deployment_watch: otherOwnersContractId,
  delete_deployment: otherOwnersContractId,
};

async function otherOwnersJournalId(): Promise<string> {
  const entry: JournalEntry = {
    id: memoirId('jrn', clock.now().getTime()),
    ownerId: 'own_OTHER0000000000000000000000',
    authorKey: 'key:other',
    content: 'Not yours to change.',
    mood: null,
    promptUsed: null,
    createdAt: clock.now().toISOString(),
  };
  await server.services.store.put(MEMOIR_JOURNAL, entry);
  return entry.id;
}

async function otherOwnersContractId(): Promise<string> {
  const record: ContractRecord = {
    id: newId('contract'),
    ownerId: 'own_OTHER0000000000000000000000',
    chain: 'evm',
    plan: {} as ContractRecord['plan'],
    source: '',
    compiled: {},
    advice: {},
    created: clock.now().toISOString(),
  };
  await server.services.store.put(CONTRACTS, record);
  return record.id;
}

async function otherOwnersWebhookId(): Promise<string> {
  const deps = {
    store: server.services.store,
    clock,
    keyring: server.services.keyring,
    cursors: server.services.cursors,
    allow: '127.0.0.1',
  };
  const { webhook } = await createWebhook(deps, 'own_OTHER0000000000000000000000', {
    url: 'https://127.0.0.1:9/x',
    name: 'other',
    events: ['*'],
  });
  return webhook.id;
}

async function otherOwnersKeyId(): Promise<string> {
  const key = await makeKey({ tier: 'public', scopes: ['contracts'], ownerId: 'own_OTHER0000000000000000000000' });
  const [rec] = await server.services.store.findBy<ApiKeyRecord>(API_KEYS, 'keyHash', hashKey(key));
  return rec!.id;
}

describe("another owner's ids answer 404", () => {
  const idTools = TOOLS.filter((t) => /:id\b/.test(t.rest.path));

  it('every id-bearing operation has a fixture', () => {
    expect(idTools.map((t) => t.name).filter((n) => !(n in OTHER_OWNER_FIXTURES))).toEqual([]);
  });

  for (const tool of idTools.filter((t) => OTHER_OWNER_FIXTURES[t.name] !== null)) {
    it(tool.name, async () => {
      const id = await OTHER_OWNER_FIXTURES[tool.name]!();
      const key = await makeKey({ tier: 'internal', scopes: ['all'] });
      const input = { ...sampleInput(tool), id };
      const rest = await viaRest(tool, input, key);
      expect(rest.error?.code).toBe('NOT_FOUND');
      const client = await httpClient(server.url, key);
      expect(await mcpOutcome(client, tool.name, input)).toMatchObject({
        ok: false,
        body: { error: { code: 'NOT_FOUND' } },
      });
      await client.close();
    });
  }
});

describe('secrets stay secret', () => {
  it('no key value created during the run is in the data file or the logs', async () => {
    // Keys created through the API too, and a request with the key in the query string.
    const res = await server.app.inject({
      method: 'POST',
      url: `/api/v1/api-keys?api_key=${server.adminKey}`,
      payload: { name: 'leak check', scopes: ['contracts'] },
    });
    createdKeys.push(res.json().data.key);
    await server.app.inject({ url: `/api/v1/contracts/templates?api_key=${res.json().data.key}` });
    await server.services.store.flush();
    const data = await storeFiles(server.dataDir); // the snapshot and the journal
    const logs = logLines.join('');
    expect(createdKeys.length).toBeGreaterThan(20);
    expect(logs).toContain('api_key=[redacted]');
    const secretPart = (k: string) => k.slice(12); // beyond the display prefix
    expect(createdKeys.filter((k) => data.includes(secretPart(k)))).toEqual([]);
    expect(createdKeys.filter((k) => logs.includes(secretPart(k)))).toEqual([]);
  });
});

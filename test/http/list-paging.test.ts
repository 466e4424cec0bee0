/**
 * Every list tool in the registry takes paging, over REST and MCP alike: found by a rule (a name starting with
 * `list_`, the REST shape `list`, or a `pagination` field in the output), each one is seeded with at least two
 * items, then read one item per page: page/limit (or cursor/limit for cursor-paged lists) are accepted, `limit` is
 * bounded (1 to 100, 400 VALIDATION_ERROR outside), and meta.pagination is right across two pages.
 */
import { CONTRACTS, type ContractRecord } from '../../src/contracts/stored.js';
import { generateContractTool } from '../../src/tools/contracts/generate-contract.js';
import { seedDeployment } from '../support/deployments.js';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { RATE_WINDOW_MS } from '../../src/keys/limits.js';
import type { AnyTool } from '../../src/tools/define.js';
import { TOOLS } from '../../src/tools/index.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { mcpHttpCall } from '../mcp-clients.js';
import { grant, multipartBody } from '../memoir/support.js';
import { mailTo, registerUser, sessionHeaders, uniqueEmail, type TestSession } from '../support/session.js';

const DAY = 86_400_000;
let offset = 0;
const clock = { now: () => new Date(Date.now() + offset) };

/** The list tools, by the rule. */
const LIST_TOOLS = TOOLS.filter(
  (t) =>
    t.name.startsWith('list_') ||
    t.rest.shape === 'list' ||
    'pagination' in (t.output.shape as Record<string, unknown>),
);

/** Catalogues answer in their spec's shape (top level or data); the array that is paged, by tool. */
const CATALOGUE_FIELD: Record<string, string> = {
  list_templates: 'templates',
  list_webhook_event_types: 'types',
  list_credit_packs: 'packs',
};

/** Planned for v1.1: answers 501 whatever the paging, which must still be valid input. */
const NOT_IMPLEMENTED = new Set(['list_legal_templates']);

const EVM = (n: number) => `0x${String(n).repeat(40).slice(0, 40)}`;

let server: TestServer;
let owner: TestSession;
let heir: TestSession;
let ownerKey: string;
let heirKey: string;
let shareId: string;
/** A generated contract of the operator's, with two deployments (list_deployments). */
let contractId: string;

type Who = { rest: Record<string, string>; key: string };

/** Who may read a tool's list, and has seeded it: the heir for shares held, the memoir's owner for memoir and credits, else the operator. */
function callerOf(tool: AnyTool): Who {
  if (tool.name.includes('held') || tool.name.includes('shared')) return { rest: sessionHeaders(heir), key: heirKey };
  if (tool.domain === 'memoir' || tool.domain === 'credits') return { rest: sessionHeaders(owner), key: ownerKey };
  return { rest: { authorization: `Bearer ${server.adminKey}` }, key: server.adminKey };
}

async function rest(method: string, url: string, headers: Record<string, string>, payload?: unknown) {
  const res = await server.app.inject({
    method: method as 'GET',
    url,
    headers,
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
  return { status: res.statusCode, body: res.json() };
}

beforeAll(async () => {
  // Sessions outlive the 7-day waiting period before the heirs' shares open.
  server = await startTestServer({
    clock,
    config: { webhookAllow: '127.0.0.1', sessions: { ttlSeconds: 60 * 24 * 3600, maxSeconds: 90 * 24 * 3600 } },
  });
  const admin = { authorization: `Bearer ${server.adminKey}` };
  // The operator's account: two more keys (and so two api_key.created events), two webhook subscriptions.
  for (const name of ['one', 'two'])
    expect((await rest('POST', '/api/v1/api-keys', admin, { name, scopes: ['contracts:read'] })).status).toBe(201);
  for (const name of ['a', 'b']) {
    expect(
      (
        await rest('POST', '/api/v1/webhooks/subscriptions', admin, {
          url: `https://127.0.0.1:9/${name}`,
          name,
          events: ['contract.deployed'],
        })
      ).status,
    ).toBe(201);
  }

  // Two generated contracts, kept in the operator's account.
  for (let i = 0; i < 2; i++) {
    const gen = await rest('POST', '/api/v1/contracts/generate', admin, generateContractTool.example);
    expect(gen.status, JSON.stringify(gen.body).slice(0, 300)).toBe(200);
    contractId = gen.body.id;
  }
  const ctr = await server.services.store.get<ContractRecord>(CONTRACTS, contractId);
  for (const n of [1, 2]) await seedDeployment(server.services.store, ctr!.ownerId, contractId, n);

  // A memoir with two journal entries, two photos, two chat messages, two linked plans (four shares), two ledger entries.
  const heirEmail = uniqueEmail('heir');
  owner = await registerUser(server.app, { name: 'Rose' });
  heir = await registerUser(server.app, { email: heirEmail });
  await grant(server, owner.accountId, 50);
  await grant(server, owner.accountId, 50);
  await grant(server, heir.accountId, 50);
  const o = sessionHeaders(owner);
  expect((await rest('POST', '/api/v1/svcloom/setup', o, { agentName: 'Grandma Rose' })).status).toBe(200);
  for (const content of ['My mother baked bread every Sunday in Lisbon.', 'My father fixed clocks in Porto.']) {
    expect((await rest('POST', '/api/v1/svcloom/journal', o, { content })).status).toBe(201);
  }
  for (const colour of ['red', 'blue']) {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: colour } })
      .png()
      .toBuffer();
    const { body, contentType } = multipartBody([
      { name: 'file', filename: `${colour}.png`, contentType: 'image/png', data: png },
    ]);
    const up = await server.app.inject({
      method: 'POST',
      url: '/api/v1/svcloom/media/upload',
      headers: { ...o, 'content-type': contentType },
      payload: body,
    });
    expect(up.statusCode, up.body).toBe(201);
  }
  for (const message of ['What was your childhood home like?', 'Tell me about the bread.']) {
    expect((await rest('POST', '/api/v1/svcloom/chat', o, { message })).status).toBe(200);
  }
  const codes: string[] = [];
  const planIds: string[] = [];
  for (const ownerAddress of [EVM(1), EVM(6)]) {
    const linked = await rest('POST', '/api/v1/svcloom/heirs/plans', o, {
      plan: {
        blockchain: 'evm',
        ownerAddress,
        beneficiaries: [
          { name: 'Ana', address: EVM(2), percentage: 50, relationship: 'daughter', email: heirEmail },
          { name: 'Rui', address: EVM(3), percentage: 30, relationship: 'son' },
          { name: 'Red Cross', address: EVM(4), percentage: 20, relationship: 'charity' },
        ],
        deadMansSwitch: { enabled: true, intervalDays: 180 },
      },
      heirs: [EVM(2), EVM(3)],
      heirAccess: { enabled: true, openAfterDays: 7, accessDays: 30 },
    });
    expect(linked.status).toBe(201);
    planIds.push(linked.body.data.plan.id);
    // Ana has an address: her code is mailed to her, not shown to the owner.
    codes.push((await mailTo(server.app, heirEmail, 'heir-invitation')).at(-1)!.data!.claimCode!);
  }
  // A vault linked to each plan, with two letters for Ana; and two vaults of the operator's.
  for (const planId of planIds) {
    const vault = await rest('POST', '/api/v1/vaults', o, { name: 'For Ana' });
    expect(vault.status).toBe(201);
    for (const title of ['First letter', 'Second letter']) {
      const item = await rest('POST', `/api/v1/vaults/${vault.body.data.id}/items`, o, {
        title,
        text: `${title} for Ana.`,
        heirs: [EVM(2)],
      });
      expect(item.status).toBe(201);
    }
    expect((await rest('PUT', `/api/v1/vaults/${vault.body.data.id}/plan`, o, { planId })).status).toBe(200);
  }
  for (const name of ['one', 'two']) expect((await rest('POST', '/api/v1/vaults', admin, { name })).status).toBe(201);
  // The heir claims a share of each plan; both switches fire; 7 days later the shares are open.
  for (const code of codes)
    expect((await rest('POST', '/api/v1/svcloom/shared/claim', sessionHeaders(heir), { code })).status).toBe(200);
  for (const planId of planIds) {
    const fired = await rest('POST', `/api/v1/svcloom/heirs/plans/${planId}/events`, o, {
      type: 'deadman.triggered',
      transactionHash: '0x' + 'ab'.repeat(32),
      network: 'sepolia',
    });
    expect(fired.status).toBe(200);
  }
  offset = 7 * DAY + 60_000;
  shareId = (await rest('GET', '/api/v1/svcloom/shared', sessionHeaders(heir))).body.data[0].shareId;
  for (const message of ['Hello grandma', 'Tell me about Porto']) {
    expect(
      (await rest('POST', `/api/v1/svcloom/shared/${shareId}/chat`, sessionHeaders(heir), { message })).status,
    ).toBe(200);
  }
  // Keys of the two users' accounts, for MCP.
  ownerKey = (await rest('POST', '/api/v1/api-keys', o, { name: 'mcp', scopes: ['contracts', 'chat'] })).body.data.key;
  heirKey = (
    await rest('POST', '/api/v1/api-keys', sessionHeaders(heir), {
      name: 'mcp',
      scopes: ['contracts', 'chat', 'vaults:read'],
    })
  ).body.data.key;
  // A conversation is its caller's (a key's is not its user's session's): two messages through each key as well.
  for (const message of ['Where did you live?', 'What did you cook?']) {
    expect((await mcpHttpCall(server.url, ownerKey, 'memoir_chat', { message })).ok).toBe(true);
    expect((await mcpHttpCall(server.url, heirKey, 'shared_memoir_chat', { shareId, message })).ok).toBe(true);
  }
}, 120_000);

afterAll(async () => {
  await server?.close();
});

const inputShape = (tool: AnyTool) => tool.input.shape as Record<string, z.ZodType>;
const cursorPaged = (tool: AnyTool) => 'cursor' in inputShape(tool);

/** The REST URL of a tool with a query. */
function url(tool: AnyTool, query: Record<string, string | number>): string {
  const path = tool.rest.path.replace(':shareId', shareId).replace(':id', contractId);
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  return `/api/v1${path}${qs ? `?${qs}` : ''}`;
}

/** The page's items and pagination, from a REST envelope. */
function restPage(
  tool: AnyTool,
  body: Record<string, unknown>,
): { items: unknown[]; pagination: Record<string, unknown> } {
  const meta = body.meta as { pagination: Record<string, unknown> };
  const field = CATALOGUE_FIELD[tool.name];
  if (!field) return { items: body.data as unknown[], pagination: meta.pagination };
  const holder = tool.rest.shape === 'top-level' ? body : (body.data as Record<string, unknown>);
  expect(holder).not.toHaveProperty('pagination');
  return { items: holder[field] as unknown[], pagination: meta.pagination };
}

/** The page's items and pagination, from an MCP tool result. */
function mcpPage(
  tool: AnyTool,
  body: Record<string, unknown>,
): { items: unknown[]; pagination: Record<string, unknown> } {
  return {
    items: body[CATALOGUE_FIELD[tool.name] ?? 'items'] as unknown[],
    pagination: body.pagination as Record<string, unknown>,
  };
}

describe('every list tool takes paging', () => {
  it('the rule finds the list tools, and each takes limit with page or cursor', () => {
    const names = LIST_TOOLS.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'list_webhooks',
        'list_webhook_events',
        'list_api_keys',
        'list_templates',
        'list_memoir_media',
        'list_memoir_shares',
      ]),
    );
    for (const tool of LIST_TOOLS) {
      const shape = inputShape(tool);
      expect(Object.keys(shape), tool.name).toContain('limit');
      expect('page' in shape || 'cursor' in shape, `${tool.name} takes page or cursor`).toBe(true);
      expect(tool.rest.method, tool.name).toBe('GET');
      if (tool.rest.shape !== 'list')
        expect(
          CATALOGUE_FIELD[tool.name] ?? (NOT_IMPLEMENTED.has(tool.name) ? 'planned' : undefined),
          `${tool.name}: shape ${tool.rest.shape}`,
        ).toBeDefined();
    }
  });

  describe.each(LIST_TOOLS.map((t) => [t.name, t] as const))('%s', (_name, tool) => {
    it('over REST: bounded limit, and meta.pagination right across two pages', async () => {
      offset += RATE_WINDOW_MS; // a fresh window: the users' accounts are public tier
      const who = callerOf(tool).rest;
      // Each bad value, and the words its detail says it in.
      const bads: Array<[Record<string, string | number>, string]> = [
        [{ limit: 101 }, 'Enter 100 or less.'],
        [{ limit: 0 }, 'Enter 1 or more.'],
        [{ limit: 'x' }, 'Enter a number.'],
        ...(cursorPaged(tool) ? [] : [[{ page: 0 }, 'Enter 1 or more.'] as [Record<string, number>, string]]),
      ];
      for (const [bad, reason] of bads) {
        const res = await rest('GET', url(tool, bad), who);
        expect(res.status, `${tool.name} ${JSON.stringify(bad)}`).toBe(400);
        expect(res.body.error.code).toBe('VALIDATION_ERROR');
        expect(res.body.error.details).toEqual([{ field: Object.keys(bad)[0], reason }]);
      }
      if (NOT_IMPLEMENTED.has(tool.name)) {
        // Valid paging gets as far as the planned operation.
        expect((await rest('GET', url(tool, { page: 2, limit: 100 }), who)).status).toBe(501);
        return;
      }
      const whole = await rest('GET', url(tool, { limit: 100 }), who);
      expect(whole.status, JSON.stringify(whole.body)).toBe(200);
      const all = restPage(tool, whole.body).items;
      expect(all.length, `${tool.name} was seeded with two items or more`).toBeGreaterThanOrEqual(2);
      // Offset-paged: the whole list's length (the first 100 items are `all`).
      const total = cursorPaged(tool) ? all.length : Number(restPage(tool, whole.body).pagination.total);

      const first = await rest('GET', url(tool, { limit: 1 }), who);
      expect(first.status).toBe(200);
      const p1 = restPage(tool, first.body);
      expect(p1.items).toEqual([all[0]]);
      let second;
      if (cursorPaged(tool)) {
        expect(p1.pagination).toEqual({ cursor: null, nextCursor: expect.any(String), hasMore: true });
        second = await rest('GET', url(tool, { limit: 1, cursor: String(p1.pagination.nextCursor) }), who);
        expect(restPage(tool, second.body).pagination).toEqual({
          cursor: p1.pagination.nextCursor,
          nextCursor: all.length > 2 ? expect.any(String) : null,
          hasMore: all.length > 2,
        });
      } else {
        expect(p1.pagination).toEqual({ page: 1, limit: 1, total, pages: total, hasNext: true, hasPrev: false });
        second = await rest('GET', url(tool, { page: 2, limit: 1 }), who);
        expect(restPage(tool, second.body).pagination).toEqual({
          page: 2,
          limit: 1,
          total,
          pages: total,
          hasNext: total > 2,
          hasPrev: true,
        });
      }
      expect(second.status).toBe(200);
      expect(restPage(tool, second.body).items).toEqual([all[1]]);
    });

    // Tools not offered over MCP (session-only, or REST-only) have no MCP case at all, rather than a skipped one.
    if (tool.mcp !== false && (tool.principals ?? ['key']).includes('key')) {
      it('over MCP: the same inputs and bounds', async () => {
        offset += RATE_WINDOW_MS;
        const key = callerOf(tool).key;
        const base = tool.rest.path.includes(':shareId')
          ? { shareId }
          : tool.rest.path.includes(':id')
            ? { id: contractId }
            : {};
        const tooMany = await mcpHttpCall(server.url, key, tool.name, { ...base, limit: 101 });
        expect(tooMany).toMatchObject({
          ok: false,
          body: { error: { code: 'VALIDATION_ERROR', details: [{ field: 'limit' }] } },
        });
        if (NOT_IMPLEMENTED.has(tool.name)) return;
        const first = await mcpHttpCall(server.url, key, tool.name, { ...base, limit: 1 });
        expect(first.ok, JSON.stringify(first.body)).toBe(true);
        const p1 = mcpPage(tool, first.body as Record<string, unknown>);
        expect(p1.items).toHaveLength(1);
        const next = cursorPaged(tool) ? { cursor: p1.pagination.nextCursor } : { page: 2 };
        expect(p1.pagination).toMatchObject(
          cursorPaged(tool) ? { cursor: null, hasMore: true } : { page: 1, limit: 1, hasNext: true, hasPrev: false },
        );
        const second = await mcpHttpCall(server.url, key, tool.name, { ...base, limit: 1, ...next });
        expect(second.ok).toBe(true);
        const p2 = mcpPage(tool, second.body as Record<string, unknown>);
        expect(p2.items).toHaveLength(1);
        expect(p2.items).not.toEqual(p1.items);
        expect(p2.pagination).toMatchObject(
          cursorPaged(tool) ? { cursor: p1.pagination.nextCursor } : { page: 2, hasPrev: true },
        );
      });
    }
  });
});

import { GRANTS, type GrantRecord } from '../../src/accounts/grants.js';
import { MEMOIR_HEIR_PLANS, type HeirPlanRecord } from '../../src/memoir/heirs.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyTool } from '../../src/tools/define.js';
import { TOOLS } from '../../src/tools/index.js';
import { generateContractTool } from '../../src/tools/contracts/generate-contract.js';
import { seedDeployment } from '../support/deployments.js';
import { toolSchemas } from '../../src/tools/schema.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { httpClient, mcpOutcome } from '../mcp-clients.js';
import { HEIRS_PLAN } from '../support/examples.js';
import { restRequest } from '../support/rest.js';
import { validSample } from '../support/samples.js';
import { registerUser, sessionHeaders, type TestSession } from '../support/session.js';

// The isolation matrix, built from the tool registry: every tool that takes an
// id or lists records is called by a second account (its key over REST and MCP,
// and a user session over REST) with the first account's ids, and must answer
// 404 or a list without them. A new tool that takes an id or lists records and
// has no case here fails the first test.

let server: TestServer;
/** Two customer accounts made through the API, as an operator would, and a registered user. */
let a: { accountId: string; key: string };
let b: { accountId: string; key: string };
let user: TestSession;
/** A second registered user, for the session-only lists. */
let user2: TestSession;
/** Ids of records that belong to account A (credits: to the first user's account). */
const aIds = {
  key: '',
  webhook: '',
  events: [] as string[],
  credits: [] as string[],
  journal: '',
  chat: [] as string[],
  plan: '',
  planShares: [] as string[],
  heldShare: '',
  contract: '',
  deployment: '',
  vault: '',
  vaultItem: '',
  sharedVaultItem: '',
};

async function rest(
  key: string | undefined,
  method: string,
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await server.app.inject({
    method: method as 'GET',
    url,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
  return { status: res.statusCode, body: res.json() };
}

async function customer(name: string) {
  const res = await rest(server.adminKey, 'POST', '/api/v1/accounts', {
    name,
    tier: 'partner',
    keyScopes: ['contracts', 'webhooks', 'embed', 'chat', 'vaults'],
  });
  expect(res.status).toBe(201);
  return { accountId: res.body.data.account.id as string, key: res.body.data.key as string };
}

beforeAll(async () => {
  server = await startTestServer({ config: { webhookAllow: '127.0.0.1' } });
  a = await customer('Partner A');
  b = await customer('Partner B');
  user = await registerUser(server.app);
  user2 = await registerUser(server.app);
  const grant = await rest(server.adminKey, 'POST', `/api/v1/accounts/${user.accountId}/credits`, {
    amount: 5,
    reason: 'isolation',
  });
  expect(grant.status).toBe(201);
  aIds.credits = [grant.body.data.entry.id];
  // Account A's records: a key, a webhook, and the events they caused.
  const key = await rest(a.key, 'POST', '/api/v1/api-keys', {
    name: 'A client',
    scopes: ['contracts'],
    tier: 'public',
  });
  expect(key.status).toBe(201);
  aIds.key = key.body.data.id;
  const hook = await rest(a.key, 'POST', '/api/v1/webhooks/subscriptions', {
    url: 'https://127.0.0.1:9/a',
    name: 'A hook',
    events: ['*'],
  });
  expect(hook.status).toBe(201);
  aIds.webhook = hook.body.data.id;
  await rest(a.key, 'POST', '/api/v1/api-keys', { name: 'A second', scopes: ['contracts'], tier: 'public' });
  const entry = await rest(a.key, 'POST', '/api/v1/svcloom/journal', {
    content: 'A private memory of account A, about the orchard.',
  });
  expect(entry.status).toBe(201);
  aIds.journal = entry.body.data.entry.id;
  // Nothing matches: the agent says it does not know (free), and the exchange is still A's history.
  const chat = await rest(a.key, 'POST', '/api/v1/svcloom/chat', { message: 'Hello there' });
  expect(chat.status).toBe(200);
  aIds.chat = [chat.body.data.message.id, chat.body.data.reply.id];
  // Heirs' access: A links a plan of its own (its shares), and holds an open share of a third user's memoir.
  const plan = await rest(a.key, 'POST', '/api/v1/svcloom/heirs/plans', { plan: HEIRS_PLAN });
  expect(plan.status).toBe(201);
  aIds.plan = plan.body.data.plan.id;
  aIds.planShares = plan.body.data.codes.map((c: { shareId: string }) => c.shareId);
  const grantor = await registerUser(server.app);
  await server.app.inject({
    method: 'POST',
    url: '/api/v1/svcloom/journal',
    headers: sessionHeaders(grantor),
    payload: { content: 'The orchard behind the house had twelve apple trees.' },
  });
  const given = await server.app.inject({
    method: 'POST',
    url: '/api/v1/svcloom/heirs/plans',
    headers: sessionHeaders(grantor),
    payload: { plan: HEIRS_PLAN, heirAccess: { enabled: true } },
  });
  const code = given.json().data.codes[0].code as string;
  expect((await rest(a.key, 'POST', '/api/v1/svcloom/shared/claim', { code })).status).toBe(200);
  const fired = await server.app.inject({
    method: 'POST',
    url: `/api/v1/svcloom/heirs/plans/${given.json().data.plan.id}/events`,
    headers: sessionHeaders(grantor),
    payload: { type: 'deadman.triggered' },
  });
  expect(fired.statusCode).toBe(200);
  aIds.heldShare = given.json().data.codes[0].shareId;
  // Open at once, as if the verification's waiting period had passed (test/memoir/verification.test.ts waits it out).
  const held = await server.services.store.get<GrantRecord>(GRANTS, aIds.heldShare);
  await server.services.store.put(GRANTS, { ...held!, opensAt: new Date(Date.now() - 60_000).toISOString() });
  // A's vault with an item, and a vault of the grantor linked to the plan A holds a share of, with an item for A's
  // heir; the plan released (its verification's end moved to the past, as above).
  const vault = await rest(a.key, 'POST', '/api/v1/vaults', { name: 'A vault' });
  expect(vault.status).toBe(201);
  aIds.vault = vault.body.data.id;
  const vaultItem = await rest(a.key, 'POST', `/api/v1/vaults/${aIds.vault}/items`, {
    title: 'A letter',
    text: 'A private letter of account A.',
    heirs: [HEIRS_PLAN.beneficiaries[0]!.address],
  });
  expect(vaultItem.status).toBe(201);
  aIds.vaultItem = vaultItem.body.data.id;
  const grantorPlanId = given.json().data.plan.id as string;
  const grantorVault = await server.app.inject({
    method: 'POST',
    url: '/api/v1/vaults',
    headers: sessionHeaders(grantor),
    payload: { name: 'For the heirs' },
  });
  const grantorVaultId = grantorVault.json().data.id as string;
  const shared = await server.app.inject({
    method: 'POST',
    url: `/api/v1/vaults/${grantorVaultId}/items`,
    headers: sessionHeaders(grantor),
    payload: { title: 'For Ana', text: 'The orchard is yours.', heirs: [HEIRS_PLAN.beneficiaries[0]!.address] },
  });
  aIds.sharedVaultItem = shared.json().data.id;
  const linked = await server.app.inject({
    method: 'PUT',
    url: `/api/v1/vaults/${grantorVaultId}/plan`,
    headers: sessionHeaders(grantor),
    payload: { planId: grantorPlanId },
  });
  expect(linked.statusCode).toBe(200);
  const grantorPlan = await server.services.store.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, grantorPlanId);
  const past = new Date(Date.now() - 60_000).toISOString();
  await server.services.store.put(MEMOIR_HEIR_PLANS, {
    ...grantorPlan!,
    verification: { ...grantorPlan!.verification!, endsAt: past },
  });
  const contract = await rest(a.key, 'POST', '/api/v1/contracts/generate', generateContractTool.example);
  expect(contract.status).toBe(200);
  aIds.contract = contract.body.id;
  aIds.deployment = await seedDeployment(server.services.store, a.accountId, aIds.contract);
  const events = await rest(a.key, 'GET', '/api/v1/webhooks/events?limit=100');
  aIds.events = events.body.data.map((e: { id: string }) => e.id);
  expect(aIds.events.length).toBeGreaterThanOrEqual(2);
});
afterAll(async () => {
  await server?.close();
});

type Fixture =
  /** Takes an id (in `field`, default `id`, plus `args`): called with one of A's ids; must be NOT_FOUND. */
  | { kind: 'id'; id: () => string; field?: string; args?: Record<string, unknown> }
  /** Lists records: A's list holds these ids, B's list none of them. */
  | { kind: 'list'; ids: () => string[] }
  /** Lists a user's own records (session only, REST only): that user's list holds these ids, another user's none of them. */
  | { kind: 'sessionList'; ids: () => string[] }
  /** The operator's tools: they work across accounts by design, so other tiers are refused outright. */
  | { kind: 'operator' }
  /** Shared reference data or a planned route: no account owns anything it returns. */
  | { kind: 'shared' }
  /** Session-only routes (no key, no MCP): their isolation between users is tested where named. */
  | { kind: 'elsewhere'; where: string };

const FIXTURES: Record<string, Fixture> = {
  get_api_key: { kind: 'id', id: () => aIds.key },
  update_api_key: { kind: 'id', id: () => aIds.key },
  revoke_api_key: { kind: 'id', id: () => aIds.key },
  update_webhook: { kind: 'id', id: () => aIds.webhook },
  delete_webhook: { kind: 'id', id: () => aIds.webhook },
  regenerate_webhook_secret: { kind: 'id', id: () => aIds.webhook },
  test_webhook: { kind: 'id', id: () => aIds.webhook },
  list_api_keys: { kind: 'list', ids: () => [aIds.key] },
  list_webhooks: { kind: 'list', ids: () => [aIds.webhook] },
  list_webhook_events: { kind: 'list', ids: () => aIds.events },
  list_contracts: { kind: 'list', ids: () => [aIds.contract] },
  get_contract: { kind: 'id', id: () => aIds.contract },
  get_contract_package: { kind: 'id', id: () => aIds.contract },
  delete_contract: { kind: 'id', id: () => aIds.contract },
  register_deployment: {
    kind: 'id',
    id: () => aIds.contract,
    args: { network: 31337, address: '0x5FbDB2315678afecb367f032d93F642f64180aa3' },
  },
  list_deployments: { kind: 'id', id: () => aIds.contract },
  get_deployment: { kind: 'id', id: () => aIds.deployment },
  update_deployment_watch: {
    kind: 'id',
    field: 'deploymentId',
    id: () => aIds.deployment,
    // Read when the case runs: A's contract exists only once the fixtures are made.
    get args() {
      return { id: aIds.contract, warnDays: [7] };
    },
  },
  delete_deployment: {
    kind: 'id',
    field: 'deploymentId',
    id: () => aIds.deployment,
    get args() {
      return { id: aIds.contract };
    },
  },
  get_account: { kind: 'operator' },
  update_account: { kind: 'operator' },
  suspend_account: { kind: 'operator' },
  create_account_key: { kind: 'operator' },
  list_accounts: { kind: 'operator' },
  grant_credits: { kind: 'operator' },
  list_credit_history: { kind: 'sessionList', ids: () => aIds.credits },
  get_jurisdiction: { kind: 'shared' },
  list_jurisdictions: { kind: 'shared' },
  sign_legal_document: { kind: 'shared' },
  list_journal_entries: { kind: 'list', ids: () => [aIds.journal] },
  update_journal_entry: { kind: 'id', id: () => aIds.journal, args: { title: 'Not yours' } },
  delete_journal_entry: { kind: 'id', id: () => aIds.journal },
  list_memoir_chat: { kind: 'list', ids: () => aIds.chat },
  list_memoir_media: { kind: 'elsewhere', where: 'test/memoir/media.test.ts' },
  delete_memoir_media: { kind: 'elsewhere', where: 'test/memoir/media.test.ts' },
  update_memoir_media: { kind: 'elsewhere', where: 'test/memoir/media-privacy.test.ts' },
  get_memoir_media_inference: { kind: 'elsewhere', where: 'test/memoir/media.test.ts' },
  export_shared_memoir: { kind: 'elsewhere', where: 'test/memoir/heirs.test.ts' },
  get_shared_memoir_media_file: { kind: 'elsewhere', where: 'test/memoir/heirs-media.test.ts' },
  synthesize_shared_memoir_voice: { kind: 'elsewhere', where: 'test/memoir/heirs-media.test.ts' },
  list_shared_memoir_media: { kind: 'id', field: 'shareId', id: () => aIds.heldShare },
  prepay_memoir_heir_chat: { kind: 'id', field: 'shareId', id: () => aIds.planShares[1]!, args: { credits: 1 } },
  // Heirs' access: A's own plan and shares (owner side), and a share A holds of another memoir (heir side).
  list_memoir_plans: { kind: 'list', ids: () => [aIds.plan] },
  update_memoir_plan: { kind: 'id', field: 'planId', id: () => aIds.plan },
  unlink_memoir_plan: { kind: 'id', field: 'planId', id: () => aIds.plan },
  report_deadman_event: { kind: 'id', field: 'planId', id: () => aIds.plan, args: { type: 'deadman.triggered' } },
  list_memoir_shares: { kind: 'list', ids: () => aIds.planShares },
  revoke_memoir_share: { kind: 'id', field: 'shareId', id: () => aIds.planShares[0]! },
  reissue_memoir_share_code: { kind: 'id', field: 'shareId', id: () => aIds.planShares[1]! },
  list_held_memoir_shares: { kind: 'list', ids: () => [aIds.heldShare] },
  get_shared_memoir: { kind: 'id', field: 'shareId', id: () => aIds.heldShare },
  list_shared_memoir_journal: { kind: 'id', field: 'shareId', id: () => aIds.heldShare },
  get_shared_memoir_questionnaire: {
    kind: 'id',
    field: 'shareId',
    id: () => aIds.heldShare,
    args: { category: 'family' },
  },
  get_shared_memoir_insights: { kind: 'id', field: 'shareId', id: () => aIds.heldShare },
  shared_memoir_chat: {
    kind: 'id',
    field: 'shareId',
    id: () => aIds.heldShare,
    args: { message: 'Tell me about the orchard' },
  },
  list_shared_memoir_chat: { kind: 'id', field: 'shareId', id: () => aIds.heldShare },
  // Vaults: A's own vault and item (owner side), and the released item of a vault A holds a share of (heir side).
  // create_vault answers the new vault with its (empty) list of items: nothing of another account to leak.
  create_vault: { kind: 'elsewhere', where: 'test/vaults/vaults.test.ts' },
  list_vaults: { kind: 'list', ids: () => [aIds.vault] },
  get_vault: { kind: 'id', field: 'vaultId', id: () => aIds.vault },
  delete_vault: { kind: 'id', field: 'vaultId', id: () => aIds.vault },
  add_vault_item: {
    kind: 'id',
    field: 'vaultId',
    id: () => aIds.vault,
    args: { title: 'B was here', text: 'B was here', heirs: ['0x2222222222222222222222222222222222222222'] },
  },
  get_vault_item: {
    kind: 'id',
    field: 'vaultId',
    id: () => aIds.vault,
    get args() {
      return { itemId: aIds.vaultItem };
    },
  },
  update_vault_item: {
    kind: 'id',
    field: 'vaultId',
    id: () => aIds.vault,
    get args() {
      return { itemId: aIds.vaultItem };
    },
  },
  delete_vault_item: {
    kind: 'id',
    field: 'vaultId',
    id: () => aIds.vault,
    get args() {
      return { itemId: aIds.vaultItem };
    },
  },
  link_vault_plan: { kind: 'id', field: 'vaultId', id: () => aIds.vault, args: { planId: null } },
  list_shared_vault_items: { kind: 'id', field: 'shareId', id: () => aIds.heldShare },
  get_shared_vault_item: {
    kind: 'id',
    field: 'shareId',
    id: () => aIds.heldShare,
    get args() {
      return { itemId: aIds.sharedVaultItem };
    },
  },
  download_shared_vault_item: { kind: 'elsewhere', where: 'test/vaults/vaults.test.ts' },
  // Multipart and file routes: another account's session and key get 404 with nothing stored (upload) or sent.
  upload_vault_item: { kind: 'elsewhere', where: 'test/vaults/upload.test.ts' },
  download_vault_item: { kind: 'elsewhere', where: 'test/vaults/upload.test.ts' },
};

const takesId = (t: AnyTool) => /:(id|\w+Id)\b/.test(t.rest.path);
const listsRecords = (t: AnyTool) => 'items' in (t.output.shape as Record<string, unknown>);

function input(tool: AnyTool, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...((validSample(toolSchemas(tool).input) ?? {}) as Record<string, unknown>), ...extra };
}

/** The ids found anywhere in a list answer. */
function idsIn(items: unknown): string[] {
  return (items as Array<{ id?: string; shareId?: string }>).map((i) => i.id ?? i.shareId ?? '');
}

describe("isolation matrix: a second account never reaches the first account's records", () => {
  it('has a case for every tool that takes an id or lists records', () => {
    const needing = TOOLS.filter((t) => takesId(t) || listsRecords(t)).map((t) => t.name);
    expect(needing.filter((n) => !FIXTURES[n])).toEqual([]);
    expect(needing.length).toBeGreaterThanOrEqual(15);
  });

  for (const tool of TOOLS.filter(
    (t) => FIXTURES[t.name] && FIXTURES[t.name]!.kind !== 'shared' && FIXTURES[t.name]!.kind !== 'elsewhere',
  )) {
    const fixture = FIXTURES[tool.name]!;
    it(`${tool.name} (${fixture.kind})`, async () => {
      if (fixture.kind === 'id') {
        const args = input(tool, { ...fixture.args, [fixture.field ?? 'id']: fixture.id() });
        const viaRest = await server.app.inject({
          ...restRequest(tool, args),
          headers: { authorization: `Bearer ${b.key}` },
        });
        expect(viaRest.json().error?.code).toBe('NOT_FOUND');
        const client = await httpClient(server.url, b.key);
        expect(await mcpOutcome(client, tool.name, args)).toMatchObject({
          ok: false,
          body: { error: { code: 'NOT_FOUND' } },
        });
        await client.close();
        if ((tool.principals ?? ['key']).includes('session')) {
          const viaSession = await server.app.inject({ ...restRequest(tool, args), headers: sessionHeaders(user) });
          expect(viaSession.json().error?.code).toBe('NOT_FOUND');
        }
        // A still reaches its own record (so the 404 above is isolation, not a broken tool).
        if (tool.rest.method === 'GET') {
          const own = await server.app.inject({
            ...restRequest(tool, args),
            headers: { authorization: `Bearer ${a.key}` },
          });
          expect(own.statusCode).toBe(200);
        }
      } else if (fixture.kind === 'list') {
        const args = input(tool, 'limit' in (tool.input.shape as Record<string, unknown>) ? { limit: 100 } : {});
        delete args.cursor;
        delete args.page;
        const own = await server.app.inject({
          ...restRequest(tool, args),
          headers: { authorization: `Bearer ${a.key}` },
        });
        expect(idsIn(own.json().data)).toEqual(expect.arrayContaining(fixture.ids()));
        const other = await server.app.inject({
          ...restRequest(tool, args),
          headers: { authorization: `Bearer ${b.key}` },
        });
        expect(other.statusCode).toBe(200);
        expect(idsIn(other.json().data).filter((id) => fixture.ids().includes(id))).toEqual([]);
        const client = await httpClient(server.url, b.key);
        const mcp = await mcpOutcome(client, tool.name, args);
        await client.close();
        expect(mcp.ok).toBe(true);
        expect(idsIn((mcp.body as { items: unknown }).items).filter((id) => fixture.ids().includes(id))).toEqual([]);
        if ((tool.principals ?? ['key']).includes('session')) {
          const viaSession = await server.app.inject({ ...restRequest(tool, args), headers: sessionHeaders(user) });
          expect(idsIn(viaSession.json().data).filter((id) => fixture.ids().includes(id))).toEqual([]);
        }
      } else if (fixture.kind === 'sessionList') {
        const args = input(tool, { limit: 100 });
        delete args.cursor;
        const own = await server.app.inject({ ...restRequest(tool, args), headers: sessionHeaders(user) });
        expect(idsIn(own.json().data)).toEqual(expect.arrayContaining(fixture.ids()));
        const other = await server.app.inject({ ...restRequest(tool, args), headers: sessionHeaders(user2) });
        expect(other.statusCode).toBe(200);
        expect(idsIn(other.json().data).filter((id) => fixture.ids().includes(id))).toEqual([]);
        const keyed = await server.app.inject({
          ...restRequest(tool, args),
          headers: { authorization: `Bearer ${b.key}` },
        });
        expect(keyed.statusCode).toBe(401);
      } else {
        // The operator's tools refuse every other account's key and every session.
        const args = input(tool, takesId(tool) ? { id: a.accountId } : {});
        const viaRest = await server.app.inject({
          ...restRequest(tool, args),
          headers: { authorization: `Bearer ${b.key}` },
        });
        expect(viaRest.json().error?.code).toBe('TIER_NOT_ALLOWED');
        const viaSession = await server.app.inject({ ...restRequest(tool, args), headers: sessionHeaders(user) });
        expect(viaSession.json().error?.code).toBe('API_KEY_MISSING');
        const client = await httpClient(server.url, b.key);
        expect((await client.listTools()).tools.map((t) => t.name)).not.toContain(tool.name);
        expect(await mcpOutcome(client, tool.name, args)).toMatchObject({
          ok: false,
          body: { error: { code: 'TIER_NOT_ALLOWED' } },
        });
        await client.close();
      }
    });
  }

  it("a partner key's new keys stay in its own account, and the operator's keys are out of its reach", async () => {
    const made = await rest(b.key, 'POST', '/api/v1/api-keys', {
      name: 'B child',
      scopes: ['contracts'],
      tier: 'partner',
    });
    expect(made.body.data.ownerId).toBe(b.accountId);
    const adminKeys = await rest(server.adminKey, 'GET', '/api/v1/api-keys?limit=100');
    const adminKeyId = adminKeys.body.data[0].id as string;
    for (const [method, suffix, payload] of [
      ['GET', '', undefined],
      ['PATCH', '', { name: 'hijacked' }],
      ['DELETE', '', undefined],
    ] as const) {
      const res = await rest(b.key, method, `/api/v1/api-keys/${adminKeyId}${suffix}`, payload);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    // Nothing changed.
    const still = await rest(server.adminKey, 'GET', `/api/v1/api-keys/${adminKeyId}`);
    expect(still.body.data).toMatchObject({ revokedAt: null });
    expect(still.body.data.name).not.toBe('hijacked');
  });
});

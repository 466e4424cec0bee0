import type { TestServer } from '../helpers.js';
import { registerUser, uniqueEmail } from './session.js';

/**
 * A known-good input for every tool: each must succeed over REST and MCP with
 * the same output. A new tool must add one (a test checks), which also keeps the
 * access matrix and the harness honest about what "valid" means.
 * `fresh` makes inputs that can be used only once (e.g. revoking a key).
 */
export interface Example {
  input: (server: TestServer, ownerKey: string) => Promise<Record<string, unknown>> | Record<string, unknown>;
  /** Outputs that legitimately differ per call (ids, key values, timestamps) are compared without these fields. */
  volatile?: string[];
  /** Run with a user session (cookie + CSRF token) instead of the key. */
  session?: boolean;
  /** The documented answer when it is an error (e.g. 501 NOT_IMPLEMENTED for the planned legal routes). */
  errorCode?: string;
}

async function newAccountId(server: TestServer, ownerKey: string): Promise<string> {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/v1/accounts',
    headers: { authorization: `Bearer ${ownerKey}` },
    payload: { name: 'example customer', tier: 'partner' },
  });
  if (res.statusCode !== 201) throw new Error(`create_account failed: ${res.body}`);
  return res.json().data.account.id;
}

const ACCOUNT_VOLATILE = ['id', 'createdAt', 'updatedAt', 'suspendedAt', 'account', 'apiKey', 'key', 'displayPrefix'];
const SESSION_VOLATILE = ['user', 'account', 'csrfToken', 'expiresAt'];
const PASSWORD = 'correct horse battery staple';

async function ownKeyId(server: TestServer, ownerKey: string): Promise<string> {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/v1/api-keys',
    headers: { authorization: `Bearer ${ownerKey}` },
    payload: { name: 'example', scopes: ['contracts:read'], tier: 'public' },
  });
  return res.json().data.id;
}

/** A subscription of the caller's account, to a loopback URL the test server allows. */
async function ownWebhookId(server: TestServer, ownerKey: string): Promise<string> {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/v1/webhooks/subscriptions',
    headers: { authorization: `Bearer ${ownerKey}` },
    payload: { url: 'https://127.0.0.1:9/hooks', name: 'example', events: ['*'] },
  });
  if (res.statusCode !== 201) throw new Error(`create_webhook failed: ${res.body}`);
  return res.json().data.id;
}

const WEBHOOK_VOLATILE = ['id', '_id', 'createdAt', 'updatedAt', 'webhook', 'secret', 'payload', 'responseTime'];

export const EXAMPLES: Record<string, Example> = {
  create_webhook: { input: () => ({ url: 'https://127.0.0.1:9/hooks', name: 'example', events: ['contract.generated', 'api_key.created'] }), volatile: WEBHOOK_VOLATILE },
  list_webhooks: { input: () => ({}), volatile: ['items'] },
  update_webhook: { input: async (s, k) => ({ id: await ownWebhookId(s, k), events: ['*'], status: 'paused' }), volatile: WEBHOOK_VOLATILE },
  delete_webhook: { input: async (s, k) => ({ id: await ownWebhookId(s, k) }), volatile: WEBHOOK_VOLATILE },
  regenerate_webhook_secret: { input: async (s, k) => ({ id: await ownWebhookId(s, k) }), volatile: WEBHOOK_VOLATILE },
  test_webhook: { input: async (s, k) => ({ id: await ownWebhookId(s, k) }), volatile: WEBHOOK_VOLATILE.concat(['error']) },
  list_webhook_events: { input: () => ({ limit: 5 }), volatile: ['items', 'pagination'] },
  list_webhook_event_types: { input: () => ({}) },
  list_templates: { input: () => ({}) },
  validate_plan: {
    input: () => ({
      blockchain: 'evm',
      ownerAddress: '0x27b1fdb04752bbc536007a920d24acb045561c26',
      beneficiaries: [
        { name: 'A', address: '0x52908400098527886E0F7030069857D2E4169EE7', percentage: 60 },
        { name: 'B', address: '0x8617e340b3d01fa5f11f306f4090fd50e238070d', percentage: 40 },
      ],
    }),
  },
  create_embed_session: {
    // The key needs an allowed origin first.
    input: async (s, k) => {
      const headers = { authorization: `Bearer ${k}` };
      const list = await s.app.inject({ method: 'GET', url: '/api/v1/api-keys?limit=100', headers });
      const own = (list.json().data as Array<{ id: string; displayPrefix: string }>).find((r) => k.startsWith(r.displayPrefix))!;
      await s.app.inject({ method: 'PATCH', url: `/api/v1/api-keys/${own.id}`, headers, payload: { allowedOrigins: ['https://partner.example'] } });
      return { origin: 'https://partner.example', ttlSeconds: 600 };
    },
    volatile: ['token', 'expiresAt', 'wizardPath'],
  },
  rotate_embed_secret: {
    input: () => ({ graceSeconds: 0 }),
    volatile: ['secret'],
  },
  open_contract_wizard: {
    input: () => ({ blockchain: 'evm', beneficiaries: [{ name: 'A', address: '0x52908400098527886E0F7030069857D2E4169EE7', percentage: 100 }] }),
  },
  generate_contract: {
    input: () => ({
      blockchain: 'evm',
      ownerAddress: '0x27b1fdb04752bbc536007a920d24acb045561c26',
      beneficiaries: [
        { name: 'A', address: '0x52908400098527886E0F7030069857D2E4169EE7', percentage: 60 },
        { name: 'B', address: '0x8617e340b3d01fa5f11f306f4090fd50e238070d', percentage: 40 },
      ],
      deadMansSwitch: { enabled: true, intervalDays: 180 },
    }),
  },
  compile_contract: {
    input: () => ({ blockchain: 'evm', sourceCode: '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.20;\ncontract Hello { function hi() external pure returns (uint256) { return 42; } }\n' }),
  },
  estimate_gas: { input: () => ({ blockchain: 'solana', beneficiaries: 3 }) },
  get_jurisdiction: { input: () => ({ id: 'California' }) },
  list_jurisdictions: { input: () => ({ region: 'europe', forcedHeirship: true, page: 1, limit: 5 }) },
  check_plan: {
    input: () => ({
      jurisdiction: 'fr',
      template: 'civil-law',
      beneficiaries: [
        { name: 'Anne', percentage: 30, relationship: 'daughter' },
        { name: 'Paul', percentage: 30, relationship: 'son' },
        { name: 'A friend', percentage: 40, relationship: 'friend' },
      ],
    }),
  },
  calculate_inheritance: {
    input: () => ({ heirs: { wife: 1, son: 2, daughter: 1, mother: 1 }, estate: { total: '120000', debts: '20000', bequests: '10000' } }),
  },
  create_api_key: {
    input: () => ({ name: 'example', scopes: ['contracts:read'], tier: 'public' }),
    volatile: ['id', 'key', 'displayPrefix', 'createdAt'],
  },
  list_api_keys: { input: () => ({ page: 1, limit: 100 }), volatile: ['items', 'pagination'] },
  get_api_key: { input: async (s, k) => ({ id: await ownKeyId(s, k) }), volatile: ['id', 'displayPrefix', 'createdAt'] },
  update_api_key: { input: async (s, k) => ({ id: await ownKeyId(s, k), name: 'renamed', ipWhitelist: ['127.0.0.1'] }), volatile: ['id', 'displayPrefix', 'createdAt'] },
  revoke_api_key: { input: async (s, k) => ({ id: await ownKeyId(s, k) }), volatile: ['id', 'displayPrefix', 'createdAt', 'revokedAt'] },
  search_docs: { input: () => ({ q: 'rotate a key', limit: 3 }) },
  create_account: { input: () => ({ name: 'Acme Estates', tier: 'partner', email: 'ops@acme.example' }), volatile: ACCOUNT_VOLATILE },
  list_accounts: { input: () => ({ page: 1, limit: 5 }), volatile: ['items', 'pagination'] },
  get_account: { input: async (s, k) => ({ id: await newAccountId(s, k) }), volatile: ACCOUNT_VOLATILE },
  update_account: { input: async (s, k) => ({ id: await newAccountId(s, k), name: 'Renamed Ltd' }), volatile: ACCOUNT_VOLATILE },
  suspend_account: { input: async (s, k) => ({ id: await newAccountId(s, k) }), volatile: ACCOUNT_VOLATILE },
  create_account_key: { input: async (s, k) => ({ id: await newAccountId(s, k), name: 'replacement', scopes: ['contracts'] }), volatile: ACCOUNT_VOLATILE.concat(['ownerId']) },
  register: { input: () => ({ email: uniqueEmail('example'), password: PASSWORD, name: 'Example User' }), volatile: SESSION_VOLATILE },
  login: { input: async (s) => ({ email: (await registerUser(s.app, { password: PASSWORD })).email, password: PASSWORD }), volatile: SESSION_VOLATILE },
  logout: { input: () => ({}), session: true },
  get_session: { input: () => ({}), session: true, volatile: SESSION_VOLATILE },
  change_password: { input: () => ({ currentPassword: PASSWORD, newPassword: 'an even longer passphrase' }), session: true, volatile: SESSION_VOLATILE },
  generate_legal_document: { input: () => ({ jurisdiction: 'us-ca' }), errorCode: 'NOT_IMPLEMENTED' },
  list_legal_templates: { input: () => ({ jurisdiction: 'us-ca' }), errorCode: 'NOT_IMPLEMENTED' },
  sign_legal_document: { input: () => ({ id: 'doc_1' }), errorCode: 'NOT_IMPLEMENTED' },
  get_doc: { input: () => ({ slug: 'authentication' }) },
  // Memoir (issue 19): REST-only routes run with a session; media ids need an upload (multipart, test/memoir/media.test.ts), so they show the 404.
  get_memoir_setup: { input: () => ({}), session: true },
  set_memoir_setup: { input: () => ({ agentName: 'Grandpa Antonio' }), session: true },
  get_memoir_agent: { input: () => ({}), session: true },
  get_memoir_agent_status: { input: () => ({}), session: true },
  get_memoir_prompt: { input: () => ({}), session: true },
  create_journal_entry: { input: () => ({ content: 'My mother baked bread every Sunday in Lisbon.', mood: 'nostalgic' }), volatile: ['entry', 'character'] },
  list_journal_entries: { input: () => ({ page: 1, limit: 20 }) },
  get_questionnaire: { input: () => ({ category: 'childhood' }) },
  answer_questionnaire: { input: () => ({ category: 'childhood', answers: [{ questionId: 'childhood.home', answer: 'A white house by the river.' }] }), volatile: ['questions'] },
  memoir_chat: { input: () => ({ message: 'What was your childhood home like?' }), volatile: ['message', 'reply'] },
  list_memoir_chat: { input: () => ({ limit: 20 }) },
  get_memoir_insights: { input: () => ({}) },
  get_memoir_character: { input: () => ({ format: 'eliza' }) },
  list_memoir_media: { input: () => ({}), session: true },
  delete_memoir_media: { input: () => ({ id: 'med_01JD0000000000000000000000' }), session: true, errorCode: 'NOT_FOUND' },
  get_memoir_media_inference: { input: () => ({ id: 'med_01JD0000000000000000000000' }), session: true, errorCode: 'NOT_FOUND' },
  get_memoir_voice_status: { input: () => ({}), session: true },
  list_credit_packs: { input: () => ({}), session: true },
  get_credit_wallet: { input: () => ({}), session: true },
  // The example server has no Stripe key: the documented answer is 503 PAYMENTS_NOT_CONFIGURED.
  purchase_credits: { input: () => ({ packType: 'starter', successUrl: 'https://app.example/ok', cancelUrl: 'https://app.example/no' }), session: true, errorCode: 'PAYMENTS_NOT_CONFIGURED' },
  set_credit_auto_reload: { input: () => ({ enabled: true, packType: 'starter', thresholds: [20], maxMonthlySpend: 2000 }), session: true },
  list_credit_history: { input: () => ({ limit: 20 }), session: true },
  grant_credits: { input: async (s, k) => ({ id: await newAccountId(s, k), amount: 100, reason: 'example grant' }), volatile: ['entry'] },
};

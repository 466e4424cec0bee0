import { randomBytes, randomInt } from 'node:crypto';
import { CONTRACTS, type ContractRecord } from '../../src/contracts/stored.js';
import { seedDeployment } from './deployments.js';
import type { AnyTool } from '../../src/tools/define.js';
import { GRANTS, type GrantRecord } from '../../src/accounts/grants.js';
import { MEMOIR_HEIR_PLANS, type HeirPlanRecord } from '../../src/memoir/heirs.js';
import { TOOLS } from '../../src/tools/index.js';
import { grantCredits } from '../../src/credits/ledger.js';
import { generateContractTool } from '../../src/tools/contracts/generate-contract.js';
import type { TestServer } from '../helpers.js';
import { mailedLink, registerUser, sessionHeaders, uniqueEmail } from './session.js';

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** The token of a mailed link. */
const tokenOf = (link: string): string => new URL(link).searchParams.get('token') ?? '';

/**
 * A known-good input for every tool: each must succeed over REST and MCP with
 * the same output. A tool's own `example` is used unless OWN_INPUTS has an entry;
 * a tool with neither fails a test. This also keeps the access matrix and the
 * harness honest about what "valid" means.
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

/** A contract generated (and so stored) for the caller's account, from the tool's own example. */
async function ownContractId(server: TestServer, ownerKey: string): Promise<string> {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/v1/contracts/generate',
    headers: { authorization: `Bearer ${ownerKey}` },
    payload: generateContractTool.example as object,
  });
  if (res.statusCode !== 200) throw new Error(`generate_contract failed: ${res.body}`);
  return res.json().id;
}

/** A journal entry the key's account writes (for the tools that edit or delete one). */
async function ownJournalEntryId(server: TestServer, ownerKey: string): Promise<string> {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/v1/svcloom/journal',
    headers: { authorization: `Bearer ${ownerKey}` },
    payload: { content: 'My mother baked bread every Sunday.' },
  });
  if (res.statusCode !== 201) throw new Error(`create_journal_entry failed: ${res.body}`);
  return res.json().data.entry.id;
}

/** A plan with a dead man's switch and two heirs, as heirs' access links it. */
export const HEIRS_PLAN = {
  blockchain: 'evm',
  ownerAddress: '0x1111111111111111111111111111111111111111',
  beneficiaries: [
    { name: 'Ana', address: '0x2222222222222222222222222222222222222222', percentage: 60 },
    { name: 'Rui', address: '0x3333333333333333333333333333333333333333', percentage: 40 },
  ],
  deadMansSwitch: { enabled: true, intervalDays: 365 },
};

/** Links a plan for the caller (key or session headers); its id and the heirs' shares and codes. */
async function linkHeirsPlan(
  server: TestServer,
  headers: Record<string, string>,
  heirAccess: Record<string, unknown> = {},
) {
  const link = () =>
    server.app.inject({
      method: 'POST',
      url: '/api/v1/svcloom/heirs/plans',
      headers,
      payload: { plan: HEIRS_PLAN, heirAccess },
    });
  let res = await link();
  if (res.statusCode === 409) {
    // The account links at most 20 plans (the harness links many): make room by unlinking the oldest.
    const listed = await server.app.inject({ method: 'GET', url: '/api/v1/svcloom/heirs/plans', headers });
    const oldest = (listed.json().data as Array<{ id: string }>).at(-1)!;
    await server.app.inject({ method: 'DELETE', url: `/api/v1/svcloom/heirs/plans/${oldest.id}`, headers });
    res = await link();
  }
  if (res.statusCode !== 201) throw new Error(`link_memoir_plan failed: ${res.body}`);
  const data = res.json().data as { plan: { id: string }; codes: Array<{ shareId: string; code: string }> };
  return { planId: data.plan.id, codes: data.codes };
}

/** A plan of the key's own account, made once per key (an account links at most 20). */
const ownPlans = new Map<string, ReturnType<typeof linkHeirsPlan>>();
function ownHeirsPlan(server: TestServer, ownerKey: string): ReturnType<typeof linkHeirsPlan> {
  let made = ownPlans.get(ownerKey);
  if (!made) {
    made = linkHeirsPlan(server, { authorization: `Bearer ${ownerKey}` });
    ownPlans.set(ownerKey, made);
  }
  return made;
}

/**
 * The key of a new customer account (made by the operator's key), whose memoir gives shares: registering users
 * here would count against the per-address limit of unauthenticated requests, which the harness exhausts.
 */
async function grantorKey(server: TestServer, ownerKey: string): Promise<Record<string, string>> {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/v1/accounts',
    headers: { authorization: `Bearer ${ownerKey}` },
    payload: {
      name: 'example grantor',
      tier: 'partner',
      keyScopes: ['contracts', 'webhooks', 'embed', 'chat', 'vaults'],
    },
  });
  if (res.statusCode !== 201) throw new Error(`create_account failed: ${res.body}`);
  return { authorization: `Bearer ${res.json().data.key as string}` };
}

/** A claim code of another account's memoir, unclaimed. */
async function freshShareCode(server: TestServer, ownerKey: string): Promise<string> {
  return (await linkHeirsPlan(server, await grantorKey(server, ownerKey))).codes[0]!.code;
}

/** An open share held by the key's account, of another account's memoir with one entry and one answer (made once per key). */
const heldShares = new Map<string, Promise<string>>();
function heldShare(server: TestServer, ownerKey: string): Promise<string> {
  let made = heldShares.get(ownerKey);
  if (!made) {
    made = (async () => {
      const headers = await grantorKey(server, ownerKey);
      await server.app.inject({
        method: 'POST',
        url: '/api/v1/svcloom/journal',
        headers,
        payload: { content: 'My childhood home had a fig tree by the door.' },
      });
      await server.app.inject({
        method: 'POST',
        url: '/api/v1/svcloom/questionnaire/childhood',
        headers,
        payload: { answers: [{ questionId: 'childhood.home', answer: 'A white house with a fig tree.' }] },
      });
      const { planId, codes } = await linkHeirsPlan(server, headers, { enabled: true });
      const claim = await server.app.inject({
        method: 'POST',
        url: '/api/v1/svcloom/shared/claim',
        headers: { authorization: `Bearer ${ownerKey}` },
        payload: { code: codes[0]!.code },
      });
      if (claim.statusCode !== 200) throw new Error(`claim_memoir_share failed: ${claim.body}`);
      const fired = await server.app.inject({
        method: 'POST',
        url: `/api/v1/svcloom/heirs/plans/${planId}/events`,
        headers,
        payload: { type: 'deadman.triggered' },
      });
      if (fired.statusCode !== 200) throw new Error(`report_deadman_event failed: ${fired.body}`);
      // The verification's 7 days are not waited out here (test/memoir/verification.test.ts does that): the share's
      // opening time is moved into the past in the store, as if the period had passed with no sign of life.
      const share = await server.services.store.get<GrantRecord>(GRANTS, codes[0]!.shareId);
      const past = new Date(Date.now() - 60_000).toISOString();
      await server.services.store.put(GRANTS, { ...share!, opensAt: past });
      return codes[0]!.shareId;
    })();
    heldShares.set(ownerKey, made);
  }
  return made;
}

/** A vault of the key's own account with one letter for the example plan's first heir (fresh, or made once per key). */
async function makeVault(server: TestServer, headers: Record<string, string>) {
  const vault = await server.app.inject({
    method: 'POST',
    url: '/api/v1/vaults',
    headers,
    payload: { name: 'Letters' },
  });
  if (vault.statusCode !== 201) throw new Error(`create_vault failed: ${vault.body}`);
  const vaultId = vault.json().data.id as string;
  const item = await server.app.inject({
    method: 'POST',
    url: `/api/v1/vaults/${vaultId}/items`,
    headers,
    payload: {
      title: 'To Ana',
      text: 'Dear Ana, the deeds are in the blue folder.',
      heirs: [HEIRS_PLAN.beneficiaries[0]!.address],
    },
  });
  if (item.statusCode !== 201) throw new Error(`add_vault_item failed: ${item.body}`);
  return { vaultId, itemId: item.json().data.id as string };
}
const ownVaults = new Map<string, ReturnType<typeof makeVault>>();
function ownVault(server: TestServer, ownerKey: string): ReturnType<typeof makeVault> {
  let made = ownVaults.get(ownerKey);
  if (!made) {
    made = makeVault(server, { authorization: `Bearer ${ownerKey}` });
    ownVaults.set(ownerKey, made);
  }
  return made;
}

/**
 * A share held by the key's account of another account's plan, released, with a vault linked to it holding one letter
 * for the share's heir (made once per key).
 */
const heldVaults = new Map<string, Promise<{ shareId: string; itemId: string }>>();
function heldVaultShare(server: TestServer, ownerKey: string): Promise<{ shareId: string; itemId: string }> {
  let made = heldVaults.get(ownerKey);
  if (!made) {
    made = (async () => {
      const headers = await grantorKey(server, ownerKey);
      const { planId, codes } = await linkHeirsPlan(server, headers, { enabled: true });
      const { vaultId, itemId } = await makeVault(server, headers);
      const linked = await server.app.inject({
        method: 'PUT',
        url: `/api/v1/vaults/${vaultId}/plan`,
        headers,
        payload: { planId },
      });
      if (linked.statusCode !== 200) throw new Error(`link_vault_plan failed: ${linked.body}`);
      const claim = await server.app.inject({
        method: 'POST',
        url: '/api/v1/svcloom/shared/claim',
        headers: { authorization: `Bearer ${ownerKey}` },
        payload: { code: codes[0]!.code },
      });
      if (claim.statusCode !== 200) throw new Error(`claim_memoir_share failed: ${claim.body}`);
      const fired = await server.app.inject({
        method: 'POST',
        url: `/api/v1/svcloom/heirs/plans/${planId}/events`,
        headers,
        payload: { type: 'deadman.triggered' },
      });
      if (fired.statusCode !== 200) throw new Error(`report_deadman_event failed: ${fired.body}`);
      // As for heldShare: the waiting period is taken as passed (the share's opening and the verification's end moved
      // into the past); test/vaults/vaults.test.ts waits it out.
      const past = new Date(Date.now() - 60_000).toISOString();
      const share = await server.services.store.get<GrantRecord>(GRANTS, codes[0]!.shareId);
      await server.services.store.put(GRANTS, { ...share!, opensAt: past });
      const plan = await server.services.store.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, planId);
      await server.services.store.put(MEMOIR_HEIR_PLANS, {
        ...plan!,
        verification: { ...plan!.verification!, endsAt: past },
      });
      return { shareId: codes[0]!.shareId, itemId };
    })();
    heldVaults.set(ownerKey, made);
  }
  return made;
}

const VAULT_VOLATILE = ['id', 'createdAt', 'updatedAt'];

const PLAN_VOLATILE = [
  'id',
  'plan',
  'codes',
  'heirs',
  'createdAt',
  'updatedAt',
  'eventId',
  'share',
  'shareId',
  'claimedAt',
  'lastEvent',
  'triggeredAt',
];

/** Inputs for the tools whose own `example` will not do here (records made per run, documented errors). */
const OWN_INPUTS: Record<string, Example> = {
  // A JSON body is refused: the upload is a multipart form (test/memoir/upload-shapes.test.ts sends real ones).
  upload_memoir_media: { input: () => ({}), session: true, errorCode: 'UNSUPPORTED_MEDIA_TYPE' },
  // A new user's wallet is empty: the documented answer is 402, nothing synthesised is delivered.
  synthesize_memoir_voice: {
    input: () => ({ text: 'I planted the apple tree the year your mother was born.' }),
    session: true,
    errorCode: 'INSUFFICIENT_CREDITS',
  },
  // The example's photo and share ids are placeholders nobody holds.
  generate_memoir_avatar: {
    input: () => ({ photoUrl: 'med_01JD0000000000000000000000', text: 'Hello, my dears.', durationSeconds: 5 }),
    session: true,
    errorCode: 'NOT_FOUND',
  },
  export_shared_memoir: {
    input: () => ({ shareId: 'shr_01JD000000000000000000000B', format: 'md' }),
    session: true,
    errorCode: 'NOT_FOUND',
  },
  get_shared_memoir_media_file: {
    input: () => ({ shareId: 'shr_01JD000000000000000000000B', id: 'med_01JD0000000000000000000000' }),
    session: true,
    errorCode: 'NOT_FOUND',
  },
  synthesize_shared_memoir_voice: {
    input: () => ({ shareId: 'shr_01JD000000000000000000000B', text: 'Hello, my dears.' }),
    session: true,
    errorCode: 'NOT_FOUND',
  },
  // The owner's wallet is empty: the documented answer is 402, and nothing moves.
  prepay_memoir_heir_chat: {
    // The owner's account is given credits first (as the operator would), so the prepayment is paid.
    input: async (server, key) => {
      const plan = await ownHeirsPlan(server, key);
      const record = await server.services.store.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, plan.planId);
      await grantCredits(
        server.services.store,
        server.services.clock,
        { id: record!.ownerId, amount: 5, reason: 'example' },
        'example',
      );
      return { shareId: plan.codes[1]!.shareId, credits: 5 };
    },
    volatile: ['chatAllowance', 'credits'],
  },
  create_webhook: {
    input: () => ({
      url: 'https://127.0.0.1:9/hooks',
      name: 'example',
      events: ['contract.generated', 'api_key.created'],
    }),
    volatile: WEBHOOK_VOLATILE,
  },
  list_webhooks: { input: () => ({}), volatile: ['items'] },
  // Each generation stores a new contract: its id differs between the REST and the MCP call.
  generate_contract: { input: () => ({ ...(generateContractTool.example as object) }), volatile: ['id'] },
  list_contracts: { input: () => ({}), volatile: ['items', 'pagination'] },
  get_contract: { input: async (s, k) => ({ id: await ownContractId(s, k) }), volatile: ['id', 'created'] },
  delete_contract: { input: async (s, k) => ({ id: await ownContractId(s, k) }), volatile: ['id'] },
  // Each input generates its own contract: the archive and its name hold that contract's id.
  get_contract_package: {
    input: async (s, k) => ({ id: await ownContractId(s, k), format: 'zip' }),
    volatile: ['contentBase64', 'fileName'],
  },
  // test/access/examples.test.ts configures a stand-in node with no code anywhere: the answer is an unverified
  // deployment (verification itself: test/contracts/deployments.test.ts, against anvil).
  register_deployment: {
    input: async (s, k) => ({
      id: await ownContractId(s, k),
      network: 31337,
      // A place registered once per account: each call (REST, then MCP) takes a new one.
      address: `0x${randomBytes(20).toString('hex')}`,
    }),
    volatile: ['id', 'contractId', 'createdAt', 'address', 'differences'],
  },
  list_deployments: { input: async (s, k) => ({ id: await ownContractId(s, k) }), volatile: ['items', 'pagination'] },
  get_deployment: {
    input: async (s, k) => {
      const contractId = await ownContractId(s, k);
      const c = await s.services.store.get<ContractRecord>(CONTRACTS, contractId);
      return { id: await seedDeployment(s.services.store, c!.ownerId, contractId) };
    },
    volatile: ['id', 'contractId', 'createdAt', 'address'],
  },
  update_deployment_watch: {
    input: async (s, k) => {
      const contractId = await ownContractId(s, k);
      const c = await s.services.store.get<ContractRecord>(CONTRACTS, contractId);
      const deploymentId = await seedDeployment(s.services.store, c!.ownerId, contractId, 1, { verified: true });
      return { id: contractId, deploymentId, warnDays: [30, 7] };
    },
    volatile: ['id', 'contractId', 'createdAt', 'verifiedAt', 'address'],
  },
  delete_deployment: {
    input: async (s, k) => {
      const contractId = await ownContractId(s, k);
      const c = await s.services.store.get<ContractRecord>(CONTRACTS, contractId);
      return { id: contractId, deploymentId: await seedDeployment(s.services.store, c!.ownerId, contractId, 2) };
    },
    volatile: ['id'],
  },
  update_webhook: {
    input: async (s, k) => ({ id: await ownWebhookId(s, k), events: ['*'], status: 'paused' }),
    volatile: WEBHOOK_VOLATILE,
  },
  delete_webhook: { input: async (s, k) => ({ id: await ownWebhookId(s, k) }), volatile: WEBHOOK_VOLATILE },
  regenerate_webhook_secret: { input: async (s, k) => ({ id: await ownWebhookId(s, k) }), volatile: WEBHOOK_VOLATILE },
  test_webhook: {
    input: async (s, k) => ({ id: await ownWebhookId(s, k) }),
    volatile: WEBHOOK_VOLATILE.concat(['error']),
  },
  list_webhook_events: { input: () => ({ limit: 5 }), volatile: ['items', 'pagination'] },
  create_embed_session: {
    // The key needs an allowed origin first.
    input: async (s, k) => {
      const headers = { authorization: `Bearer ${k}` };
      const list = await s.app.inject({ method: 'GET', url: '/api/v1/api-keys?limit=100', headers });
      const own = (list.json().data as Array<{ id: string; displayPrefix: string }>).find((r) =>
        k.startsWith(r.displayPrefix),
      )!;
      await s.app.inject({
        method: 'PATCH',
        url: `/api/v1/api-keys/${own.id}`,
        headers,
        payload: { allowedOrigins: ['https://partner.example'] },
      });
      return { origin: 'https://partner.example', ttlSeconds: 600 };
    },
    volatile: ['token', 'expiresAt', 'wizardPath'],
  },
  rotate_embed_secret: {
    input: () => ({ graceSeconds: 0 }),
    volatile: ['secret'],
  },
  open_contract_wizard: {
    input: () => ({
      blockchain: 'evm',
      beneficiaries: [{ name: 'A', address: '0x52908400098527886E0F7030069857D2E4169EE7', percentage: 100 }],
    }),
  },
  create_api_key: {
    input: () => ({ name: 'example', scopes: ['contracts:read'], tier: 'public' }),
    volatile: ['id', 'key', 'displayPrefix', 'createdAt'],
  },
  list_api_keys: { input: () => ({ page: 1, limit: 100 }), volatile: ['items', 'pagination'] },
  get_api_key: {
    input: async (s, k) => ({ id: await ownKeyId(s, k) }),
    volatile: ['id', 'displayPrefix', 'createdAt'],
  },
  update_api_key: {
    input: async (s, k) => ({ id: await ownKeyId(s, k), name: 'renamed', ipWhitelist: ['127.0.0.1'] }),
    volatile: ['id', 'displayPrefix', 'createdAt'],
  },
  revoke_api_key: {
    input: async (s, k) => ({ id: await ownKeyId(s, k) }),
    volatile: ['id', 'displayPrefix', 'createdAt', 'revokedAt'],
  },
  create_account: {
    input: () => ({ name: 'Acme Estates', tier: 'partner', email: 'ops@acme.example' }),
    volatile: ACCOUNT_VOLATILE,
  },
  list_accounts: { input: () => ({ page: 1, limit: 5 }), volatile: ['items', 'pagination'] },
  get_account: { input: async (s, k) => ({ id: await newAccountId(s, k) }), volatile: ACCOUNT_VOLATILE },
  update_account: {
    input: async (s, k) => ({ id: await newAccountId(s, k), name: 'Renamed Ltd' }),
    volatile: ACCOUNT_VOLATILE,
  },
  suspend_account: { input: async (s, k) => ({ id: await newAccountId(s, k) }), volatile: ACCOUNT_VOLATILE },
  create_account_key: {
    input: async (s, k) => ({ id: await newAccountId(s, k), name: 'replacement', scopes: ['contracts'] }),
    volatile: ACCOUNT_VOLATILE.concat(['ownerId']),
  },
  register: { input: () => ({ email: uniqueEmail('example'), password: PASSWORD, name: 'Example User' }) },
  verify_email: {
    input: async (s) => {
      const email = uniqueEmail('verify');
      await registerUser(s.app, { email, password: PASSWORD, verify: false });
      return { token: tokenOf(await mailedLink(s.app, email, 'verify-email')) };
    },
  },
  forgot_password: { input: () => ({ email: uniqueEmail('forgot') }) },
  reset_password: {
    input: async (s) => {
      const { email } = await registerUser(s.app, { password: PASSWORD });
      // From an address of its own: the harness spends the default address's unauthenticated allowance.
      const remoteAddress = `198.19.${randomInt(256)}.${1 + randomInt(254)}`;
      await s.app.inject({ method: 'POST', url: '/api/auth/password/forgot', remoteAddress, payload: { email } });
      return {
        token: tokenOf(await mailedLink(s.app, email, 'password-reset')),
        newPassword: 'an even longer passphrase',
      };
    },
  },
  change_email: {
    input: () => ({ newEmail: uniqueEmail('moved'), currentPassword: PASSWORD }),
    session: true,
  },
  confirm_email_change: {
    input: async (s) => {
      const user = await registerUser(s.app, { password: PASSWORD });
      const newEmail = uniqueEmail('confirmed');
      await s.app.inject({
        method: 'POST',
        url: '/api/auth/email/change',
        headers: sessionHeaders(user),
        payload: { newEmail, currentPassword: PASSWORD },
      });
      return { token: tokenOf(await mailedLink(s.app, newEmail, 'email-change-confirm')) };
    },
  },
  login: {
    input: async (s) => ({ email: (await registerUser(s.app, { password: PASSWORD })).email, password: PASSWORD }),
    volatile: SESSION_VOLATILE,
  },
  get_session: { input: () => ({}), session: true, volatile: SESSION_VOLATILE },
  change_password: {
    input: () => ({ currentPassword: PASSWORD, newPassword: 'an even longer passphrase' }),
    session: true,
    volatile: SESSION_VOLATILE,
  },
  generate_legal_document: { input: () => ({ jurisdiction: 'us-ca' }), errorCode: 'NOT_IMPLEMENTED' },
  list_legal_templates: { input: () => ({ jurisdiction: 'us-ca' }), errorCode: 'NOT_IMPLEMENTED' },
  sign_legal_document: { input: () => ({ id: 'doc_1' }), errorCode: 'NOT_IMPLEMENTED' },
  // Memoir: REST-only routes run with a session; media ids need an upload (multipart, test/memoir/media.test.ts), so they show the 404.
  create_journal_entry: {
    input: () => ({ content: 'My mother baked bread every Sunday in Lisbon.', mood: 'nostalgic' }),
    volatile: ['entry', 'character'],
  },
  // Each run edits or deletes an entry of its own, written just before.
  update_journal_entry: {
    input: async (s, k) => ({ id: await ownJournalEntryId(s, k), title: 'Sunday bread', happenedAt: '1940s' }),
    volatile: ['entry', 'character'],
  },
  delete_journal_entry: {
    input: async (s, k) => ({ id: await ownJournalEntryId(s, k) }),
    volatile: ['id', 'character'],
  },
  answer_questionnaire: {
    input: () => ({
      category: 'childhood',
      answers: [{ questionId: 'childhood.home', answer: 'A white house by the river.' }],
    }),
    volatile: ['questions'],
  },
  memoir_chat: { input: () => ({ message: 'What was your childhood home like?' }), volatile: ['message', 'reply'] },
  list_memoir_media: { input: () => ({}), session: true },
  delete_memoir_media: {
    input: () => ({ id: 'med_01JD0000000000000000000000' }),
    session: true,
    errorCode: 'NOT_FOUND',
  },
  update_memoir_media: {
    input: () => ({ id: 'med_01JD0000000000000000000000', private: true }),
    session: true,
    errorCode: 'NOT_FOUND',
  },
  get_memoir_media_inference: {
    input: () => ({ id: 'med_01JD0000000000000000000000' }),
    session: true,
    errorCode: 'NOT_FOUND',
  },
  // Heirs' access: the owner's side on the key's own plans, the heir's side on a share the key's account holds.
  link_memoir_plan: { input: () => ({ plan: HEIRS_PLAN, heirAccess: { enabled: true } }), volatile: PLAN_VOLATILE },
  list_memoir_plans: { input: () => ({}) },
  update_memoir_plan: {
    input: async (server, key) => ({
      planId: (await ownHeirsPlan(server, key)).planId,
      heirAccess: { accessDays: 30 },
    }),
    volatile: PLAN_VOLATILE,
  },
  unlink_memoir_plan: {
    input: async (server, key) => ({
      planId: (await linkHeirsPlan(server, { authorization: `Bearer ${key}` })).planId,
    }),
  },
  report_deadman_event: {
    input: async (server, key) => ({ planId: (await ownHeirsPlan(server, key)).planId, type: 'deadman.warning' }),
    volatile: PLAN_VOLATILE,
  },
  list_memoir_shares: { input: () => ({}) },
  revoke_memoir_share: {
    input: async (server, key) => ({ shareId: (await ownHeirsPlan(server, key)).codes[0]!.shareId }),
    volatile: ['shareId', 'planId', 'revokedAt', 'claimedAt'],
  },
  reissue_memoir_share_code: {
    input: async (server, key) => ({ shareId: (await ownHeirsPlan(server, key)).codes[1]!.shareId }),
    volatile: ['share', 'code'],
  },
  claim_memoir_share: {
    input: async (server, key) => ({ code: await freshShareCode(server, key) }),
    volatile: ['shareId', 'claimedAt'],
  },
  list_held_memoir_shares: { input: () => ({}) },
  get_shared_memoir: { input: async (server, key) => ({ shareId: await heldShare(server, key) }) },
  list_shared_memoir_journal: { input: async (server, key) => ({ shareId: await heldShare(server, key), limit: 20 }) },
  get_shared_memoir_questionnaire: {
    input: async (server, key) => ({ shareId: await heldShare(server, key), category: 'childhood' }),
  },
  get_shared_memoir_insights: { input: async (server, key) => ({ shareId: await heldShare(server, key) }) },
  shared_memoir_chat: {
    input: async (server, key) => ({
      shareId: await heldShare(server, key),
      message: 'What do you think of quantum computing?',
    }),
    volatile: ['message', 'reply'],
  },
  list_shared_memoir_chat: { input: async (server, key) => ({ shareId: await heldShare(server, key), limit: 20 }) },
  create_vault: { input: () => ({ name: 'For the children' }), volatile: VAULT_VOLATILE },
  get_vault: { input: async (server, key) => ({ vaultId: (await ownVault(server, key)).vaultId }) },
  delete_vault: { input: async (server, key) => ({ vaultId: (await makeVault(server, bearer(key))).vaultId }) },
  add_vault_item: {
    input: async (server, key) => ({
      vaultId: (await ownVault(server, key)).vaultId,
      title: 'To Ana',
      text: 'Dear Ana, the deeds are in the blue folder.',
      heirs: [HEIRS_PLAN.beneficiaries[0]!.address],
    }),
    volatile: VAULT_VOLATILE,
  },
  get_vault_item: { input: async (server, key) => ownVault(server, key) },
  download_vault_item: { input: async (server, key) => ownVault(server, key) },
  // A JSON body is refused: the upload is a multipart form (test/vaults/upload.test.ts sends real ones).
  upload_vault_item: {
    input: async (server, key) => ({ vaultId: (await ownVault(server, key)).vaultId }),
    errorCode: 'UNSUPPORTED_MEDIA_TYPE',
  },
  update_vault_item: {
    input: async (server, key) => ({ ...(await ownVault(server, key)), title: 'To Ana, with love' }),
    volatile: ['updatedAt'],
  },
  delete_vault_item: { input: async (server, key) => makeVault(server, bearer(key)) },
  link_vault_plan: {
    input: async (server, key) => ({
      vaultId: (await ownVault(server, key)).vaultId,
      planId: (await ownHeirsPlan(server, key)).planId,
    }),
    volatile: ['updatedAt'],
  },
  list_shared_vault_items: {
    input: async (server, key) => ({ shareId: (await heldVaultShare(server, key)).shareId, limit: 20 }),
  },
  get_shared_vault_item: { input: async (server, key) => heldVaultShare(server, key) },
  download_shared_vault_item: { input: async (server, key) => heldVaultShare(server, key) },
  list_shared_memoir_media: { input: async (server, key) => ({ shareId: await heldShare(server, key), limit: 20 }) },
  // The example server has no Stripe key: the documented answer is 503 PAYMENTS_NOT_CONFIGURED.
  purchase_credits: {
    input: () => ({ packType: 'starter', successUrl: 'https://app.example/ok', cancelUrl: 'https://app.example/no' }),
    session: true,
    errorCode: 'PAYMENTS_NOT_CONFIGURED',
  },
  grant_credits: {
    input: async (s, k) => ({ id: await newAccountId(s, k), amount: 100, reason: 'example grant' }),
    volatile: ['entry'],
  },
};

/** A tool's own example, as the OpenAPI document shows it; session-only tools run with a session. */
function ownExample(tool: AnyTool): Example | undefined {
  const example = tool.example;
  if (!example) return undefined;
  return {
    input: () => structuredClone(example),
    ...((tool.principals ?? ['key']).includes('key') ? {} : { session: true }),
  };
}

/** A known-good input for every tool: its entry in OWN_INPUTS, else its own example. */
export const EXAMPLES: Record<string, Example> = Object.fromEntries(
  TOOLS.flatMap((tool) => {
    const example = OWN_INPUTS[tool.name] ?? ownExample(tool);
    return example ? [[tool.name, example]] : [];
  }),
);

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServices, openServices } from '../../src/app.js';
import { loadConfig } from '../../src/core/config.js';
import { createLogger } from '../../src/core/log.js';
import { ACCOUNTS, type AccountRecord } from '../../src/accounts/records.js';
import { API_KEYS, buildKey, type ApiKeyRecord } from '../../src/keys/keys.js';
import { EVENTS } from '../../src/events/events.js';
import { openLowdbStore } from '../../src/store/index.js';
import { STORE_INDEXES } from '../../src/app.js';
import { FakeClock, startTestServer, tmpDir, type TestServer } from '../helpers.js';
import { mcpHttpCall } from '../mcp-clients.js';
import { registerUser, sessionHeaders } from '../support/session.js';

const clock = new FakeClock();
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ clock });
});
afterAll(async () => {
  await server?.close();
});

async function call(
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

const errorOf = (r: { body: { error?: { code: string } } }) => r.body.error?.code;

describe('accounts made by the operator', () => {
  it('creates a customer account with its first key, shown once; the key works and lives in the new account', async () => {
    const res = await call(server.adminKey, 'POST', '/api/v1/accounts', {
      name: 'Acme Estates',
      tier: 'partner',
      email: 'Ops@Acme.Example',
    });
    expect(res.status).toBe(201);
    const { account, apiKey, key } = res.body.data;
    expect(account).toMatchObject({
      name: 'Acme Estates',
      tier: 'partner',
      kind: 'customer',
      status: 'active',
      email: 'ops@acme.example',
    });
    expect(account.id).toMatch(/^acct_[0-9A-Z]{26}$/);
    expect(apiKey).toMatchObject({
      ownerId: account.id,
      tier: 'partner',
      scopes: ['contracts', 'webhooks', 'embed', 'chat'],
    });
    expect(key).toMatch(/^svc_pt_/);
    const own = await call(key, 'GET', '/api/v1/api-keys');
    expect(own.body.data.map((k: { id: string }) => k.id)).toEqual([apiKey.id]);
    const shown = await call(server.adminKey, 'GET', `/api/v1/accounts/${account.id}`);
    expect(shown.body.data).toEqual(account);
    expect(JSON.stringify(shown.body)).not.toContain(key);
  });

  it('refuses bad account input with details, and other tiers and sessions entirely', async () => {
    const bad = await call(server.adminKey, 'POST', '/api/v1/accounts', { name: '', tier: 'internal', email: 'nope' });
    expect(errorOf(bad)).toBe('VALIDATION_ERROR');
    expect(bad.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['email', 'name', 'tier']);
    const grant = await call(server.adminKey, 'POST', '/api/v1/accounts', {
      name: 'x',
      tier: 'public',
      keyScopes: ['all'],
    });
    expect(grant.body.error.details).toEqual([
      { field: 'keyScopes.0', reason: 'the "all" scope exists only on internal keys' },
    ]);
    const partner = await server.key({ tier: 'partner', scopes: ['contracts', 'webhooks'] });
    expect(errorOf(await call(partner, 'POST', '/api/v1/accounts', { name: 'x', tier: 'public' }))).toBe(
      'TIER_NOT_ALLOWED',
    );
    const limited = await server.key({ tier: 'internal', scopes: ['contracts'] });
    expect(errorOf(await call(limited, 'POST', '/api/v1/accounts', { name: 'x', tier: 'public' }))).toBe(
      'INSUFFICIENT_SCOPE',
    );
    expect(errorOf(await call(server.adminKey, 'GET', '/api/v1/accounts/acct_01AAAAAAAAAAAAAAAAAAAAAAAA'))).toBe(
      'NOT_FOUND',
    );
    const user = await registerUser(server.app);
    expect(
      errorOf(await call(undefined, 'POST', '/api/v1/accounts', { name: 'x', tier: 'public' }, sessionHeaders(user))),
    ).toBe('API_KEY_MISSING');
  });

  it('refuses account and key names with line breaks, terminal escapes or bidirectional controls', async () => {
    // Names are printed by `svc accounts list` and `svc keys list` on the operator's terminal, and shown on pages.
    const before = (await call(server.adminKey, 'GET', '/api/v1/accounts?limit=100')).body.data.length;
    for (const name of ['Evil\nCo', 'Evil \u001b[2J', 'Evil \u202eoC', 'Evil\u0007']) {
      const account = await call(server.adminKey, 'POST', '/api/v1/accounts', { name, tier: 'public' });
      expect(account.status).toBe(400);
      expect(account.body.error.details.map((d: { field: string }) => d.field)).toEqual(['name']);
      const firstKey = await call(server.adminKey, 'POST', '/api/v1/accounts', {
        name: 'Fine',
        tier: 'public',
        keyName: name,
      });
      expect(firstKey.body.error.details.map((d: { field: string }) => d.field)).toEqual(['keyName']);
      const key = await call(server.adminKey, 'POST', '/api/v1/api-keys', { name, scopes: ['contracts'] });
      expect(key.status).toBe(400);
      expect(key.body.error.details.map((d: { field: string }) => d.field)).toEqual(['name']);
    }
    expect((await call(server.adminKey, 'GET', '/api/v1/accounts?limit=100')).body.data.length).toBe(before);
    const made = await call(server.adminKey, 'POST', '/api/v1/api-keys', { name: 'reporting', scopes: ['contracts'] });
    const renamed = await call(server.adminKey, 'PATCH', `/api/v1/api-keys/${made.body.data.id}`, { name: 'a\u2066b' });
    expect(renamed.body.error.details.map((d: { field: string }) => d.field)).toEqual(['name']);
    expect((await call(server.adminKey, 'GET', `/api/v1/api-keys/${made.body.data.id}`)).body.data.name).toBe(
      'reporting',
    );
  });

  it('an account caps the tier of its keys', async () => {
    const made = await call(server.adminKey, 'POST', '/api/v1/accounts', { name: 'Small', tier: 'public' });
    const id = made.body.data.account.id;
    const tooHigh = await call(server.adminKey, 'POST', `/api/v1/accounts/${id}/keys`, {
      name: 'x',
      tier: 'partner',
      scopes: ['contracts'],
    });
    expect(tooHigh.body.error.details).toEqual([
      { field: 'tier', reason: 'the account is public tier, which caps its keys at public' },
    ]);
    const ok = await call(server.adminKey, 'POST', `/api/v1/accounts/${id}/keys`, {
      name: 'replacement',
      scopes: ['contracts'],
    });
    expect(ok.status).toBe(201);
    expect(ok.body.data).toMatchObject({ tier: 'public', ownerId: id });
  });

  it('lists accounts paged and filtered by status', async () => {
    const page = await call(server.adminKey, 'GET', '/api/v1/accounts?page=1&limit=2');
    expect(page.body.data).toHaveLength(2);
    expect(page.body.meta.pagination).toMatchObject({ page: 1, limit: 2, hasPrev: false });
    expect(page.body.meta.pagination.total).toBeGreaterThanOrEqual(3);
    const bad = await call(server.adminKey, 'GET', '/api/v1/accounts?limit=1000');
    expect(errorOf(bad)).toBe('VALIDATION_ERROR');
  });

  it('suspends an account (DELETE): its keys and sessions are refused with ACCOUNT_SUSPENDED until re-activated, and nothing is deleted', async () => {
    const made = await call(server.adminKey, 'POST', '/api/v1/accounts', { name: 'To suspend', tier: 'partner' });
    const { account, key } = made.body.data;
    expect((await call(key, 'GET', '/api/v1/contracts/templates')).status).toBe(200);
    const suspended = await call(server.adminKey, 'DELETE', `/api/v1/accounts/${account.id}`);
    expect(suspended.body.data).toMatchObject({ status: 'suspended' });
    const refused = await call(key, 'GET', '/api/v1/contracts/templates');
    expect(refused.status).toBe(403);
    expect(errorOf(refused)).toBe('ACCOUNT_SUSPENDED');
    const viaMcp = await mcpHttpCall(server.url, key, 'list_templates', {});
    expect(viaMcp).toMatchObject({ ok: false, status: 403, body: { error: { code: 'ACCOUNT_SUSPENDED' } } });
    expect(await server.services.store.get(ACCOUNTS, account.id)).toBeTruthy();
    const restored = await call(server.adminKey, 'PATCH', `/api/v1/accounts/${account.id}`, {
      status: 'active',
      name: 'Back again',
    });
    expect(restored.body.data).toMatchObject({ status: 'active', name: 'Back again', suspendedAt: null });
    expect((await call(key, 'GET', '/api/v1/contracts/templates')).status).toBe(200);

    // A personal account's sessions and sign-ins too.
    const user = await registerUser(server.app);
    await call(server.adminKey, 'DELETE', `/api/v1/accounts/${user.accountId}`);
    expect(errorOf(await call(undefined, 'GET', '/api/auth/session', undefined, sessionHeaders(user)))).toBe(
      'ACCOUNT_SUSPENDED',
    );
    const login = await call(undefined, 'POST', '/api/auth/login', { email: user.email, password: user.password });
    expect(errorOf(login)).toBe('ACCOUNT_SUSPENDED');
    await call(server.adminKey, 'PATCH', `/api/v1/accounts/${user.accountId}`, { status: 'active' });
    expect((await call(undefined, 'GET', '/api/auth/session', undefined, sessionHeaders(user))).status).toBe(200);
  });

  it("will not suspend the operator account or the caller's own", async () => {
    const list = await call(server.adminKey, 'GET', '/api/v1/accounts?limit=100');
    const own = (await call(server.adminKey, 'GET', '/api/v1/api-keys')).body.data[0].ownerId;
    const res = await call(server.adminKey, 'DELETE', `/api/v1/accounts/${own}`);
    expect(errorOf(res)).toBe('VALIDATION_ERROR');
    expect(list.body.data.find((a: { id: string }) => a.id === own).status).toBe('active');
  });
});

describe("an account's own user and its keys", () => {
  it("a user revokes any key of their account, even one with scopes sessions lack; other accounts' keys stay 404", async () => {
    const user = await registerUser(server.app);
    const made = await call(server.adminKey, 'POST', `/api/v1/accounts/${user.accountId}/keys`, {
      name: 'site widget',
      tier: 'public',
      scopes: ['embed', 'contracts'],
    });
    expect(made.status).toBe(201);
    const keyId = made.body.data.apiKey?.id ?? made.body.data.id;
    const revoke = (id: string) => call(undefined, 'DELETE', `/api/v1/api-keys/${id}`, undefined, sessionHeaders(user));
    // A leaked key must be stoppable by the person whose account it is.
    const revoked = await revoke(keyId);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.revokedAt).toEqual(expect.any(String));
    expect(errorOf(await call(made.body.data.key, 'GET', '/api/v1/contracts/templates'))).toBe('API_KEY_INVALID');
    // Not a key of another account.
    const other = await call(server.adminKey, 'POST', '/api/v1/api-keys', {
      name: 'operator own',
      scopes: ['contracts'],
    });
    expect(errorOf(await revoke(other.body.data.id))).toBe('NOT_FOUND');
  });
});

describe("keys inherit their creator's limits", () => {
  const future = (days: number) => new Date(clock.ms + days * 86_400_000).toISOString();

  it('a child key expires no later than its creator, and inherits the expiry when it names none', async () => {
    const parent = await server.key({ tier: 'partner', scopes: ['contracts', 'webhooks'], expiresAt: future(30) });
    const later = await call(parent, 'POST', '/api/v1/api-keys', {
      name: 'later',
      scopes: ['contracts'],
      expiresAt: future(60),
    });
    expect(later.body.error.details).toEqual([
      { field: 'expiresAt', reason: `must be no later than the calling key's expiry (${future(30)})` },
    ]);
    const inherited = await call(parent, 'POST', '/api/v1/api-keys', { name: 'inherits', scopes: ['contracts'] });
    expect(inherited.body.data.expiresAt).toBe(future(30));
    const sooner = await call(parent, 'POST', '/api/v1/api-keys', {
      name: 'sooner',
      scopes: ['contracts'],
      expiresAt: future(10),
    });
    expect(sooner.body.data.expiresAt).toBe(future(10));
    // Nor can it be lengthened or removed later by the creator.
    const patch = await call(parent, 'PATCH', `/api/v1/api-keys/${sooner.body.data.id}`, { expiresAt: null });
    expect(patch.body.error.details).toEqual([
      { field: 'expiresAt', reason: `cannot be removed: the calling key expires at ${future(30)}` },
    ]);
  });

  it("a child key's whitelist lies within its creator's, inherited when omitted", async () => {
    const parent = await server.key({
      tier: 'partner',
      scopes: ['contracts'],
      ipWhitelist: ['127.0.0.1', '10.1.0.0/16', '2001:db8::/32'],
    });
    const inherited = await call(parent, 'POST', '/api/v1/api-keys', { name: 'inherits', scopes: ['contracts'] }, {});
    expect(inherited.body.data.ipWhitelist).toEqual(['127.0.0.1', '10.1.0.0/16', '2001:db8::/32']);
    const narrower = await call(parent, 'POST', '/api/v1/api-keys', {
      name: 'narrow',
      scopes: ['contracts'],
      ipWhitelist: ['10.1.2.0/24', '127.0.0.1', '2001:db8:1::1'],
    });
    expect(narrower.status).toBe(201);
    for (const wider of [['10.0.0.0/8'], [], ['127.0.0.2'], ['::ffff:10.2.0.1'], ['2001:db9::1']]) {
      const res = await call(parent, 'POST', '/api/v1/api-keys', {
        name: 'wide',
        scopes: ['contracts'],
        ipWhitelist: wider,
      });
      expect(res.body.error?.details?.[0]?.field, JSON.stringify(wider)).toBe('ipWhitelist');
    }
  });

  it('a key cannot PATCH itself to lengthen or remove its expiry or widen its whitelist; it can narrow them', async () => {
    const self = await server.key({
      tier: 'partner',
      scopes: ['contracts'],
      expiresAt: future(30),
      ipWhitelist: ['127.0.0.0/24'],
    });
    const id = (await call(self, 'GET', '/api/v1/api-keys')).body.data[0].id;
    const headers = {};
    const lengthen = await call(self, 'PATCH', `/api/v1/api-keys/${id}`, { expiresAt: future(90) }, headers);
    expect(lengthen.body.error.details[0].field).toBe('expiresAt');
    const remove = await call(self, 'PATCH', `/api/v1/api-keys/${id}`, { expiresAt: null }, headers);
    expect(remove.body.error.details[0].field).toBe('expiresAt');
    const widen = await call(self, 'PATCH', `/api/v1/api-keys/${id}`, { ipWhitelist: ['127.0.0.0/8'] }, headers);
    expect(widen.body.error.details[0].field).toBe('ipWhitelist');
    const clear = await call(self, 'PATCH', `/api/v1/api-keys/${id}`, { ipWhitelist: [] }, headers);
    expect(clear.body.error.details[0].field).toBe('ipWhitelist');
    const stored = (await server.services.store.get<ApiKeyRecord>(API_KEYS, id))!;
    expect(stored).toMatchObject({ expiresAt: future(30), ipWhitelist: ['127.0.0.0/24'] });
    const narrow = await call(
      self,
      'PATCH',
      `/api/v1/api-keys/${id}`,
      { expiresAt: future(5), ipWhitelist: ['127.0.0.1'] },
      headers,
    );
    expect(narrow.body.data).toMatchObject({ expiresAt: future(5), ipWhitelist: ['127.0.0.1'] });
  });
});

describe('data from before accounts existed', () => {
  it('gets an account per owner on open: the owner of the internal "all" key becomes the operator', async () => {
    const { dir, cleanup } = await tmpDir();
    try {
      const store = await openLowdbStore({ dataDir: dir, indexes: STORE_INDEXES });
      const admin = buildKey({ name: 'bootstrap', tier: 'internal', scopes: ['all'], ownerId: 'own_OLDADMIN' }, clock);
      const partner = buildKey(
        { name: 'partner', tier: 'partner', scopes: ['contracts'], ownerId: 'own_OLDPARTNER' },
        clock,
      );
      await store.transact(async (tx) => {
        await tx.put(API_KEYS, admin.record);
        await tx.put(API_KEYS, partner.record);
        await tx.put(EVENTS, {
          id: 'evt_old',
          type: 'api_key.created',
          ownerId: 'own_OLDPARTNER',
          created: 0,
          createdAt: '',
          apiVersion: 'v1',
          data: {},
        });
      });
      await store.close();
      const services = await openServices(loadConfig({ 'data-dir': dir }, {}), {
        log: createLogger('silent'),
        bootstrap: true,
        clock,
      });
      try {
        const accounts = await services.store.all<AccountRecord>(ACCOUNTS);
        expect(accounts.map((a) => [a.kind, a.tier]).sort()).toEqual([
          ['customer', 'partner'],
          ['operator', 'internal'],
        ]);
        const operator = accounts.find((a) => a.kind === 'operator')!;
        const customer = accounts.find((a) => a.kind === 'customer')!;
        expect((await services.store.get<ApiKeyRecord>(API_KEYS, admin.record.id))!.ownerId).toBe(operator.id);
        expect((await services.store.get<ApiKeyRecord>(API_KEYS, partner.record.id))!.ownerId).toBe(customer.id);
        expect((await services.store.get<{ id: string; ownerId: string }>(EVENTS, 'evt_old'))!.ownerId).toBe(
          customer.id,
        );
        // No second bootstrap key: the operator has one.
        expect((await services.store.all(API_KEYS)).length).toBe(2);
      } finally {
        await closeServices(services);
      }
    } finally {
      await cleanup();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS, type EventRecord } from '../../src/events/events.js';
import { API_KEYS, hashKey, type ApiKeyRecord } from '../../src/keys/keys.js';
import { FakeClock, startTestServer, type TestServer } from '../helpers.js';
import { httpClient, mcpOutcome } from '../mcp-clients.js';
import { keyCall } from '../support/rest.js';

let server: TestServer;
const clock = new FakeClock();
let OWNER: string;
let partner: string;

beforeAll(async () => {
  server = await startTestServer({ clock });
  OWNER = await server.account({ tier: 'internal' });
  partner = await server.key({
    tier: 'partner',
    scopes: ['contracts', 'webhooks', 'embed'],
    ownerId: OWNER,
    name: 'partner',
  });
});
afterAll(async () => {
  await server?.close();
});

const call = (method: string, url: string, key: string | undefined, payload?: unknown) =>
  keyCall(server.app, method, url, key, payload);

describe('creating keys', () => {
  it('a partner key creates a public key for its account; the value is shown once', async () => {
    const res = await call('POST', '/api/v1/api-keys', partner, {
      name: 'client A',
      scopes: ['contracts:read'],
      tier: 'public',
    });
    expect(res.status).toBe(201);
    const data = res.body.data;
    expect(data.key).toMatch(/^svc_pk_[A-Za-z0-9_-]{43}$/);
    expect(data).toMatchObject({
      name: 'client A',
      tier: 'public',
      scopes: ['contracts:read'],
      ownerId: OWNER,
      revokedAt: null,
      expiresAt: null,
    });
    expect(data.displayPrefix).toBe(data.key.slice(0, 11));
    expect(data).not.toHaveProperty('keyHash');
    // Stored: only the hash.
    const stored = await server.services.store.get<ApiKeyRecord>(API_KEYS, data.id);
    expect(stored!.keyHash).toBe(hashKey(data.key));
    expect(JSON.stringify(stored)).not.toContain(data.key);
    // Shown once: reading it back never includes the value.
    const again = await call('GET', `/api/v1/api-keys/${data.id}`, partner);
    expect(again.body.data).not.toHaveProperty('key');
    // The new key works.
    expect((await call('GET', '/api/v1/contracts/templates', data.key)).status).toBe(200);
  });

  it("defaults to the caller's tier and uses each tier's prefix", async () => {
    const own = await call('POST', '/api/v1/api-keys', partner, { name: 'p2', scopes: ['contracts'] });
    expect(own.body.data.tier).toBe('partner');
    expect(own.body.data.key).toMatch(/^svc_pt_/);
    const internal = await call('POST', '/api/v1/api-keys', server.adminKey, { name: 'i', scopes: ['all'] });
    expect(internal.body.data.key).toMatch(/^svc_sk_/);
  });

  it('never creates a key beyond the caller: tier, scopes, all', async () => {
    const res = await call('POST', '/api/v1/api-keys', partner, {
      name: 'x',
      scopes: ['contracts', 'chat', 'all'],
      tier: 'internal',
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details).toEqual([
      { field: 'tier', reason: 'a partner key cannot create an internal key' },
      { field: 'scopes.1', reason: 'the calling key does not hold "chat", so it cannot grant it' },
      expect.objectContaining({ field: 'scopes.2' }),
    ]);
    const allOnPartner = await call('POST', '/api/v1/api-keys', server.adminKey, {
      name: 'x',
      scopes: ['all'],
      tier: 'partner',
    });
    expect(allOnPartner.body.error.details).toEqual([
      { field: 'scopes.0', reason: 'the "all" scope exists only on internal keys' },
    ]);
    // X includes X:read, so a contracts key may grant contracts:read.
    expect((await call('POST', '/api/v1/api-keys', partner, { name: 'r', scopes: ['contracts:read'] })).status).toBe(
      201,
    );
  });

  it('public keys cannot manage keys', async () => {
    const pub = await server.key({ tier: 'public', scopes: ['contracts'], ownerId: OWNER });
    for (const [method, url, body] of [
      ['POST', '/api/v1/api-keys', { name: 'x', scopes: ['contracts'] }],
      ['GET', '/api/v1/api-keys', undefined],
    ] as const) {
      const res = await call(method, url, pub, body);
      expect(res.status).toBe(403);
      expect(res.body.error.code).toBe('TIER_NOT_ALLOWED');
    }
  });

  it('rejects every invalid whitelist entry and a past expiry, one detail each', async () => {
    const res = await call('POST', '/api/v1/api-keys', partner, {
      name: 'w',
      scopes: ['contracts'],
      ipWhitelist: ['10.0.0.0/8', '300.1.1.1', '10.0.0.0/33', '::1/129', 'fe80::1', 'nonsense', '1.2.3.4/x'],
      expiresAt: new Date(clock.ms - 1000).toISOString(),
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { field: string }) => d.field)).toEqual([
      'ipWhitelist.1',
      'ipWhitelist.2',
      'ipWhitelist.3',
      'ipWhitelist.5',
      'ipWhitelist.6',
      'expiresAt',
    ]);
  });
});

describe('managing keys', () => {
  it("lists only the owner's keys, paginated, and hides other owners' ids (404)", async () => {
    const list = await call('GET', '/api/v1/api-keys?limit=2', partner);
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(2);
    expect(list.body.meta.pagination).toMatchObject({ page: 1, limit: 2, hasNext: true });
    const all = await call('GET', '/api/v1/api-keys?limit=100', partner);
    expect(all.body.data.every((k: { ownerId: string }) => k.ownerId === OWNER)).toBe(true);
    // The admin key belongs to another owner.
    const [adminRecord] = await server.services.store.findBy<ApiKeyRecord>(
      API_KEYS,
      'keyHash',
      hashKey(server.adminKey),
    );
    for (const [method, body] of [
      ['GET', undefined],
      ['PATCH', { name: 'stolen' }],
      ['DELETE', undefined],
    ] as const) {
      const res = await call(method, `/api/v1/api-keys/${adminRecord!.id}`, partner, body);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
    expect((await server.services.store.get<ApiKeyRecord>(API_KEYS, adminRecord!.id))!.name).toBe('test');
  });

  it('updates name, scopes, whitelist and expiry, never beyond the caller', async () => {
    const created = (await call('POST', '/api/v1/api-keys', partner, { name: 'u', scopes: ['contracts:read'] })).body
      .data;
    const expiresAt = new Date(clock.ms + 86_400_000).toISOString();
    const res = await call('PATCH', `/api/v1/api-keys/${created.id}`, partner, {
      name: 'renamed',
      scopes: ['contracts', 'embed'],
      ipWhitelist: ['127.0.0.1'],
      expiresAt,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: 'renamed',
      scopes: ['contracts', 'embed'],
      ipWhitelist: ['127.0.0.1'],
      expiresAt,
    });
    const widen = await call('PATCH', `/api/v1/api-keys/${created.id}`, partner, { scopes: ['chat'] });
    expect(widen.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'scopes.0' }] });
    // A partner key cannot touch an internal key of the same owner.
    const internal = await server.key({ tier: 'internal', scopes: ['all'], ownerId: OWNER });
    const [rec] = await server.services.store.findBy<ApiKeyRecord>(API_KEYS, 'keyHash', hashKey(internal));
    expect((await call('PATCH', `/api/v1/api-keys/${rec!.id}`, partner, { name: 'x' })).body.error.code).toBe(
      'TIER_NOT_ALLOWED',
    );
    expect((await call('DELETE', `/api/v1/api-keys/${rec!.id}`, partner)).body.error.code).toBe('TIER_NOT_ALLOWED');
  });

  it('expires keys at expiresAt', async () => {
    const expiresAt = new Date(clock.ms + 60_000).toISOString();
    const created = (await call('POST', '/api/v1/api-keys', partner, { name: 'e', scopes: ['contracts'], expiresAt }))
      .body.data;
    expect((await call('GET', '/api/v1/contracts/templates', created.key)).status).toBe(200);
    clock.advance(60_000);
    const res = await call('GET', '/api/v1/contracts/templates', created.key);
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('API_KEY_INVALID');
  });

  it('keeps an expired key expired, as a revoked one stays revoked', async () => {
    const expiresAt = new Date(clock.ms + 60_000).toISOString();
    const created = (await call('POST', '/api/v1/api-keys', partner, { name: 'x', scopes: ['contracts'], expiresAt }))
      .body.data;
    clock.advance(60_000);
    for (const change of [
      { expiresAt: new Date(clock.ms + 86_400_000).toISOString() },
      { expiresAt: null },
      { name: 'y' },
    ]) {
      const res = await call('PATCH', `/api/v1/api-keys/${created.id}`, partner, change);
      expect(res.status, JSON.stringify(change)).toBe(400);
      expect(res.body.error).toMatchObject({
        code: 'VALIDATION_ERROR',
        message: expect.stringMatching(/expired key cannot be changed.*new key/),
        details: [{ field: 'id', reason: `the key expired at ${expiresAt}` }],
      });
    }
    expect(await server.services.store.get<ApiKeyRecord>(API_KEYS, created.id)).toMatchObject({ name: 'x', expiresAt });
    expect((await call('GET', '/api/v1/contracts/templates', created.key)).status).toBe(401);
    // A revoked key is refused the same way.
    const other = (await call('POST', '/api/v1/api-keys', partner, { name: 'r', scopes: ['contracts'] })).body.data;
    await call('DELETE', `/api/v1/api-keys/${other.id}`, partner);
    const res = await call('PATCH', `/api/v1/api-keys/${other.id}`, partner, { name: 'z' });
    expect(res.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [{ field: 'id', reason: 'the key is revoked' }],
    });
  });

  it('records lastUsedAt, at most once a minute', async () => {
    const created = (await call('POST', '/api/v1/api-keys', partner, { name: 'l', scopes: ['contracts'] })).body.data;
    expect(created.lastUsedAt).toBeNull();
    await call('GET', '/api/v1/contracts/templates', created.key);
    await server.services.store.flush();
    const first = (await server.services.store.get<ApiKeyRecord>(API_KEYS, created.id))!.lastUsedAt;
    expect(first).toBe(clock.now().toISOString());
    clock.advance(30_000);
    await call('GET', '/api/v1/contracts/templates', created.key);
    await server.services.store.flush();
    expect((await server.services.store.get<ApiKeyRecord>(API_KEYS, created.id))!.lastUsedAt).toBe(first);
    clock.advance(31_000);
    await call('GET', '/api/v1/contracts/templates', created.key);
    await server.services.store.flush();
    expect((await server.services.store.get<ApiKeyRecord>(API_KEYS, created.id))!.lastUsedAt).toBe(
      clock.now().toISOString(),
    );
  });
});

describe('rotation, end to end', () => {
  it('create the new key, switch, revoke the old one with the new one; events are logged', async () => {
    const old = (await call('POST', '/api/v1/api-keys', partner, { name: 'old', scopes: ['contracts'] })).body.data;
    const fresh = (await call('POST', '/api/v1/api-keys', old.key, { name: 'new', scopes: ['contracts'] })).body.data;
    expect((await call('GET', '/api/v1/contracts/templates', fresh.key)).status).toBe(200);
    const revoked = await call('DELETE', `/api/v1/api-keys/${old.id}`, fresh.key);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.revokedAt).toBe(clock.now().toISOString());
    const denied = await call('GET', '/api/v1/contracts/templates', old.key);
    expect(denied.status).toBe(401);
    expect(denied.body.error.code).toBe('API_KEY_INVALID');
    expect((await call('GET', '/api/v1/contracts/templates', fresh.key)).status).toBe(200);
    // The record stays, marked revoked; revoking again changes nothing and emits nothing.
    const again = await call('DELETE', `/api/v1/api-keys/${old.id}`, fresh.key);
    expect(again.body.data.revokedAt).toBe(revoked.body.data.revokedAt);
    expect((await call('PATCH', `/api/v1/api-keys/${old.id}`, fresh.key, { name: 'x' })).status).toBe(400);

    const events = await server.services.store.findBy<EventRecord>(EVENTS, 'ownerId', OWNER);
    const ofOld = events.filter((e) => e.data.id === old.id);
    expect(ofOld.map((e) => e.type)).toEqual(['api_key.created', 'api_key.revoked']);
    expect(ofOld[1]!.data).toMatchObject({
      revokedBy: (await server.services.store.findBy<ApiKeyRecord>(API_KEYS, 'keyHash', hashKey(fresh.key)))[0]!.id,
    });
    expect(JSON.stringify(events)).not.toContain(old.key);
    expect(JSON.stringify(events)).not.toContain(fresh.key);
  });

  it('works the same over MCP', async () => {
    const client = await httpClient(server.url, partner);
    const created = await mcpOutcome(client, 'create_api_key', {
      name: 'via mcp',
      scopes: ['contracts:read'],
      tier: 'public',
    });
    expect(created.ok).toBe(true);
    const { id, key } = created.body as { id: string; key: string };
    const revoked = await mcpOutcome(client, 'revoke_api_key', { id });
    expect(revoked).toMatchObject({ ok: true, body: { id, revokedAt: expect.any(String) } });
    expect((await call('GET', '/api/v1/contracts/templates', key)).status).toBe(401);
    await client.close();
  });
});

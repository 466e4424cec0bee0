import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactUrl } from '../../src/core/log.js';
import { parseOrigin } from '../../src/keys/origins.js';
import { FakeClock, startTestServer, type TestServer } from '../helpers.js';
import { bundleWizard, SDK_BUDGET_GZIP_BYTES } from '../../scripts/build-wizard.mjs';
import { embedToken, partnerKey } from './support.js';

const clock = new FakeClock(Date.now());
let server: TestServer;
const SITE = 'https://partner.example';

beforeAll(async () => {
  server = await startTestServer({ clock });
});
afterAll(async () => {
  await server?.close();
});

const directives = (res: { headers: Record<string, unknown> }) =>
  String(res.headers['content-security-policy']).split('; ');
const auth = (key: string) => ({ authorization: `Bearer ${key}` });
const PLAN = {
  blockchain: 'evm',
  ownerAddress: '0x27b1fdb04752bbc536007a920d24acb045561c26',
  beneficiaries: [
    { name: 'A', address: '0x52908400098527886E0F7030069857D2E4169EE7', percentage: 60 },
    { name: 'B', address: '0x8617e340b3d01fa5f11f306f4090fd50e238070d', percentage: 40 },
  ],
};

describe('allowedOrigins on API keys', () => {
  it('parses exact origins only', () => {
    expect(parseOrigin('https://App.Example.com:443/')).toEqual({ origin: 'https://app.example.com' });
    expect(parseOrigin('http://127.0.0.1:8080')).toEqual({ origin: 'http://127.0.0.1:8080' });
    for (const bad of [
      'https://a.example/path',
      'https://a.example?x=1',
      'https://*.example',
      'http://a.example',
      'ftp://a.example',
      'a.example',
      'https://u:p@a.example',
      'https://a.example#f',
    ]) {
      expect(parseOrigin(bad), bad).toHaveProperty('reason');
    }
  });

  it('are validated and normalized at create and PATCH, and listed on the key', async () => {
    const created = await server.app.inject({
      method: 'POST',
      url: '/api/v1/api-keys',
      headers: auth(server.adminKey),
      payload: {
        name: 'embed',
        scopes: ['embed'],
        tier: 'partner',
        allowedOrigins: ['https://Partner.example/', 'https://partner.example', 'http://localhost:3000'],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id;
    expect(created.json().data.allowedOrigins).toEqual(['https://partner.example', 'http://localhost:3000']);

    const bad = await server.app.inject({
      method: 'PATCH',
      url: `/api/v1/api-keys/${id}`,
      headers: auth(server.adminKey),
      payload: { allowedOrigins: ['https://ok.example', 'https://x.example/app', 'http://plain.example'] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.map((d: { field: string }) => d.field)).toEqual([
      'allowedOrigins.1',
      'allowedOrigins.2',
    ]);
    // Nothing was changed by the refused PATCH.
    const got = await server.app.inject({
      method: 'GET',
      url: `/api/v1/api-keys/${id}`,
      headers: auth(server.adminKey),
    });
    expect(got.json().data.allowedOrigins).toEqual(['https://partner.example', 'http://localhost:3000']);

    const tooMany = await server.app.inject({
      method: 'PATCH',
      url: `/api/v1/api-keys/${id}`,
      headers: auth(server.adminKey),
      payload: { allowedOrigins: Array.from({ length: 21 }, (_, i) => `https://s${i}.example`) },
    });
    expect(tooMany.statusCode).toBe(400);

    const cleared = await server.app.inject({
      method: 'PATCH',
      url: `/api/v1/api-keys/${id}`,
      headers: auth(server.adminKey),
      payload: { allowedOrigins: [] },
    });
    expect(cleared.json().data.allowedOrigins).toEqual([]);
  });
});

describe('embed tokens (POST /api/v1/embed/sessions)', () => {
  it('needs a partner or internal key with the embed scope and an allowed origin', async () => {
    const publicKey = await server.key({ tier: 'public', scopes: ['embed'], allowedOrigins: [SITE] });
    const noScope = await server.key({ tier: 'partner', scopes: ['contracts'], allowedOrigins: [SITE] });
    const noOrigins = await server.key({ tier: 'partner', scopes: ['embed'] });
    const { key } = await partnerKey(server, [SITE]);
    const post = (k: string, payload: object) =>
      server.app.inject({ method: 'POST', url: '/api/v1/embed/sessions', headers: auth(k), payload });
    expect((await post(publicKey, { origin: SITE })).json().error.code).toBe('TIER_NOT_ALLOWED');
    expect((await post(noScope, { origin: SITE })).json().error.code).toBe('INSUFFICIENT_SCOPE');
    const none = await post(noOrigins, { origin: SITE });
    expect(none.statusCode).toBe(400);
    expect(none.json().error.details[0]).toMatchObject({
      field: 'origin',
      reason: expect.stringMatching(/allowedOrigins/),
    });
    expect((await post(key, { origin: 'https://other.example' })).json().error.details[0]).toMatchObject({
      field: 'origin',
    });
    expect((await post(key, { origin: SITE, ttlSeconds: 99999 })).json().error.details[0]).toMatchObject({
      field: 'ttlSeconds',
    });
    const ok = await post(key, { origin: 'https://PARTNER.example' });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().data).toMatchObject({ token: expect.stringMatching(/^svc_et_/), origin: SITE });
  });

  it("is accepted only by the wizard's calls, counts against its key, and stops at expiry or when the key is revoked", async () => {
    const { key, id } = await partnerKey(server, [SITE]);
    const token = await embedToken(server, key, SITE, 120);
    const ok = await server.app.inject({
      method: 'POST',
      url: '/api/v1/contracts/validate',
      headers: auth(token),
      payload: PLAN,
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(Number(ok.headers['x-ratelimit-limit'])).toBe(1000);
    // Wrong shares: the same details as generate_contract.
    const bad = await server.app.inject({
      method: 'POST',
      url: '/api/v1/contracts/validate',
      headers: auth(token),
      payload: { ...PLAN, beneficiaries: [PLAN.beneficiaries[0]] },
    });
    expect(bad.json().error.details).toEqual([expect.objectContaining({ field: 'beneficiaries' })]);
    expect(
      (await server.app.inject({ method: 'GET', url: '/api/v1/contracts/templates', headers: auth(token) })).statusCode,
    ).toBe(200);
    // Not key management, not webhooks, not another embed token.
    for (const [method, url] of [
      ['GET', '/api/v1/api-keys'],
      ['GET', '/api/v1/webhooks/subscriptions'],
      ['POST', '/api/v1/embed/sessions'],
    ] as const) {
      const res = await server.app.inject({
        method,
        url,
        headers: auth(token),
        ...(method === 'POST' ? { payload: { origin: SITE } } : {}),
      });
      expect(res.json().error.code, url).toBe('INSUFFICIENT_SCOPE');
    }
    // Not over MCP.
    const mcp = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { ...auth(token), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(mcp.status).toBe(401);
    clock.advance(121_000);
    const expired = await server.app.inject({
      method: 'GET',
      url: '/api/v1/contracts/templates',
      headers: auth(token),
    });
    expect(expired.statusCode).toBe(401);
    expect(expired.json().error.message).toMatch(/expired/);

    const fresh = await embedToken(server, key, SITE);
    await server.app.inject({ method: 'DELETE', url: `/api/v1/api-keys/${id}`, headers: auth(key) });
    const revoked = await server.app.inject({
      method: 'GET',
      url: '/api/v1/contracts/templates',
      headers: auth(fresh),
    });
    expect(revoked.json().error.code).toBe('API_KEY_INVALID');
    const forged = await server.app.inject({
      method: 'GET',
      url: '/api/v1/contracts/templates',
      headers: auth(`${fresh.slice(0, -4)}AAAA`),
    });
    expect(forged.json().error.code).toBe('API_KEY_INVALID');
  });
});

describe('the wizard page (GET /api/v1/embed/wizard, /api/embed/wizard)', () => {
  const page = (query: string) => server.app.inject({ method: 'GET', url: `/api/v1/embed/wizard?${query}` });

  it('with ?key=: frame-ancestors are the allowed origins, a strict CSP, and the key is not in the page', async () => {
    const { key } = await partnerKey(server, [SITE, 'https://second.example']);
    for (const url of [`/api/v1/embed/wizard?key=${key}&theme=dark`, `/api/embed/wizard?key=${key}&theme=dark`]) {
      const res = await server.app.inject({ method: 'GET', url });
      expect(res.statusCode, res.body).toBe(200);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain(`frame-ancestors ${SITE} https://second.example`);
      expect(csp).toMatch(/script-src 'self'(;|$)/);
      expect(csp).not.toContain('unsafe-inline');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.body).not.toContain(key);
      expect(res.body).toMatch(/"token":"svc_et_/);
      expect(res.headers['x-ratelimit-limit']).toBe('1000');
    }
    const one = await page(`key=${key}&origin=${encodeURIComponent('https://second.example')}`);
    expect(directives(one)).toContain('frame-ancestors https://second.example');
    const foreign = await page(`key=${key}&origin=${encodeURIComponent('https://evil.example')}`);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('a key without allowed origins gets a page saying what to configure, which cannot be framed', async () => {
    const key = await server.key({ tier: 'partner', scopes: ['embed'] });
    const res = await page(`key=${key}`);
    expect(res.statusCode).toBe(403);
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.body).toMatch(/allowedOrigins/);
    expect(res.body).not.toContain(key);
  });

  it('refuses keys that may not embed, and missing or unknown credentials', async () => {
    const pub = await server.key({ tier: 'public', scopes: ['embed'], allowedOrigins: [SITE] });
    expect((await page(`key=${pub}`)).statusCode).toBe(403);
    const none = await page('');
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="svc"');
    for (const q of ['key=svc_pt_nope', 'token=svc_et_nope']) {
      const res = await page(q);
      expect(res.statusCode).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="svc", error="invalid_token"');
    }
    for (const q of ['', 'key=svc_pt_nope'])
      expect((await page(q)).headers['content-security-policy']).toContain("frame-ancestors 'none'");
  });

  it('validates every query parameter with a clear error page, framable by the allowed origins', async () => {
    const { key } = await partnerKey(server, [SITE]);
    const cases: Array<[string, string]> = [
      ['theme=purple', 'theme'],
      ['blockchain=bitcoin', 'blockchain'],
      ['template=nope', 'template'],
      ['steps=chain,bogus', 'steps'],
      ['steps=review', 'steps'],
      ['steps=beneficiaries', 'steps'],
      ['logo=http%3A%2F%2Fx.example%2Fl.png', 'logo'],
      ['primaryColor=%23ff0000', 'primaryColor'],
      ['hideHeader=maybe', 'hideHeader'],
      ['callback=http%3A%2F%2Fpartner.example%2Fhook', 'callback'],
      ['callback=https%3A%2F%2Fother.example%2Fhook', 'callback'],
      ['theme=dark&theme=light', 'theme'],
      ['colour=red', 'colour'],
    ];
    for (const [q, field] of cases) {
      const res = await page(`key=${key}&${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.body, q).toContain(`<code>${field}</code>`);
      expect(res.headers['content-security-policy'], q).toContain(`frame-ancestors ${SITE}`);
      expect(res.body).not.toContain(key);
    }
    const fine = await page(
      `key=${key}&steps=beneficiaries,review&blockchain=ton&primaryColor=2563eb&hideFooter=true&logo=${encodeURIComponent('https://partner.example/logo.png')}`,
    );
    expect(fine.statusCode, fine.body).toBe(200);
    expect(fine.body).toContain('"steps":["beneficiaries","review","generate","result"]');
  });

  it("with ?token=: framed only by the token's origin; an expired token still explains itself to that origin", async () => {
    const { key } = await partnerKey(server, [SITE, 'https://second.example']);
    const token = await embedToken(server, key, SITE, 60);
    const res = await page(`token=${token}`);
    expect(res.statusCode).toBe(200);
    expect(directives(res)).toContain(`frame-ancestors ${SITE}`);
    const other = await page(`token=${token}&origin=${encodeURIComponent('https://second.example')}`);
    expect(other.statusCode).toBe(403);
    clock.advance(61_000);
    const expired = await page(`token=${token}`);
    expect(expired.statusCode).toBe(401);
    expect(directives(expired)).toContain(`frame-ancestors ${SITE}`);
    expect(expired.body).toMatch(/"code":"API_KEY_INVALID"/);
  });

  it("a ?token= load counts against the key's rate limit, like a ?key= load and the token's API calls", async () => {
    const { key, id } = await partnerKey(server, [SITE]);
    const token = await embedToken(server, key, SITE);
    const remaining = (res: { headers: Record<string, unknown> }) => Number(res.headers['x-ratelimit-remaining']);
    const first = await page(`token=${token}`);
    expect(first.statusCode).toBe(200);
    const start = remaining(first);
    expect(start).toBeGreaterThan(10);
    // One counter: the key's API calls, its ?key= pages and its tokens' pages.
    expect(
      remaining(await server.app.inject({ method: 'GET', url: '/api/v1/contracts/templates', headers: auth(key) })),
    ).toBe(start - 1);
    expect(remaining(await page(`key=${key}`))).toBe(start - 2);
    expect(remaining(await page(`token=${token}`))).toBe(start - 3);
    expect(
      remaining(await server.app.inject({ method: 'GET', url: '/api/v1/contracts/templates', headers: auth(token) })),
    ).toBe(start - 4);
    // Use up the rest of the budget (the key's account's: src/tools/invoke.ts counts it as acct:<account>:all).
    const limit = Number(first.headers['x-ratelimit-limit']);
    const ownerId = (await server.services.store.get<{ id: string; ownerId: string }>('api_keys', id))!.ownerId;
    for (let i = 0; i < start - 4; i++)
      await server.services.limiter.hitAll([{ key: `acct:${ownerId}:all`, limit }], clock.now());
    const limited = await page(`token=${token}`);
    expect(limited.statusCode).toBe(429);
    expect(limited.body).toMatch(/"code":"RATE_LIMIT_EXCEEDED"/);
    // Still framable by the token's origin, so the wizard can tell its parent.
    expect(directives(limited)).toContain(`frame-ancestors ${SITE}`);
    const call = await server.app.inject({ method: 'GET', url: '/api/v1/contracts/templates', headers: auth(token) });
    expect(call.statusCode).toBe(429);
    expect(call.json().error.code).toBe('RATE_LIMIT_EXCEEDED');
  });

  it('keeps key and token values out of the request log', () => {
    expect(redactUrl('/api/v1/embed/wizard?key=svc_pt_secret&theme=dark')).toBe(
      '/api/v1/embed/wizard?key=[redacted]&theme=dark',
    );
    expect(redactUrl('/api/embed/wizard?theme=dark&token=svc_et_x.y')).toBe(
      '/api/embed/wizard?theme=dark&token=[redacted]',
    );
  });
});

describe('the SDK and the wizard files', () => {
  it(`the SDK stays within its budget of ${SDK_BUDGET_GZIP_BYTES} bytes gzipped`, async () => {
    const files = await bundleWizard();
    const sdk = files['sdk.js']!;
    expect(sdk.gzipBytes).toBe(gzipSync(sdk.contents, { level: 9 }).length);
    expect(sdk.gzipBytes).toBeLessThanOrEqual(SDK_BUDGET_GZIP_BYTES);
    expect(Buffer.from(sdk.contents).toString()).toContain('SvcWizard');
  });

  it('serves sdk.js minified with an ETag, cache headers and 304 on revalidation', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/v1/embed/sdk.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toMatch(/max-age=\d+/);
    expect(res.body.split('\n').length).toBeLessThan(5);
    const etag = String(res.headers.etag);
    const again = await server.app.inject({
      method: 'GET',
      url: '/api/v1/embed/sdk.js',
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    const css = await server.app.inject({ method: 'GET', url: '/api/v1/embed/wizard.css?v=1' });
    expect(css.headers['cache-control']).toContain('immutable');
  });
});

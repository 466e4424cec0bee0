import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionHeaders, type TestSession } from '../support/session.js';
import { startCreditsHarness, type CreditsHarness } from './harness.js';

// The credit routes over REST: session + CSRF, both mounts, validation in the envelope; grant_credits by an internal key.

let h: CreditsHarness;
let user: TestSession;

beforeAll(async () => {
  h = await startCreditsHarness();
  user = await h.user();
});
afterAll(async () => {
  await h?.close();
});

const GOOD_PURCHASE = {
  packType: 'starter',
  successUrl: 'https://app.example/ok',
  cancelUrl: 'https://app.example/no',
};
const GOOD_RELOAD = { enabled: true, packType: 'starter', thresholds: [10], maxMonthlySpend: 1000 };
const ROUTES = [
  { method: 'GET' as const, sub: 'packs' },
  { method: 'GET' as const, sub: 'wallet' },
  { method: 'POST' as const, sub: 'purchase', body: GOOD_PURCHASE },
  { method: 'PUT' as const, sub: 'auto-reload', body: GOOD_RELOAD },
  { method: 'GET' as const, sub: 'history' },
];
const MOUNTS = ['/api/svcloom/credits', '/api/v1/svcloom/credits'];

function call(method: 'GET' | 'POST' | 'PUT', url: string, headers: Record<string, string>, payload?: unknown) {
  return h.server.app.inject({
    method,
    url,
    headers,
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
}

describe('credit routes', () => {
  for (const mount of MOUNTS) {
    for (const r of ROUTES) {
      it(`${r.method} ${mount}/${r.sub}: 401 without a session, 2xx with one`, async () => {
        const anon = await call(r.method, `${mount}/${r.sub}`, {}, r.body);
        expect(anon.statusCode).toBe(401);
        expect(anon.json()).toMatchObject({
          success: false,
          error: { code: 'UNAUTHORIZED' },
          meta: { requestId: anon.headers['x-request-id'] },
        });
        // An API key is not a user session.
        const keyed = await call(
          r.method,
          `${mount}/${r.sub}`,
          { authorization: `Bearer ${h.server.adminKey}` },
          r.body,
        );
        expect(keyed.statusCode).toBe(401);
        const ok = await call(r.method, `${mount}/${r.sub}`, sessionHeaders(user), r.body);
        expect(ok.statusCode, ok.body).toBe(r.sub === 'purchase' ? 201 : 200);
        expect(ok.json().success).toBe(true);
      });
    }
    for (const r of ROUTES.filter((x) => x.method !== 'GET')) {
      it(`${r.method} ${mount}/${r.sub}: 403 CSRF_FAILED without the CSRF token, nothing done`, async () => {
        const sessionsBefore = h.standin.calls('POST /v1/checkout/sessions').length;
        const res = await call(r.method, `${mount}/${r.sub}`, sessionHeaders(user, { csrf: false }), r.body);
        expect(res.statusCode).toBe(403);
        expect(res.json()).toMatchObject({ success: false, error: { code: 'CSRF_FAILED' } });
        const wrong = await call(
          r.method,
          `${mount}/${r.sub}`,
          { ...sessionHeaders(user), 'x-csrf-token': 'not-the-token' },
          r.body,
        );
        expect(wrong.statusCode).toBe(403);
        expect(h.standin.calls('POST /v1/checkout/sessions').length).toBe(sessionsBefore);
      });
    }
  }

  it.each([
    ['unknown pack', { ...GOOD_PURCHASE, packType: 'platinum' }, 'packType'],
    ['http success URL', { ...GOOD_PURCHASE, successUrl: 'http://app.example/ok' }, 'successUrl'],
    ['javascript cancel URL', { ...GOOD_PURCHASE, cancelUrl: 'javascript:alert(1)' }, 'cancelUrl'],
    ['relative URL', { ...GOOD_PURCHASE, successUrl: '/ok' }, 'successUrl'],
    ['URL with credentials', { ...GOOD_PURCHASE, successUrl: 'https://u:p@app.example/ok' }, 'successUrl'],
    ['missing packType', { successUrl: GOOD_PURCHASE.successUrl, cancelUrl: GOOD_PURCHASE.cancelUrl }, 'packType'],
    ['unknown field', { ...GOOD_PURCHASE, credits: 1000000 }, 'credits'],
  ])(
    'POST /purchase refuses a bad body (%s): 400 naming the field, no checkout created',
    async (_name, body, field) => {
      const before = h.standin.calls('POST /v1/checkout/sessions').length;
      const res = await call('POST', '/api/svcloom/credits/purchase', sessionHeaders(user), body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
      expect(res.json().error.details.map((d: { field: string }) => d.field)).toContain(field);
      expect(h.standin.calls('POST /v1/checkout/sessions').length).toBe(before);
    },
  );

  it.each([
    ['negative threshold', { ...GOOD_RELOAD, thresholds: [-5] }, 'thresholds.0'],
    ['fractional threshold', { ...GOOD_RELOAD, thresholds: [1.5] }, 'thresholds.0'],
    ['unknown pack', { ...GOOD_RELOAD, packType: 'platinum' }, 'packType'],
    ['negative monthly cap', { ...GOOD_RELOAD, maxMonthlySpend: -1 }, 'maxMonthlySpend'],
    ['cap below one pack', { ...GOOD_RELOAD, maxMonthlySpend: 1 }, 'maxMonthlySpend'],
    ['enabled without thresholds', { ...GOOD_RELOAD, thresholds: [] }, 'thresholds'],
    ['enabled not a boolean', { ...GOOD_RELOAD, enabled: 'yes' }, 'enabled'],
    ['missing fields', { enabled: true }, 'packType'],
  ])(
    'PUT /auto-reload refuses a bad body (%s): 400 naming the field, settings unchanged',
    async (_name, body, field) => {
      const before = await h.wallet(user.accountId);
      const res = await call('PUT', '/api/v1/svcloom/credits/auto-reload', sessionHeaders(user), body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR' } });
      expect(res.json().error.details.map((d: { field: string }) => d.field)).toContain(field);
      expect((await h.wallet(user.accountId))?.autoReload).toEqual(before?.autoReload);
    },
  );

  it('quotes an unknown pack as JSON in its refusal, never raw, on both routes', async () => {
    // Before, the caller's text went into the reason between bare quotes: a line break or escape came back as is.
    const packType = 'gold"\n\u001b[2J';
    const reasons = [
      await call('POST', '/api/svcloom/credits/purchase', sessionHeaders(user), { ...GOOD_PURCHASE, packType }),
      await call('PUT', '/api/v1/svcloom/credits/auto-reload', sessionHeaders(user), { ...GOOD_RELOAD, packType }),
    ].map((res) => res.json().error.details.find((d: { field: string }) => d.field === 'packType')?.reason);
    for (const reason of reasons) {
      expect(reason).toBe(`no pack ${JSON.stringify(packType)}; choose one of starter, standard, large`);
      expect(reason).not.toMatch(/[\n\u001b]/);
    }
  });

  it('GET /packs shows the packs and what every paid action costs', async () => {
    const res = await call('GET', '/api/svcloom/credits/packs', sessionHeaders(user));
    const data = res.json().data;
    expect(data.packs[0]).toMatchObject({ type: 'starter', credits: 100, price: 500, currency: 'usd' });
    expect(data.prices.map((p: { action: string }) => p.action)).toEqual([
      'chat_message',
      'media_inference',
      'voice',
      'avatar',
    ]);
    expect(data.paymentsEnabled).toBe(true);
  });

  it("GET /wallet and GET /history show the account's own ledger, cursor-paged, newest first", async () => {
    const other = await h.user();
    for (let i = 1; i <= 25; i++) {
      const g = await call(
        'POST',
        `/api/v1/accounts/${other.accountId}/credits`,
        { authorization: `Bearer ${h.server.adminKey}` },
        { amount: i, reason: `grant ${i}` },
      );
      expect(g.statusCode).toBe(201);
    }
    const wallet = await call('GET', '/api/svcloom/credits/wallet', sessionHeaders(other));
    expect(wallet.json().data).toMatchObject({
      accountId: other.accountId,
      balance: 325,
      entries: 25,
      totals: { granted: 325 },
    });
    const first = await call('GET', '/api/svcloom/credits/history?limit=20', sessionHeaders(other));
    const page1 = first.json();
    expect(page1.data).toHaveLength(20);
    expect(page1.data[0]).toMatchObject({ seq: 25, kind: 'grant', amount: 25, balanceAfter: 325, reason: 'grant 25' });
    expect(page1.meta.pagination).toMatchObject({ hasMore: true });
    const second = await call(
      'GET',
      `/api/svcloom/credits/history?limit=20&cursor=${encodeURIComponent(page1.meta.pagination.nextCursor)}`,
      sessionHeaders(other),
    );
    expect(second.json().data.map((e: { seq: number }) => e.seq)).toEqual([5, 4, 3, 2, 1]);
    expect(second.json().meta.pagination).toMatchObject({ hasMore: false, nextCursor: null });
    // Another account's cursor is refused; another user sees none of these entries.
    const foreign = await call(
      'GET',
      `/api/svcloom/credits/history?cursor=${encodeURIComponent(page1.meta.pagination.nextCursor)}`,
      sessionHeaders(user),
    );
    expect(foreign.statusCode).toBe(400);
    const theirs = new Set([...page1.data, ...second.json().data].map((e: { id: string }) => e.id));
    expect(theirs.size).toBe(25);
    const mine = await call('GET', '/api/svcloom/credits/history?limit=100', sessionHeaders(user));
    expect(mine.statusCode).toBe(200);
    expect(mine.json().data.filter((e: { id: string }) => theirs.has(e.id))).toEqual([]);
  });
});

describe('grant_credits (internal key)', () => {
  it('grants with a reason, replays an idempotency key, refuses non-operators, unknown accounts and overdrafts', async () => {
    const target = await h.user();
    const url = `/api/v1/accounts/${target.accountId}/credits`;
    const admin = { authorization: `Bearer ${h.server.adminKey}` };
    const first = await call('POST', url, admin, { amount: 40, reason: 'support ticket 12', idempotencyKey: 't12' });
    expect(first.statusCode).toBe(201);
    expect(first.json().data).toMatchObject({
      balance: 40,
      replayed: false,
      entry: { kind: 'grant', amount: 40, reason: 'support ticket 12' },
    });
    const again = await call('POST', url, admin, { amount: 40, reason: 'support ticket 12', idempotencyKey: 't12' });
    expect(again.json().data).toMatchObject({ balance: 40, replayed: true, entry: { id: first.json().data.entry.id } });
    const partnerKey = await h.server.key({ tier: 'partner', scopes: ['users'], ownerId: await h.server.account() });
    expect(
      (await call('POST', url, { authorization: `Bearer ${partnerKey}` }, { amount: 1, reason: 'x' })).statusCode,
    ).toBe(403);
    expect((await call('POST', url, sessionHeaders(target), { amount: 1, reason: 'x' })).statusCode).toBe(401);
    expect(
      (await call('POST', '/api/v1/accounts/acct_missing/credits', admin, { amount: 1, reason: 'x' })).statusCode,
    ).toBe(404);
    for (const bad of [
      { amount: 0, reason: 'x' },
      { amount: 1.5, reason: 'x' },
      { amount: 5 },
      { amount: 5, reason: '   ' },
    ]) {
      const res = await call('POST', url, admin, bad);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('VALIDATION_ERROR');
    }
    // The reason and the key are printed back (history, an operator's terminal): no escapes, line breaks or bidi
    // controls that could forge what they show.
    for (const forged of [
      'refund\u001b[2K\rgranted by the CEO',
      'goodwill\nsecond line',
      'tab\there',
      'credit\u202eEVIL',
      'csi\u009b31m',
      'mark\u200f',
    ]) {
      for (const [field, bad] of [
        ['reason', { amount: 5, reason: forged }],
        ['idempotencyKey', { amount: 5, reason: 'ok', idempotencyKey: forged }],
      ] as const) {
        const res = await call('POST', url, admin, bad);
        expect(res.statusCode, JSON.stringify(bad)).toBe(400);
        expect(res.json().error).toMatchObject({
          code: 'VALIDATION_ERROR',
          details: [{ field, reason: expect.stringMatching(/control characters or bidirectional controls/) }],
        });
      }
    }
    // Joiners and no-break spaces, which scripts and French need, are text.
    const fine = await call('POST', url, admin, {
      amount: 1,
      reason: 'geste commercial\u00a0: merci \u{1F468}\u200d\u{1F469}',
    });
    expect(fine.statusCode).toBe(201);
    await call('POST', url, admin, { amount: -1, reason: 'undo the joiner test' });
    const overdraft = await call('POST', url, admin, { amount: -41, reason: 'clawback' });
    expect(overdraft.statusCode).toBe(402);
    expect(overdraft.json()).toMatchObject({
      success: false,
      error: { code: 'INSUFFICIENT_CREDITS', details: [{ required: 41, available: 40 }] },
    });
    // The operator is told what the adjustment would do, not to ask an operator for a grant.
    expect(overdraft.json().error.message).toBe(
      'Taking back 41 credits would leave the balance below zero: the wallet holds 40. Take back at most 40.',
    );
    expect(await h.checkBalance(target.accountId)).toBe(40);
  });
});

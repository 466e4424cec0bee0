import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { settleReloads } from '../../src/credits/autoreload.js';
import { debitCredits } from '../../src/credits/spend.js';
import { sessionHeaders, type TestSession } from '../support/session.js';
import { catalogueOf } from '../../src/credits/catalogue.js';
import { startCreditsHarness, type CreditsHarness } from './harness.js';

// Automatic reloads against the Stripe stand-in (off-session PaymentIntents with the card saved at checkout).

let h: CreditsHarness;
const COOLDOWN_MS = 61_000;

beforeAll(async () => {
  h = await startCreditsHarness();
});
afterEach(async () => {
  await settleReloads();
  h.standin.chargeOutcome = 'succeed';
});
afterAll(async () => {
  await h?.close();
});

const deps = () => ({
  store: h.server.services.store,
  clock: h.clock,
  config: h.server.services.config,
  log: h.server.services.log,
});
let keys = 0;
const spend = (accountId: string, credits: number) =>
  debitCredits(deps(), accountId, {
    credits,
    idempotencyKey: `k${++keys}`,
    reference: { type: 'chat_message', id: `m${keys}` },
    action: 'chat_message',
  });
const reloadCalls = (accountId: string) =>
  h.standin.calls('POST /v1/payment_intents').filter((r) => r.body.metadata?.svcAccountId === accountId);

async function setAutoReload(user: TestSession, body: Record<string, unknown>) {
  const res = await h.server.app.inject({
    method: 'PUT',
    url: '/api/v1/svcloom/credits/auto-reload',
    headers: sessionHeaders(user),
    payload: body,
  });
  if (res.statusCode !== 200) throw new Error(`auto-reload answered ${res.statusCode}: ${res.body}`);
  return res.json().data;
}

/** A user who bought the starter pack (100 credits, card saved) and turned auto-reload on. */
async function reloadingUser(settings: { thresholds?: number[]; maxMonthlySpend?: number } = {}): Promise<TestSession> {
  const user = await h.user();
  await h.buyAndPay(user);
  await setAutoReload(user, {
    enabled: true,
    packType: 'starter',
    thresholds: [20],
    maxMonthlySpend: 5000,
    ...settings,
  });
  return user;
}

describe('automatic reload', () => {
  it('20 concurrent debits crossing the threshold start exactly one reload, credited once', async () => {
    const user = await reloadingUser();
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => spend(user.accountId, 5)));
    expect(outcomes.every((o) => o.status === 'fulfilled')).toBe(true);
    await settleReloads();
    expect(reloadCalls(user.accountId)).toHaveLength(1);
    expect(await h.checkBalance(user.accountId)).toBe(100);
    const reloads = (await h.entries(user.accountId)).filter((e) => e.reference.type === 'auto_reload');
    expect(reloads).toHaveLength(1);
    expect(reloads[0]).toMatchObject({ kind: 'purchase', amount: 100 });
    const initiated = await h.events(user.accountId, 'payment.initiated');
    expect(initiated.filter((e) => e.data.kind === 'auto_reload')).toHaveLength(1);
    const completed = (await h.events(user.accountId, 'payment.completed')).filter(
      (e) => e.data.kind === 'auto_reload',
    );
    expect(completed).toHaveLength(1);
    const low = await h.events(user.accountId, 'credits.low_balance');
    expect(low).toHaveLength(1);
    expect(low[0]!.data).toMatchObject({ threshold: 20, autoReload: 'started' });
    const wallet = await h.wallet(user.accountId);
    expect(wallet!.autoReload).toMatchObject({ inFlight: null, consecutiveFailures: 0, monthSpend: 500 });
  });

  it("the monthly cap holds: no reload once the month's spend would pass it, and it resets next month", async () => {
    const user = await reloadingUser({ maxMonthlySpend: 1000 });
    await spend(user.accountId, 85); // 15
    await settleReloads();
    h.clock.advance(COOLDOWN_MS);
    await spend(user.accountId, 100); // 15
    await settleReloads();
    expect(reloadCalls(user.accountId)).toHaveLength(2);
    h.clock.advance(COOLDOWN_MS);
    await spend(user.accountId, 100); // 15: a third pack would make 1500 > 1000
    await settleReloads();
    expect(reloadCalls(user.accountId)).toHaveLength(2);
    expect(await h.checkBalance(user.accountId)).toBe(15);
    const lastNotice = (await h.events(user.accountId, 'credits.low_balance')).at(-1)!;
    expect(lastNotice.data.autoReload).toBe('monthly_cap_reached');
    const wallet = await h.server.app.inject({
      method: 'GET',
      url: '/api/svcloom/credits/wallet',
      headers: sessionHeaders(user),
    });
    expect(wallet.json().data.autoReload).toMatchObject({ spentThisMonth: 1000, maxMonthlySpend: 1000, enabled: true });
    // Next month the cap starts again.
    const now = new Date(h.clock.ms);
    h.clock.ms = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 1);
    await spend(user.accountId, 1);
    await settleReloads();
    expect(reloadCalls(user.accountId)).toHaveLength(3);
    expect(await h.checkBalance(user.accountId)).toBe(114);
  });

  it('3 failed reloads in a row turn auto-reload off and a payment.failed event says why', async () => {
    const user = await reloadingUser({ thresholds: [50] });
    h.standin.chargeOutcome = 'decline';
    await spend(user.accountId, 60); // 40
    await settleReloads();
    // Within the cooldown nothing is tried again.
    await spend(user.accountId, 1);
    await settleReloads();
    expect(reloadCalls(user.accountId)).toHaveLength(1);
    for (let i = 0; i < 2; i++) {
      h.clock.advance(COOLDOWN_MS);
      await spend(user.accountId, 1);
      await settleReloads();
    }
    expect(reloadCalls(user.accountId)).toHaveLength(3);
    const failed = (await h.events(user.accountId, 'payment.failed')).filter((e) => e.data.kind === 'auto_reload');
    expect(failed.map((e) => e.data.consecutiveFailures)).toEqual([1, 2, 3]);
    expect(failed.map((e) => e.data.autoReloadDisabled)).toEqual([false, false, true]);
    expect(failed[2]!.data.disabledReason).toMatch(/3 failed reloads.*card_declined/);
    const wallet = await h.wallet(user.accountId);
    expect(wallet!.autoReload).toMatchObject({ enabled: false, consecutiveFailures: 3, inFlight: null, monthSpend: 0 });
    // Off: no more attempts.
    h.clock.advance(COOLDOWN_MS);
    await spend(user.accountId, 1);
    await settleReloads();
    expect(reloadCalls(user.accountId)).toHaveLength(3);
    expect(await h.checkBalance(user.accountId)).toBe(36);
    // Turning it on again clears the failures.
    const view = await setAutoReload(user, {
      enabled: true,
      packType: 'starter',
      thresholds: [50],
      maxMonthlySpend: 5000,
    });
    expect(view.autoReload).toMatchObject({ enabled: true, consecutiveFailures: 0, disabledReason: null });
  });

  it('a reload whose outcome is unknown stays the only one in flight, then resumes with the same idempotency key', async () => {
    const user = await reloadingUser();
    h.standin.chargeOutcome = 'server_error';
    await spend(user.accountId, 90); // 10
    await settleReloads();
    const first = reloadCalls(user.accountId);
    expect(first.length).toBeGreaterThanOrEqual(1); // the SDK retries a 500 with the same key
    const key = first[0]!.idempotencyKey;
    expect(new Set(first.map((r) => r.idempotencyKey))).toEqual(new Set([key]));
    expect((await h.wallet(user.accountId))!.autoReload.inFlight).toMatchObject({ reloadId: key });
    h.standin.chargeOutcome = 'succeed';
    h.clock.advance(COOLDOWN_MS);
    await spend(user.accountId, 1);
    await settleReloads();
    expect(reloadCalls(user.accountId)).toHaveLength(first.length); // still in flight: nothing new
    h.clock.advance(catalogueOf(h.server.services.config).autoReload.staleAfterSeconds * 1000);
    await spend(user.accountId, 1);
    await settleReloads();
    const all = reloadCalls(user.accountId);
    expect(all.length).toBe(first.length + 1);
    expect(all.at(-1)!.idempotencyKey).toBe(key);
    expect((await h.entries(user.accountId)).filter((e) => e.reference.type === 'auto_reload')).toHaveLength(1);
    expect(await h.checkBalance(user.accountId)).toBe(108);
  });

  it('a payment_intent.succeeded webhook settles a reload the charge call could not', async () => {
    const user = await reloadingUser();
    h.standin.chargeOutcome = 'server_error';
    await spend(user.accountId, 90);
    await settleReloads();
    const piId = [...h.standin.paymentIntents.values()]
      .filter((p) => p.metadata?.svcAccountId === user.accountId && p.metadata?.svcPurchaseId?.startsWith('rld_'))
      .at(-1)!.id;
    const pi = { ...h.standin.paymentIntents.get(piId)!, status: 'succeeded' };
    const event = h.standin.event('payment_intent.succeeded', pi);
    await h.deliver(event);
    await h.deliver(event);
    expect(await h.checkBalance(user.accountId)).toBe(110);
    expect((await h.wallet(user.accountId))!.autoReload.inFlight).toBeNull();
  });

  it('needs a saved card: without a completed checkout nothing is charged', async () => {
    const user = await h.user();
    await h.server.app.inject({
      method: 'POST',
      url: `/api/v1/accounts/${user.accountId}/credits`,
      headers: { authorization: `Bearer ${h.server.adminKey}` },
      payload: { amount: 30, reason: 'trial' },
    });
    const view = await setAutoReload(user, {
      enabled: true,
      packType: 'starter',
      thresholds: [20],
      maxMonthlySpend: 1000,
    });
    expect(view.autoReload.paymentMethodSaved).toBe(false);
    await spend(user.accountId, 15);
    await settleReloads();
    expect(reloadCalls(user.accountId)).toHaveLength(0);
    expect((await h.events(user.accountId, 'credits.low_balance'))[0]!.data.autoReload).toBe('no_payment_method');
  });
});

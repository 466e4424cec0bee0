import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers.js';
import { dropSchemas, randomSchema, testDatabaseUrl } from '../support/engines.js';
import { registerUser, sessionHeaders, signIn, type TestSession } from '../support/session.js';
import { EVENTS, type EventRecord } from '../../src/events/events.js';
import { completeDueVerifications, MEMOIR_HEIR_PLANS, type HeirPlanRecord } from '../../src/memoir/heirs.js';
import { chainOf } from '../../src/memoir/verification.js';

// The waiting period between a reported death and a memoir opening to heirs: a trigger reported by the account's
// watcher key starts a verification; any sign of life of the owner (a sign-in, a call with a session or another
// key, a check-in) ends it; the reporter's own calls do not; its end sends verification.complete exactly once.

const DAY = 86_400_000;
let offset = 0;
const clock = { now: () => new Date(Date.now() + offset) };
const EVM = (n: number) => `0x${String(n).repeat(40).slice(0, 40)}`;

let server: TestServer;
let owner: TestSession;
let stranger: TestSession;
let watcher: string;
let otherKey: string;

const plan = () => ({
  blockchain: 'evm',
  ownerAddress: EVM(1),
  beneficiaries: [
    { name: 'Ana', address: EVM(2), percentage: 60 },
    { name: 'Rui', address: EVM(3), percentage: 40 },
  ],
  deadMansSwitch: { enabled: true, intervalDays: 180 },
});

async function call(
  who: TestSession | string | undefined,
  method: string,
  url: string,
  payload?: unknown,
): Promise<{ status: number; body: ReturnType<typeof JSON.parse> }> {
  const headers =
    typeof who === 'string' ? { authorization: `Bearer ${who}` } : who ? sessionHeaders(who) : ({} as object);
  const res = await server.app.inject({
    method: method as 'GET',
    url,
    headers: headers as Record<string, string>,
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
  return { status: res.statusCode, body: res.json() };
}

async function linkPlan(): Promise<string> {
  const res = await call(owner, 'POST', '/api/v1/svcloom/heirs/plans', { plan: plan(), heirAccess: { enabled: true } });
  expect(res.status).toBe(201);
  return res.body.data.plan.id as string;
}

const trigger = (planId: string) =>
  call(watcher, 'POST', `/api/v1/svcloom/heirs/plans/${planId}/events`, { type: 'deadman.triggered' });

async function planOf(planId: string): Promise<HeirPlanRecord> {
  return (await server.services.store.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, planId))!;
}

async function verificationEvents(planId: string): Promise<Array<[string, unknown]>> {
  return (await server.services.store.findBy<EventRecord>(EVENTS, 'ownerId', owner.accountId))
    .filter((e) => e.type.startsWith('verification.') && e.data.planId === planId)
    .map((e) => [e.type, e.data.reason]);
}

describe.each(['lowdb', 'postgres'] as const)('verification before a memoir opens (%s)', (engine) => {
  let schema: string | undefined;
  beforeAll(async () => {
    offset = 0;
    schema = engine === 'postgres' ? randomSchema('svc_verify') : undefined;
    const sessions = { ttlSeconds: 60 * 24 * 3600, maxSeconds: 90 * 24 * 3600 };
    const config = schema ? { databaseUrl: await testDatabaseUrl(), databaseSchema: schema, sessions } : { sessions };
    server = await startTestServer({ clock, config });
    owner = await registerUser(server.app, { name: 'Rose' });
    stranger = await registerUser(server.app);
    watcher = await server.key({ ownerId: owner.accountId, tier: 'public', scopes: ['contracts'] });
    otherKey = await server.key({ ownerId: owner.accountId, tier: 'public', scopes: ['contracts'] });
  });
  afterAll(async () => {
    await server?.close();
    if (schema) await dropSchemas(await testDatabaseUrl(), schema);
  });

  it("the reporter's own calls are no sign of life; the owner's session is, and closes the shares again", async () => {
    offset = 0;
    const planId = await linkPlan();
    const fired = await trigger(planId);
    expect(fired.body.data).toMatchObject({ recorded: true, sharesScheduled: 2, plan: { state: 'verifying' } });
    // The watcher goes on reading and reporting with its key: still waiting.
    expect((await call(watcher, 'GET', '/api/v1/jurisdictions')).status).toBe(200);
    expect((await trigger(planId)).body.data.recorded).toBe(false);
    expect((await planOf(planId)).verification).toMatchObject({
      state: 'waiting',
      reporter: expect.stringMatching(/^key:/),
    });

    offset = 3 * DAY;
    expect((await call(owner, 'GET', '/api/v1/svcloom/heirs/plans')).status).toBe(200);
    const after = await planOf(planId);
    expect(after).toMatchObject({
      state: 'armed',
      triggeredAt: null,
      verification: { state: 'failed', failedBy: 'session' },
    });
    const shares = (await call(owner, 'GET', `/api/v1/svcloom/heirs/shares?planId=${planId}`)).body.data;
    expect(shares.map((s: { state: string }) => s.state)).toEqual(['pending', 'pending']);
    expect(await verificationEvents(planId)).toEqual([
      ['verification.started', undefined],
      ['verification.failed', 'session'],
    ]);
    // Nothing opens when the period would have ended.
    offset = 8 * DAY;
    expect(await completeDueVerifications(server.services.store, clock)).toBe(0);
    expect((await planOf(planId)).state).toBe('armed');
  });

  it("a call with another of the account's keys ends it", async () => {
    offset = 10 * DAY;
    const planId = await linkPlan();
    await trigger(planId);
    offset = 11 * DAY;
    expect((await call(otherKey, 'GET', '/api/v1/jurisdictions')).status).toBe(200);
    expect((await planOf(planId)).verification).toMatchObject({ state: 'failed', failedBy: 'key' });
  });

  it('a sign-in ends it', async () => {
    offset = 20 * DAY;
    const planId = await linkPlan();
    await trigger(planId);
    offset = 21 * DAY;
    // A sign-in (signIn fails the test unless it answers 200).
    await signIn(server.app, owner.email, owner.password);
    expect((await planOf(planId)).verification).toMatchObject({ state: 'failed', failedBy: 'sign-in' });
  });

  it("a sign-in ends it even when the owner's own session reported the trigger", async () => {
    offset = 25 * DAY;
    const planId = await linkPlan();
    const fired = await call(owner, 'POST', `/api/v1/svcloom/heirs/plans/${planId}/events`, {
      type: 'deadman.triggered',
    });
    expect(fired.body.data.plan.state).toBe('verifying');
    expect((await planOf(planId)).verification?.reporter).toMatch(/^session:ses_/);
    // The reporting session's own calls are no sign of life...
    expect((await call(owner, 'GET', '/api/v1/svcloom/heirs/plans')).status).toBe(200);
    expect((await planOf(planId)).verification?.state).toBe('waiting');
    // ...but the password proven afresh is one.
    offset = 26 * DAY;
    // A sign-in (signIn fails the test unless it answers 200).
    await signIn(server.app, owner.email, owner.password);
    expect(await planOf(planId)).toMatchObject({
      state: 'armed',
      verification: { state: 'failed', failedBy: 'sign-in' },
    });
  });

  it("a call with another of the user's sessions ends it: only the reporting session is the reporter", async () => {
    offset = 27 * DAY;
    // The owner's phone, signed in before anything was reported.
    const phone = await signIn(server.app, owner.email, owner.password);
    const planId = await linkPlan();
    await call(owner, 'POST', `/api/v1/svcloom/heirs/plans/${planId}/events`, { type: 'deadman.triggered' });
    expect((await call(owner, 'GET', '/api/v1/svcloom/heirs/plans')).status).toBe(200);
    expect((await planOf(planId)).verification?.state).toBe('waiting');
    offset = 28 * DAY;
    expect((await call(phone, 'GET', '/api/v1/svcloom/heirs/shares')).status).toBe(200);
    expect(await planOf(planId)).toMatchObject({
      state: 'armed',
      verification: { state: 'failed', failedBy: 'session' },
    });
  });

  it('with no sign of life, the period ends: verification.complete once, even with two sweeps at once', async () => {
    offset = 30 * DAY;
    const planId = await linkPlan();
    await trigger(planId);
    offset = 37 * DAY - 60_000;
    expect(await completeDueVerifications(server.services.store, clock)).toBe(0);
    offset = 37 * DAY + 60_000;
    const settled = await Promise.all([
      completeDueVerifications(server.services.store, clock),
      completeDueVerifications(server.services.store, clock),
    ]);
    expect(settled[0]! + settled[1]!).toBe(1);
    expect(await completeDueVerifications(server.services.store, clock)).toBe(0);
    expect(await planOf(planId)).toMatchObject({ state: 'triggered', verification: { state: 'complete' } });
    expect(await verificationEvents(planId)).toEqual([
      ['verification.started', undefined],
      ['verification.complete', undefined],
    ]);
    // The owner coming back after the end cannot undo it by a call: the shares stay open.
    expect((await call(owner, 'GET', '/api/v1/svcloom/heirs/plans')).status).toBe(200);
    expect((await planOf(planId)).state).toBe('triggered');
  });

  it('another account cannot report; a plan watched on chain refuses reports', async () => {
    offset = 40 * DAY;
    const planId = await linkPlan();
    expect(
      (await call(stranger, 'POST', `/api/v1/svcloom/heirs/plans/${planId}/events`, { type: 'deadman.triggered' }))
        .status,
    ).toBe(404);
    await server.services.store.put(MEMOIR_HEIR_PLANS, { ...(await planOf(planId)), watched: true });
    const refused = await trigger(planId);
    expect({ status: refused.status, code: refused.body.error.code }).toEqual({ status: 409, code: 'CONFLICT' });
    expect(refused.body.error.message).toContain('watched on chain');
    expect((await planOf(planId)).state).toBe('armed');
  });

  it('a plan stored with a waiting period under 7 days waits 7', async () => {
    offset = 50 * DAY;
    const planId = await linkPlan();
    const stored = await planOf(planId);
    await server.services.store.put(MEMOIR_HEIR_PLANS, {
      ...stored,
      heirAccess: { ...stored.heirAccess, openAfterDays: 0 },
    });
    const fired = await trigger(planId);
    const { startedAt, endsAt } = fired.body.data.plan.verification;
    expect(Date.parse(endsAt) - Date.parse(startedAt)).toBe(7 * DAY);
    expect(fired.body.data.plan.heirAccess.openAfterDays).toBe(7);
    offset = 0;
  });
});

describe('a verification opened by the chain', () => {
  it('names its contract from the reporter, whatever colons the address holds', () => {
    expect(chainOf({ reporter: `chain:31337:${EVM(7)}` })).toEqual({ network: '31337', contractAddress: EVM(7) });
    expect(
      chainOf({ reporter: 'chain:ton-testnet:0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8' }),
    ).toEqual({
      network: 'ton-testnet',
      contractAddress: '0:83dfd552e63729b472fcbcc8c45ebcc6691702558b68ec7527e1ba403a0f31a8',
    });
    expect(chainOf({ reporter: 'key:key_01' })).toBeNull();
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers.js';
import { dropSchemas, randomSchema, testDatabaseUrl } from '../support/engines.js';
import { mailTo, registerUser, sessionHeaders, uniqueEmail, type TestSession } from '../support/session.js';
import { grant } from './support.js';
import { EVENTS, type EventRecord } from '../../src/events/events.js';
import { GRANTS, type GrantRecord } from '../../src/accounts/grants.js';
import { grantedStore, TenancyError } from '../../src/accounts/tenancy.js';
import { MEMOIR_CHAT, MEMOIR_JOURNAL } from '../../src/memoir/records.js';
import { completeDueVerifications } from '../../src/memoir/heirs.js';
import { renderMail } from '../../src/mail/templates/index.js';

// Heirs' access to a memoir: a plan linked to the memoir, shares
// claimed by heirs with their codes, opened only when a reported
// deadman.triggered is followed by a waiting period with no sign of life of
// the owner, read-only, expiring, revocable. On the embedded store and on
// PostgreSQL.

const DAY = 86_400_000;
let offset = 0;
const clock = { now: () => new Date(Date.now() + offset) };

let server: TestServer;
let owner: TestSession;
let ana: TestSession;
let rui: TestSession;
let stranger: TestSession;
let anaEmail: string;

const EVM = (n: number) => `0x${String(n).repeat(40).slice(0, 40)}`;

async function call(
  session: TestSession | undefined,
  method: string,
  url: string,
  payload?: unknown,
  headers: Record<string, string> = {},
) {
  const res = await server.app.inject({
    method: method as 'GET',
    url,
    headers: { ...(session ? sessionHeaders(session) : {}), ...headers },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
  return { status: res.statusCode, body: res.json(), raw: res.body };
}

const plan = () => ({
  blockchain: 'evm',
  ownerAddress: EVM(1),
  beneficiaries: [
    { name: 'Ana', address: EVM(2), percentage: 50, relationship: 'daughter', email: anaEmail.toUpperCase() },
    { name: 'Rui', address: EVM(3), percentage: 30, relationship: 'son' },
    { name: 'Red Cross', address: EVM(4), percentage: 20, relationship: 'charity' },
  ],
  deadMansSwitch: { enabled: true, intervalDays: 180 },
});

let planId: string;
let codes: Record<string, { shareId: string; code: string }>;
let entryId: string;

describe.each(['lowdb', 'postgres'] as const)("heirs' access to a memoir (%s)", (engine) => {
  let schema: string | undefined;
  beforeAll(async () => {
    offset = 0;
    schema = engine === 'postgres' ? randomSchema('svc_heirs') : undefined;
    // Sessions outlive the 7-day waiting period here, so the story's people stay signed in across it.
    const sessions = { ttlSeconds: 60 * 24 * 3600, maxSeconds: 90 * 24 * 3600 };
    const config = schema ? { databaseUrl: await testDatabaseUrl(), databaseSchema: schema, sessions } : { sessions };
    server = await startTestServer({ clock, config });
    anaEmail = uniqueEmail('ana');
    owner = await registerUser(server.app, { name: 'Rose' });
    ana = await registerUser(server.app, { email: anaEmail });
    rui = await registerUser(server.app);
    stranger = await registerUser(server.app);
    await grant(server, ana.accountId, 10);
  });
  afterAll(async () => {
    await server?.close();
    if (schema) await dropSchemas(await testDatabaseUrl(), schema);
  });

  it('links a plan: one share per named heir, codes shown once and never stored', async () => {
    await call(owner, 'POST', '/api/v1/svcloom/setup', { agentName: 'Grandma Rose' });
    const made = await call(owner, 'POST', '/api/v1/svcloom/journal', {
      content: 'My mother baked bread every Sunday in our kitchen in Lisbon.',
      mood: 'nostalgic',
    });
    entryId = made.body.data.entry.id;
    await call(owner, 'POST', '/api/v1/svcloom/questionnaire/family', {
      answers: [{ questionId: 'family.parents', answer: 'My father fixed clocks in Porto.' }],
    });

    // A plan with a bad address, or without a switch, or naming a stranger as heir, is refused and stores nothing.
    const bad = await call(owner, 'POST', '/api/v1/svcloom/heirs/plans', {
      plan: { ...plan(), deadMansSwitch: { enabled: false } },
      heirs: [EVM(9)],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { field: string }) => d.field)).toEqual(
      expect.arrayContaining(['plan.deadMansSwitch.enabled', 'heirs.0']),
    );
    expect((await call(owner, 'GET', '/api/v1/svcloom/heirs/plans')).body.data).toEqual([]);

    const res = await call(owner, 'POST', '/api/v1/svcloom/heirs/plans', {
      label: 'Family estate',
      plan: plan(),
      heirs: [EVM(2), EVM(3)],
      heirAccess: { enabled: true, openAfterDays: 7, accessDays: 3 },
    });
    expect(res.status).toBe(201);
    planId = res.body.data.plan.id;
    expect(res.body.data.plan).toMatchObject({
      label: 'Family estate',
      state: 'armed',
      intervalDays: 180,
      heirAccess: { enabled: true, openAfterDays: 7, accessDays: 3, allowChat: true },
      watched: false,
      verification: null,
    });
    expect(res.body.data.plan.heirs.map((h: { name: string; emailBound: boolean }) => [h.name, h.emailBound])).toEqual([
      ['Ana', true],
      ['Rui', false],
    ]);
    codes = Object.fromEntries(
      res.body.data.codes.map((c: { heir: string; shareId: string; code: string }) => [c.heir, c]),
    );
    // Ana has an address: her code is mailed to her, never shown to the owner; Rui's is the owner's to hand over.
    expect(codes.Ana).toMatchObject({ delivery: 'email', code: null });
    expect(codes.Rui!.code).toMatch(/^shc_[A-Za-z0-9_-]{43}$/);
    codes.Ana!.code = (await mailTo(server.app, anaEmail, 'heir-invitation')).at(-1)!.data!.claimCode!;
    expect(codes.Ana!.code).toMatch(/^shc_[A-Za-z0-9_-]{43}$/);
    // The codes appear nowhere else: not in the plan list, not in the shares, not in the store.
    const listed = await call(owner, 'GET', '/api/v1/svcloom/heirs/plans');
    const shares = await call(owner, 'GET', `/api/v1/svcloom/heirs/shares?planId=${planId}`);
    const stored = JSON.stringify(await server.services.store.all(GRANTS));
    for (const text of [listed.raw, shares.raw, stored]) {
      expect(text).not.toContain(codes.Ana!.code);
      expect(text).not.toContain(codes.Rui!.code);
    }
    expect(
      shares.body.data.map((s: { heir: string; state: string; claimed: boolean }) => [s.heir, s.state, s.claimed]),
    ).toEqual(
      expect.arrayContaining([
        ['Ana', 'pending', false],
        ['Rui', 'pending', false],
      ]),
    );
  });

  it('claims: the email-bound share only by that user, each share by one account, never by its owner', async () => {
    const wrongUser = await call(stranger, 'POST', '/api/v1/svcloom/shared/claim', { code: codes.Ana!.code });
    expect({ status: wrongUser.status, code: wrongUser.body.error.code }).toEqual({
      status: 403,
      code: 'SHARE_NOT_AVAILABLE',
    });
    expect((await call(owner, 'POST', '/api/v1/svcloom/shared/claim', { code: codes.Rui!.code })).body.error.code).toBe(
      'CONFLICT',
    );
    expect((await call(ana, 'POST', '/api/v1/svcloom/shared/claim', { code: 'shc_' + 'x'.repeat(43) })).status).toBe(
      404,
    );
    expect((await call(ana, 'POST', '/api/v1/svcloom/shared/claim', { code: 'not a code' })).status).toBe(400);

    const claimed = await call(ana, 'POST', '/api/v1/svcloom/shared/claim', { code: codes.Ana!.code });
    expect(claimed.status).toBe(200);
    expect(claimed.body.data).toMatchObject({
      shareId: codes.Ana!.shareId,
      title: 'Grandma Rose',
      state: 'pending',
      permissions: ['read', 'chat'],
    });
    // Again by the same account: the same share; by another: taken.
    expect((await call(ana, 'POST', '/api/v1/svcloom/shared/claim', { code: codes.Ana!.code })).status).toBe(200);
    expect((await call(rui, 'POST', '/api/v1/svcloom/shared/claim', { code: codes.Ana!.code })).body.error.code).toBe(
      'CONFLICT',
    );
    expect((await call(rui, 'POST', '/api/v1/svcloom/shared/claim', { code: codes.Rui!.code })).status).toBe(200);
    expect(
      (await call(ana, 'GET', '/api/v1/svcloom/shared')).body.data.map((s: { shareId: string }) => s.shareId),
    ).toEqual([codes.Ana!.shareId]);
  });

  it('nothing opens before the switch fires; unknown or foreign shares are 404', async () => {
    const early = await call(ana, 'GET', `/api/v1/svcloom/shared/${codes.Ana!.shareId}`);
    const earlyBook = await server.app.inject({
      method: 'GET',
      url: `/api/v1/svcloom/shared/${codes.Ana!.shareId}/export`,
      headers: { cookie: ana.cookie },
    });
    expect({ status: earlyBook.statusCode, code: earlyBook.json().error.code }).toEqual({
      status: 403,
      code: 'SHARE_NOT_AVAILABLE',
    });
    expect({ status: early.status, code: early.body.error.code, reason: early.body.error.details[0].reason }).toEqual({
      status: 403,
      code: 'SHARE_NOT_AVAILABLE',
      reason: 'pending',
    });
    // Rui's share, asked for by Ana (or by a stranger): it does not exist for them.
    expect((await call(ana, 'GET', `/api/v1/svcloom/shared/${codes.Rui!.shareId}/journal`)).status).toBe(404);
    expect((await call(stranger, 'GET', `/api/v1/svcloom/shared/${codes.Ana!.shareId}`)).status).toBe(404);
    expect((await call(undefined, 'GET', `/api/v1/svcloom/shared/${codes.Ana!.shareId}`)).status).toBe(401);
    // Only the plan's own account can report its switch events.
    expect(
      (await call(stranger, 'POST', `/api/v1/svcloom/heirs/plans/${planId}/events`, { type: 'deadman.triggered' }))
        .status,
    ).toBe(404);
  });

  it('a waiting period is at least 7 days: shorter is refused, and nothing is stored', async () => {
    for (const openAfterDays of [0, 3, 6]) {
      const res = await call(owner, 'POST', '/api/v1/svcloom/heirs/plans', {
        plan: plan(),
        heirAccess: { enabled: true, openAfterDays },
      });
      expect({ status: res.status, field: res.body.error.details[0].field }).toEqual({
        status: 400,
        field: 'heirAccess.openAfterDays',
      });
    }
    const patch = await call(owner, 'PATCH', `/api/v1/svcloom/heirs/plans/${planId}`, {
      heirAccess: { openAfterDays: 1 },
    });
    expect(patch.status).toBe(400);
    const plans = (await call(owner, 'GET', '/api/v1/svcloom/heirs/plans')).body.data;
    expect(
      plans.map((p: { id: string; heirAccess: { openAfterDays: number } }) => [p.id, p.heirAccess.openAfterDays]),
    ).toEqual([[planId, 7]]);
  });

  it('deadman.triggered starts a verification; a check-in within the waiting period ends it; the events reach the event log without personal data', async () => {
    const fired = await call(owner, 'POST', `/api/v1/svcloom/heirs/plans/${planId}/events`, {
      type: 'deadman.triggered',
      transactionHash: '0x' + 'ab'.repeat(32),
      network: 'sepolia',
    });
    expect(fired.status).toBe(200);
    expect(fired.body.data).toMatchObject({
      recorded: true,
      sharesScheduled: 2,
      plan: { state: 'verifying', verification: { state: 'waiting', failedBy: null } },
    });
    const { startedAt, endsAt } = fired.body.data.plan.verification;
    expect(Date.parse(endsAt) - Date.parse(startedAt)).toBe(7 * DAY);
    const again = await call(owner, 'POST', `/api/v1/svcloom/heirs/plans/${planId}/events`, {
      type: 'deadman.triggered',
    });
    expect(again.body.data).toMatchObject({ recorded: false, eventId: fired.body.data.eventId });
    const waiting = await call(ana, 'GET', `/api/v1/svcloom/shared/${codes.Ana!.shareId}`);
    expect(waiting.body.error.details[0].reason).toBe('waiting');

    const reset = await call(owner, 'POST', `/api/v1/svcloom/heirs/plans/${planId}/events`, { type: 'deadman.reset' });
    expect(reset.body.data).toMatchObject({
      recorded: true,
      plan: { state: 'armed', triggeredAt: null, verification: { state: 'failed', failedBy: 'check-in' } },
    });
    expect((await call(ana, 'GET', '/api/v1/svcloom/shared')).body.data[0].state).toBe('pending');

    const events = (await server.services.store.findBy<EventRecord>(EVENTS, 'ownerId', owner.accountId)).filter((e) =>
      e.type.startsWith('deadman.'),
    );
    expect(events.map((e) => e.type)).toEqual(['deadman.triggered', 'deadman.reset']);
    expect(events[0]!.data).toMatchObject({ planId, memoirSharesScheduled: 2, network: 'sepolia' });
    expect(events[1]!.data).toMatchObject({ memoirSharesCancelled: 2 });
    const verifications = (await server.services.store.findBy<EventRecord>(EVENTS, 'ownerId', owner.accountId)).filter(
      (e) => e.type.startsWith('verification.'),
    );
    expect(verifications.map((e) => [e.type, e.data.reason])).toEqual([
      ['verification.started', undefined],
      ['verification.failed', 'check-in'],
    ]);
    expect(verifications[0]!.data).toMatchObject({ planId, endsAt, memoirSharesScheduled: 2 });
    const text = JSON.stringify([...events, ...verifications]);
    for (const personal of ['Ana', 'Rui', anaEmail]) expect(text).not.toContain(personal);

    expect(
      (await call(owner, 'POST', `/api/v1/svcloom/heirs/plans/${planId}/events`, { type: 'deadman.triggered' })).body
        .data.recorded,
    ).toBe(true);
  });

  it('once open, an heir reads the memoir and talks with its agent, read-only, paying for it and keeping the conversation', async () => {
    offset = 7 * DAY - 60_000;
    const notYet = await call(ana, 'GET', `/api/v1/svcloom/shared/${codes.Ana!.shareId}`);
    expect(notYet.body.error.details[0].reason).toBe('waiting');
    offset = 7 * DAY + 60_000;
    // The owner's list shows it complete (its reporter's own calls are no sign of life), and the event is sent once.
    const [listed] = (await call(owner, 'GET', '/api/v1/svcloom/heirs/plans')).body.data;
    expect(listed).toMatchObject({ state: 'triggered', verification: { state: 'complete' } });
    expect(await completeDueVerifications(server.services.store, clock)).toBe(0);
    const complete = (await server.services.store.findBy<EventRecord>(EVENTS, 'ownerId', owner.accountId)).filter(
      (e) => e.type === 'verification.complete',
    );
    expect(complete.map((e) => e.data)).toEqual([expect.objectContaining({ planId, memoirSharesOpened: 2 })]);
    const opened = await call(ana, 'GET', `/api/v1/svcloom/shared/${codes.Ana!.shareId}`);
    expect(opened.status).toBe(200);
    expect(opened.body.data).toMatchObject({
      agentName: 'Grandma Rose',
      journalEntries: 1,
      answeredQuestions: 1,
      media: 0,
      share: { state: 'open' },
    });
    const journal = await call(ana, 'GET', `/api/svcloom/shared/${codes.Ana!.shareId}/journal`);
    expect(journal.body.data.map((e: { id: string }) => e.id)).toEqual([entryId]);
    const answers = await call(ana, 'GET', `/api/v1/svcloom/shared/${codes.Ana!.shareId}/questionnaire/family`);
    expect(answers.body.data.questions.find((q: { id: string }) => q.id === 'family.parents').answer).toContain(
      'Porto',
    );
    expect(
      (await call(ana, 'GET', `/api/v1/svcloom/shared/${codes.Ana!.shareId}/questionnaire/astrology`)).status,
    ).toBe(404);
    const insights = await call(ana, 'GET', `/api/v1/svcloom/shared/${codes.Ana!.shareId}/insights`);
    expect(insights.body.data.places.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['Lisbon']));

    // The book, as its owner would download it (GET: no CSRF token needed).
    const book = await server.app.inject({
      method: 'GET',
      url: `/api/v1/svcloom/shared/${codes.Ana!.shareId}/export?format=md`,
      headers: { cookie: ana.cookie },
    });
    expect(book.statusCode).toBe(200);
    expect(book.headers['content-disposition']).toMatch(/^attachment; filename="memoir-\d{4}-\d{2}-\d{2}\.md"$/);
    expect(book.body).toContain('My mother baked bread every Sunday');
    // Titled with the person's name, never the agent's nickname; this owner set none, and heirs do not read the account.
    expect(book.body).toMatch(/^# A memoir\n/);
    expect(book.body).not.toContain('Grandma Rose');
    const pdf = await server.app.inject({
      method: 'GET',
      url: `/api/svcloom/shared/${codes.Ana!.shareId}/export?format=pdf`,
      headers: { cookie: ana.cookie },
    });
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // A query cannot name another share than the path does.
    const sneaky = await server.app.inject({
      method: 'GET',
      url: `/api/v1/svcloom/shared/${codes.Rui!.shareId}/export?shareId=${codes.Ana!.shareId}`,
      headers: { cookie: ana.cookie },
    });
    expect(sneaky.statusCode).toBe(404);
    expect(
      (
        await server.app.inject({
          method: 'GET',
          url: `/api/v1/svcloom/shared/${codes.Ana!.shareId}/export`,
          headers: { cookie: stranger.cookie },
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await server.app.inject({ method: 'GET', url: `/api/v1/svcloom/shared/${codes.Ana!.shareId}/export` }))
        .statusCode,
    ).toBe(401);
    const ownerWalletBefore = (await call(owner, 'GET', '/api/svcloom/credits/wallet')).body.data.balance;
    const chat = await call(ana, 'POST', `/api/v1/svcloom/shared/${codes.Ana!.shareId}/chat`, {
      message: 'Tell me about the bread on Sundays',
    });
    expect(chat.status).toBe(200);
    expect(chat.body.data).toMatchObject({ grounded: true, mode: 'demo', charge: { credits: 1 } });
    expect(chat.body.data.reply.citations).toEqual([entryId]);
    expect((await call(ana, 'GET', '/api/svcloom/credits/wallet')).body.data.balance).toBe(9);
    expect((await call(owner, 'GET', '/api/svcloom/credits/wallet')).body.data.balance).toBe(ownerWalletBefore);
    const history = await call(ana, 'GET', `/api/v1/svcloom/shared/${codes.Ana!.shareId}/chat/history`);
    expect(history.body.data).toHaveLength(2);
    // The conversation is the heir's: not in the owner's account, not in the heir's own memoir chat.
    expect(await server.services.store.findBy(MEMOIR_CHAT, 'ownerId', owner.accountId)).toEqual([]);
    expect((await call(ana, 'GET', '/api/v1/svcloom/chat/history')).body.data).toEqual([]);
    // Nothing of the owner's memoir is written by an heir, and the heir's own memoir stays theirs.
    expect((await call(ana, 'GET', '/api/v1/svcloom/journal')).body.data).toEqual([]);
    expect(
      (await call(ana, 'POST', `/api/v1/svcloom/shared/${codes.Ana!.shareId}/journal`, { content: 'x' })).status,
    ).toBe(405);
    expect(await server.services.store.findBy(MEMOIR_JOURNAL, 'ownerId', owner.accountId)).toHaveLength(1);
  });

  it('a check-in after the shares opened is refused; the owner can turn chat off, revoke a share or give a new code', async () => {
    const late = await call(owner, 'POST', `/api/v1/svcloom/heirs/plans/${planId}/events`, { type: 'deadman.reset' });
    expect({ status: late.status, code: late.body.error.code }).toEqual({ status: 409, code: 'CONFLICT' });

    await call(owner, 'PATCH', `/api/v1/svcloom/heirs/plans/${planId}`, { heirAccess: { allowChat: false } });
    const noChat = await call(ana, 'POST', `/api/v1/svcloom/shared/${codes.Ana!.shareId}/chat`, {
      message: 'Tell me about the bread',
    });
    expect({ status: noChat.status, reason: noChat.body.error.details[0].reason }).toEqual({
      status: 403,
      reason: 'permission',
    });
    expect((await call(ana, 'GET', `/api/v1/svcloom/shared/${codes.Ana!.shareId}`)).status).toBe(200);

    // A new code for Rui's share: Rui loses it until he claims again with the new code.
    const reissued = await call(owner, 'POST', `/api/v1/svcloom/heirs/shares/${codes.Rui!.shareId}/code`);
    expect(reissued.body.data.share.claimed).toBe(false);
    expect((await call(rui, 'GET', `/api/v1/svcloom/shared/${codes.Rui!.shareId}`)).status).toBe(404);
    expect((await call(rui, 'POST', '/api/v1/svcloom/shared/claim', { code: codes.Rui!.code })).status).toBe(404);
    expect((await call(rui, 'POST', '/api/v1/svcloom/shared/claim', { code: reissued.body.data.code })).status).toBe(
      200,
    );
    expect((await call(rui, 'GET', `/api/v1/svcloom/shared/${codes.Rui!.shareId}`)).status).toBe(200);

    // Ana's open share is bound to her address: her new code comes with a message saying the earlier code no longer
    // works and that her access continues once she claims with it (not the invitation, which says nothing is asked).
    const anaNew = await call(owner, 'POST', `/api/v1/svcloom/heirs/shares/${codes.Ana!.shareId}/code`);
    expect(anaNew.body.data).toMatchObject({ delivery: 'email', code: null, share: { state: 'open', claimed: false } });
    const mailed = (await mailTo(server.app, anaEmail)).at(-1)!;
    expect(mailed.template).toBe('heir-new-code');
    expect(mailed.data).toMatchObject({ ownerName: 'Rose', claimLink: '/heir?about=new-code&lang=en' });
    const newCode = mailed.data!.claimCode!;
    expect(newCode).toMatch(/^shc_[A-Za-z0-9_-]{43}$/);
    const told = renderMail('heir-new-code', 'en', mailed.data!);
    expect(told.text).toContain('The code you had before no longer works');
    expect(told.text).toContain(`Your new personal claim code is ${newCode}`);
    expect(told.text).toContain('your access continues');
    expect(told.text).not.toContain('Nothing is asked of you now');
    expect((await call(ana, 'GET', `/api/v1/svcloom/shared/${codes.Ana!.shareId}`)).status).toBe(404);
    expect((await call(ana, 'POST', '/api/v1/svcloom/shared/claim', { code: newCode })).status).toBe(200);
    expect((await call(ana, 'GET', `/api/v1/svcloom/shared/${codes.Ana!.shareId}`)).status).toBe(200);

    const revoked = await call(owner, 'DELETE', `/api/v1/svcloom/heirs/shares/${codes.Ana!.shareId}`);
    expect(revoked.body.data).toMatchObject({ state: 'revoked' });
    const gone = await call(ana, 'GET', `/api/v1/svcloom/shared/${codes.Ana!.shareId}`);
    expect({ status: gone.status, reason: gone.body.error.details[0].reason }).toEqual({
      status: 403,
      reason: 'revoked',
    });
    // An heir cannot manage the owner's shares: they do not exist in the heir's account.
    expect((await call(rui, 'DELETE', `/api/v1/svcloom/heirs/shares/${codes.Rui!.shareId}`)).status).toBe(404);
  });

  it('shares expire after accessDays; unlinking the plan withdraws them', async () => {
    offset = 11 * DAY;
    const expired = await call(rui, 'GET', `/api/v1/svcloom/shared/${codes.Rui!.shareId}`);
    expect({ status: expired.status, reason: expired.body.error.details[0].reason }).toEqual({
      status: 403,
      reason: 'expired',
    });
    offset = 7 * DAY + 120_000;
    const unlinked = await call(owner, 'DELETE', `/api/v1/svcloom/heirs/plans/${planId}`);
    expect(unlinked.body.data).toEqual({ deleted: true, sharesRevoked: 1, vaultsUnlinked: 0 });
    expect((await call(rui, 'GET', `/api/v1/svcloom/shared/${codes.Rui!.shareId}`)).body.error.details[0].reason).toBe(
      'revoked',
    );
    expect((await call(owner, 'GET', '/api/v1/svcloom/heirs/plans')).body.data).toEqual([]);
    offset = 0;
  });

  it('heirs use the same tools with an API key of their account (scope chat)', async () => {
    const res = await call(owner, 'POST', '/api/v1/svcloom/heirs/plans', {
      plan: plan(),
      heirs: [EVM(3)],
      heirAccess: { enabled: true },
    });
    const code = res.body.data.codes[0].code as string;
    const key = await server.key({ ownerId: rui.accountId, tier: 'public', scopes: ['chat'] });
    const auth = { authorization: `Bearer ${key}` };
    const claimed = await call(undefined, 'POST', '/api/v1/svcloom/shared/claim', { code }, auth);
    expect(claimed.status).toBe(200);
    await call(owner, 'POST', `/api/v1/svcloom/heirs/plans/${res.body.data.plan.id}/events`, {
      type: 'deadman.triggered',
    });
    offset = 7 * DAY + 60_000;
    const read = await call(
      undefined,
      'GET',
      `/api/v1/svcloom/shared/${claimed.body.data.shareId}/journal`,
      undefined,
      auth,
    );
    expect(read.body.data.map((e: { id: string }) => e.id)).toEqual([entryId]);
    const noScope = await server.key({ ownerId: rui.accountId, tier: 'public', scopes: ['contracts'] });
    expect(
      (
        await call(undefined, 'GET', `/api/v1/svcloom/shared/${claimed.body.data.shareId}`, undefined, {
          authorization: `Bearer ${noScope}`,
        })
      ).body.error.code,
    ).toBe('INSUFFICIENT_SCOPE');
    offset = 0;
  });

  it('is read-only and limited to the collections its grant covers', async () => {
    const [g] = await server.services.store.findBy<GrantRecord>(GRANTS, 'ownerId', owner.accountId);
    const view = grantedStore(server.services.store, owner.accountId, g!.collections);
    expect(await view.findBy(MEMOIR_JOURNAL, 'ownerId', owner.accountId)).toHaveLength(1);
    // Another account's records do not exist in it.
    expect(await view.findBy(MEMOIR_JOURNAL, 'ownerId', ana.accountId)).toEqual([]);
    await expect(view.get(MEMOIR_CHAT, 'x')).rejects.toThrow(TenancyError);
    await expect(view.put(MEMOIR_JOURNAL, { id: 'jrn_x', ownerId: owner.accountId })).rejects.toThrow(TenancyError);
    await expect(
      view.transact((tx) => tx.put(MEMOIR_JOURNAL, { id: 'jrn_x', ownerId: owner.accountId })),
    ).rejects.toThrow(TenancyError);
    expect(await server.services.store.get(MEMOIR_JOURNAL, 'jrn_x')).toBeUndefined();
  });
});

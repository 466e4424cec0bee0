/**
 * Mail sent once per key: "a share was opened for you" goes to each heir with an address when the chain watcher
 * opens a watched plan (its trigger path), once per heir however often or concurrently it runs; and the once-keys
 * are pruned by the reminder sweep when their deadline is more than ONCE_MARGIN_DAYS past. On lowdb and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRANTS, type GrantRecord } from '../../src/accounts/grants.js';
import type { DeploymentRecord } from '../../src/contracts/deployments.js';
import { EVENTS, type EventRecord } from '../../src/events/events.js';
import { MAIL, type MailRecord } from '../../src/events/mail.js';
import { renderMail } from '../../src/mail/templates/index.js';
import { completeDueVerifications, MEMOIR_HEIR_PLANS, type HeirPlanRecord } from '../../src/memoir/heirs.js';
import { MAIL_ONCE, ONCE_MARGIN_DAYS, sweepReminders } from '../../src/memoir/reminders.js';
import { openWatchedPlans } from '../../src/watch/plans.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { dropSchemas, randomSchema, testDatabaseUrl } from '../support/engines.js';
import { registerUser, sessionHeaders, uniqueEmail, type TestSession } from '../support/session.js';

const DAY = 86_400_000;
const START = Date.parse('2026-03-01T12:00:00Z');
let offset = 0;
const clock = { now: () => new Date(START + offset) };
const EVM = (n: number) => `0x${String(n).repeat(40).slice(0, 40)}`;
const CONTRACT = `0x${'c'.repeat(40)}`;

describe.each(['lowdb', 'postgres'] as const)('mail once-keys (%s)', (engine) => {
  let schema: string | undefined;
  let server: TestServer;
  let owner: TestSession;

  beforeAll(async () => {
    offset = 0;
    schema = engine === 'postgres' ? randomSchema('svc_mailonce') : undefined;
    // Sessions outlive the months this story spans.
    const sessions = { ttlSeconds: 200 * 24 * 3600, maxSeconds: 300 * 24 * 3600 };
    const config = schema ? { databaseUrl: await testDatabaseUrl(), databaseSchema: schema, sessions } : { sessions };
    server = await startTestServer({ clock, config, listen: false });
    owner = await registerUser(server.app, { name: 'Rose' });
  });
  afterAll(async () => {
    await server?.close();
    if (schema) await dropSchemas(await testDatabaseUrl(), schema);
  });

  async function link(
    heirs: Array<{ name: string; n: number; email?: string }>,
    intervalDays: number,
    contractAddress?: string,
  ) {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/v1/svcloom/heirs/plans',
      headers: sessionHeaders(owner),
      payload: {
        plan: {
          blockchain: 'evm',
          ownerAddress: EVM(1),
          beneficiaries: heirs.map((h, i) => ({
            name: h.name,
            address: EVM(h.n),
            percentage: ([[100], [60, 40], [50, 30, 20]][heirs.length - 1] ?? [])[i],
            ...(h.email ? { email: h.email } : {}),
          })),
          deadMansSwitch: { enabled: true, intervalDays },
        },
        ...(contractAddress ? { contractAddress } : {}),
        heirAccess: { enabled: true, accessDays: 3 },
      },
    });
    expect(res.statusCode).toBe(201);
    return res.json().data.plan.id as string;
  }
  const mails = async (template: string) =>
    (await server.services.store.findBy<MailRecord>(MAIL, 'ownerId', owner.accountId)).filter(
      (m) => m.template === template,
    );
  const onceIds = async () => (await server.services.store.all<{ id: string }>(MAIL_ONCE)).map((r) => r.id).sort();
  const deployment = (): DeploymentRecord =>
    ({ id: 'dep_test', ownerId: owner.accountId, chain: 'evm', network: '31337', address: CONTRACT }) as never;

  it('a plan opened by the chain tells each heir with an address once, never twice', async () => {
    const ana = uniqueEmail('ana');
    const luz = uniqueEmail('luz');
    const planId = await link(
      [
        { name: 'Ana', n: 2, email: ana },
        { name: 'Luz', n: 3, email: luz },
        { name: 'Rui', n: 4 },
      ],
      365,
      CONTRACT,
    );
    offset = 10 * DAY;
    // The watcher's trigger path, twice at once and once more after: one opening, one message per heir.
    const open = () => server.services.store.transact((tx) => openWatchedPlans(tx, deployment(), 'evt_chain', clock));
    const counts = await Promise.all([open(), open()]);
    expect(counts.sort()).toEqual([0, 1]);
    expect(await open()).toBe(0);
    const opened = await mails('share-opened-chain');
    expect(await mails('share-opened')).toEqual([]);
    expect(opened.map((m) => m.to).sort()).toEqual([ana, luz].sort());
    expect(opened[0]!.data!.link).toBe('/heir?about=share-opened&lang=en');
    // The heirs are told what is known, the contract released after the owner did not check in; no loss presumed.
    const heirText = renderMail('share-opened-chain', 'en', opened[0]!.data!).text;
    expect(heirText).toContain('was released on chain after Rose did not check in before its deadline');
    expect(heirText).not.toMatch(/sorry for your loss/i);
    // The owner: a release by the chain, not the end of a waiting period; the heirs can claim on chain.
    expect(await mails('verification-complete')).toEqual([]);
    const [released] = await mails('chain-released');
    expect(released!.to).toBe(owner.email);
    expect(released!.data).toEqual({
      planLabel: expect.any(String),
      sharesOpened: '3',
      network: '31337',
      contractAddress: CONTRACT,
    });
    const ownerMail = renderMail('chain-released', 'en', released!.data!);
    expect(ownerMail.subject).toMatch(/^Your inheritance contract was released on chain: /);
    expect(ownerMail.text).toContain('because no check-in reached it before its deadline');
    expect(ownerMail.text).toContain('Your heirs can now claim the funds on chain');
    expect(ownerMail.text).not.toMatch(/waiting period (of your plan )?(has )?ended|without a sign from you/);
    // The plan says how the owner was told: by email, as the event does.
    const listed = await server.app.inject({
      method: 'GET',
      url: '/api/v1/svcloom/heirs/plans',
      headers: sessionHeaders(owner),
    });
    const view = listed.json().data.find((p: { id: string }) => p.id === planId);
    expect(view.verification).toMatchObject({ state: 'complete', channels: ['email'] });
    const events = await server.services.store.findBy<EventRecord>(EVENTS, 'ownerId', owner.accountId);
    const complete = events.filter((e) => e.type === 'verification.complete' && e.data.planId === planId);
    expect(complete.map((e) => e.data.channels)).toEqual([['email']]);
    expect((await server.services.store.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, planId))!.state).toBe('triggered');
    const shares = (await server.services.store.findBy<GrantRecord>(GRANTS, 'sourceId', planId)).filter(
      (g) => g.claimEmail,
    );
    expect((await onceIds()).filter((id) => id.startsWith('opn_'))).toEqual(shares.map((g) => `opn_${g.id}`).sort());

    // The once-key holds on its own: a share that lost its mark and a plan settled again send nothing more.
    for (const g of shares) await server.services.store.put(GRANTS, { ...g, openMailedAt: undefined });
    const plan = (await server.services.store.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, planId))!;
    const again = clock.now().toISOString();
    await server.services.store.put(MEMOIR_HEIR_PLANS, {
      ...plan,
      state: 'verifying',
      verification: { ...plan.verification!, state: 'waiting', endsAt: again, endedAt: null },
    });
    expect(await completeDueVerifications(server.services.store, clock)).toBe(1);
    expect(await mails('share-opened-chain')).toHaveLength(2);
  });

  it('the reminder sweep prunes once-keys past their deadline plus the margin, and no sooner', async () => {
    const opn = (await onceIds()).filter((id) => id.startsWith('opn_'));
    expect(opn).toHaveLength(2);
    // The shares opened above (day 10) close at day 13: their keys go at day 13 + the margin.
    offset = 13 * DAY + ONCE_MARGIN_DAYS * DAY - 60_000;
    expect(await sweepReminders(server.services.store, clock)).toEqual({ reminded: 0, pruned: 0 });
    offset = 13 * DAY + ONCE_MARGIN_DAYS * DAY + 60_000;
    expect(await sweepReminders(server.services.store, clock)).toEqual({ reminded: 0, pruned: 2 });
    expect(await onceIds()).toEqual([]);

    offset = 50 * DAY;
    const planId = await link([{ name: 'Ana', n: 2 }], 40);
    const deadline = START + 90 * DAY;
    // Reminders come due (both lead times at once: one message, two keys until the deadline).
    offset = deadline - START - 6 * DAY;
    expect(await sweepReminders(server.services.store, clock)).toEqual({ reminded: 1, pruned: 0 });
    const keys = await onceIds();
    expect(keys).toEqual([`rmd_${planId}_${deadline}_30`, `rmd_${planId}_${deadline}_7`]);
    // A key written before keys carried their deadline: read from its name. A key of unknown kind is kept.
    const old = `rmd_${planId}_${deadline - 10 * DAY}_30`;
    const unknown = 'xyz_kept_forever';
    for (const id of [old, unknown])
      await server.services.store.put(MAIL_ONCE, {
        id,
        ownerId: owner.accountId,
        planId,
        createdAt: new Date(START).toISOString(),
      });

    offset = deadline - START - 10 * DAY + ONCE_MARGIN_DAYS * DAY + 60_000;
    expect((await sweepReminders(server.services.store, clock)).pruned).toBe(1); // the old key only
    expect(await onceIds()).toEqual([...keys, unknown].sort());
    offset = deadline - START + ONCE_MARGIN_DAYS * DAY - 60_000;
    expect((await sweepReminders(server.services.store, clock)).pruned).toBe(0);
    offset = deadline - START + ONCE_MARGIN_DAYS * DAY + 60_000;
    expect(await sweepReminders(server.services.store, clock)).toEqual({ reminded: 0, pruned: 2 });
    expect(await onceIds()).toEqual([unknown]);
    // Pruned keys send nothing again: the deadline is past, so no reminder is due.
    expect(await mails('checkin-reminder')).toHaveLength(1);
  });
});

/**
 * Heirs' access turned on after the switch fired (the verification completed while it was off): the shares open at
 * once, and each heir with an address is told so, once, as when a verification completes with access on. Before,
 * only the completion of a verification told heirs: shares opened by the change were open without a word to them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GRANTS, type GrantRecord } from '../../src/accounts/grants.js';
import { completeDueVerifications, MEMOIR_HEIR_PLANS, type HeirPlanRecord } from '../../src/memoir/heirs.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { mailTo, registerUser, sessionHeaders, signIn, type TestSession } from '../support/session.js';

const DAY = 86_400_000;
let offset = 0;
const clock = { now: () => new Date(Date.parse('2026-06-01T09:00:00Z') + offset) };
const EVM = (n: number) => `0x${String(n).repeat(40).slice(0, 40)}`;
const HEIR_EMAIL = 'ana.late@example.test';

let server: TestServer;
let owner: TestSession;
let reporter: string;

beforeAll(async () => {
  server = await startTestServer({ clock, listen: false });
  owner = await registerUser(server.app, { name: 'Rose' });
  reporter = await server.key({ ownerId: owner.accountId, tier: 'public', scopes: ['contracts'] });
});
afterAll(async () => server?.close());

describe("heirs' access turned on after the trigger", () => {
  it('opens the shares and tells each heir with an address, once', async () => {
    const linked = await server.app.inject({
      method: 'POST',
      url: '/api/v1/svcloom/heirs/plans',
      headers: sessionHeaders(owner),
      payload: {
        label: 'Late',
        plan: {
          blockchain: 'evm',
          ownerAddress: EVM(1),
          beneficiaries: [{ name: 'Ana', address: EVM(2), percentage: 100, email: HEIR_EMAIL }],
          deadMansSwitch: { enabled: true, intervalDays: 90 },
        },
        heirAccess: { enabled: false },
      },
    });
    expect(linked.statusCode, linked.body).toBe(201);
    const planId = linked.json().data.plan.id as string;
    const shareId = linked.json().data.codes[0].shareId as string;
    const fired = await server.app.inject({
      method: 'POST',
      url: `/api/v1/svcloom/heirs/plans/${planId}/events`,
      headers: { authorization: `Bearer ${reporter}` },
      payload: { type: 'deadman.triggered' },
    });
    expect(fired.statusCode, fired.body).toBe(200);
    offset = 8 * DAY;
    await completeDueVerifications(server.services.store, clock);
    expect((await server.services.store.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, planId))?.state).toBe('triggered');
    expect(await mailTo(server.app, HEIR_EMAIL, 'share-opened')).toEqual([]);
    // The owner (or whoever holds the account) signs in afresh: too late to stop anything, the plan stays triggered.
    owner = await signIn(server.app, owner.email, owner.password);

    const patch = () =>
      server.app.inject({
        method: 'PATCH',
        url: `/api/v1/svcloom/heirs/plans/${planId}`,
        headers: sessionHeaders(owner),
        payload: { heirAccess: { enabled: true } },
      });
    expect((await patch()).statusCode).toBe(200);
    const share = await server.services.store.get<GrantRecord>(GRANTS, shareId);
    expect(share?.opensAt).toBe(clock.now().toISOString());
    expect(await mailTo(server.app, HEIR_EMAIL, 'share-opened')).toHaveLength(1);
    // Once: the same change again tells nobody anything new.
    expect((await patch()).statusCode).toBe(200);
    expect(await mailTo(server.app, HEIR_EMAIL, 'share-opened')).toHaveLength(1);
  });
});

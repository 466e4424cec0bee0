import type { Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeServices, openServices, startWatcher } from '../../src/app.js';
import { loadConfig } from '../../src/core/config.js';
import { createLogger } from '../../src/core/log.js';
import { DEPLOYMENTS, type DeploymentRecord } from '../../src/contracts/deployments.js';
import { Watcher } from '../../src/watch/watcher.js';
import { linkPlan, MEMOIR_HEIR_PLANS, type HeirPlanRecord } from '../../src/memoir/heirs.js';
import { GRANTS, type GrantRecord } from '../../src/accounts/grants.js';
import { systemClock } from '../../src/core/clock.js';
import { startTestServer, type TestServer, tmpDir } from '../helpers.js';
import { seedDeployment } from '../support/deployments.js';
import { chainsAt, startEmptyEvmNode } from '../support/evm-rpc-standin.js';
import { SwitchChain, seedWatched } from '../support/switch-chain.js';

// update_deployment_watch: the owner's lead times and pause, every refusal in the envelope, and the watcher
// honouring a pause. Also: `svc serve` starts a watcher only when a network is configured.

const DAY = 86_400;
const HEIR = '0x52908400098527886E0F7030069857D2E4169EE7' as Hex;
let server: TestServer;
let ownerKey: string;
let readKey: string;
let strangerKey: string;
let contractId: string;
let depId: string;
const chain = new SwitchChain();

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  const owner = await server.account();
  ownerKey = await server.key({ ownerId: owner, tier: 'partner', scopes: ['contracts'] });
  readKey = await server.key({ ownerId: owner, tier: 'partner', scopes: ['contracts:read'] });
  strangerKey = await server.key({ ownerId: await server.account(), tier: 'partner', scopes: ['contracts'] });
  depId = (await seedWatched(server.services.store, chain, owner, 1, [HEIR]))[0]!;
  contractId = (await server.services.store.get<DeploymentRecord>(DEPLOYMENTS, depId))!.contractId;
});
afterAll(() => server?.close());

async function patch(key: string | null, cId: string, dId: string, body: object) {
  const res = await server.app.inject({
    method: 'PATCH',
    url: `/api/v1/contracts/${cId}/deployments/${dId}`,
    headers: key ? { authorization: `Bearer ${key}` } : {},
    payload: body,
  });
  return { status: res.statusCode, body: res.json() };
}

describe('update_deployment_watch', () => {
  it('sets lead times (latest first) and pauses; the answer shows them', async () => {
    const res = await patch(ownerKey, contractId, depId, { warnDays: [3, 14, 1] });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.watch).toEqual({ warnDays: [14, 3, 1], paused: false, snapshot: null });
    expect(res.body.data).not.toHaveProperty('watch.emitted');
    const paused = await patch(ownerKey, contractId, depId, { paused: true });
    expect(paused.body.data.watch).toMatchObject({ warnDays: [14, 3, 1], paused: true });
  });

  it.each([
    [{ warnDays: [0] }, 'warnDays.0'],
    [{ warnDays: [366] }, 'warnDays.0'],
    [{ warnDays: [1.5] }, 'warnDays.0'],
    [{ warnDays: [1, 2, 3, 4, 5, 6] }, 'warnDays'],
    [{ warnDays: [7, 7] }, 'warnDays'],
    [{ paused: 'yes' }, 'paused'],
    [{ every: 3 }, ''],
  ])('400 for %j, naming the field', async (body, field) => {
    const before = await server.services.store.get<DeploymentRecord>(DEPLOYMENTS, depId);
    const res = await patch(ownerKey, contractId, depId, body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    if (field) expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    expect(await server.services.store.get<DeploymentRecord>(DEPLOYMENTS, depId)).toEqual(before);
  });

  it('401 without a key, 403 without the write scope, 404 for ids not of this contract or account', async () => {
    expect((await patch(null, contractId, depId, { paused: false })).status).toBe(401);
    expect((await patch(readKey, contractId, depId, { paused: false })).status).toBe(403);
    expect((await patch(strangerKey, contractId, depId, { paused: false })).status).toBe(404);
    expect((await patch(ownerKey, contractId, 'dep_01JD0000000000000000000000', { paused: false })).status).toBe(404);
    expect((await patch(ownerKey, 'ctr_01JD0000000000000000000000', depId, { paused: false })).status).toBe(404);
  });

  it('409 for an unverified deployment: it is not watched', async () => {
    const d = await server.services.store.get<DeploymentRecord>(DEPLOYMENTS, depId);
    const unverified = await seedDeployment(server.services.store, d!.ownerId, contractId, 7);
    const res = await patch(ownerKey, contractId, unverified, { warnDays: [7] });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('CONFLICT');
  });

  it('the watcher reads nothing of a paused deployment, and sends only the due warning once resumed', async () => {
    await patch(ownerKey, contractId, depId, { paused: true, warnDays: [30, 7] });
    const watcher = new Watcher({
      store: server.services.store,
      clock: systemClock,
      networks: ['31337'],
      pollMs: 1000,
      confirmations: 2,
      readerFor: async () => chain.reader(),
    });
    chain.advance(31 * DAY);
    expect(await watcher.pollOnce('31337')).toMatchObject({ read: 0, events: 0 });
    chain.advance(25 * DAY);
    await patch(ownerKey, contractId, depId, { paused: false });
    expect(await watcher.pollOnce('31337')).toMatchObject({ read: 1, events: 1 });
    const d = await server.services.store.get<DeploymentRecord>(DEPLOYMENTS, depId);
    expect(d!.watch!.warned).toEqual([7]);
  });
});

describe('plans linked after the deployment was verified', () => {
  /** A plan linked to the deployment's address, not watched yet. */
  async function linkToDeployment(heirAccess?: { enabled: boolean }) {
    const d = (await server.services.store.get<DeploymentRecord>(DEPLOYMENTS, depId))!;
    return linkPlan(
      server.services.store,
      d.ownerId,
      {
        plan: {
          blockchain: 'evm',
          ownerAddress: '0x27b1fdb04752bbc536007a920d24acb045561c26',
          beneficiaries: [{ name: 'A', address: HEIR, percentage: 100 }],
          deadMansSwitch: { enabled: true, intervalDays: 60, gracePeriodDays: 0 },
          inheritanceTemplate: 'custom',
        },
        contractAddress: d.address,
        ...(heirAccess ? { heirAccess } : {}),
      },
      systemClock,
    );
  }
  /** The watcher's next poll, a minute later on the chain. */
  async function nextPoll() {
    const watcher = new Watcher({
      store: server.services.store,
      clock: systemClock,
      networks: ['31337'],
      pollMs: 1000,
      confirmations: 2,
      readerFor: async () => chain.reader(),
    });
    chain.advance(60);
    await watcher.pollOnce('31337');
  }
  const reportTrigger = (planId: string) =>
    server.app.inject({
      method: 'POST',
      url: `/api/v1/svcloom/heirs/plans/${planId}/events`,
      headers: { authorization: `Bearer ${ownerKey}` },
      payload: { type: 'deadman.triggered' },
    });

  it('become watched at the next poll, and then refuse reports', async () => {
    const linked = await linkToDeployment();
    expect(linked.plan.watched).toBe(false);
    await nextPoll();
    const plan = await server.services.store.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, linked.plan.id);
    expect(plan?.watched).toBe(true);
    const report = await reportTrigger(linked.plan.id);
    expect(report.statusCode).toBe(409);
    expect(report.json().error.message).toMatch(/watched on chain/);
  });

  it('end the waiting period of a trigger reported before: only the chain opens them then', async () => {
    const linked = await linkToDeployment({ enabled: true });
    // Reported before the plan is watched (a key holding `contracts` may delete the deployment, report, and register
    // it again): a waiting period starts and the share is scheduled.
    const report = await reportTrigger(linked.plan.id);
    expect(report.json().data.plan.state).toBe('verifying');
    const shareId = linked.codes[0]!.shareId;
    expect((await server.services.store.get<GrantRecord>(GRANTS, shareId))?.opensAt).not.toBeNull();

    await nextPoll();
    // The chain has not fired: the report no longer applies, and the share is closed again.
    expect(await server.services.store.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, linked.plan.id)).toMatchObject({
      watched: true,
      state: 'armed',
      verification: { state: 'failed', failedBy: 'watched' },
    });
    expect(await server.services.store.get<GrantRecord>(GRANTS, shareId)).toMatchObject({
      opensAt: null,
      expiresAt: null,
    });
  });
});

describe('the watcher in the service', () => {
  it('starts only when an EVM network is configured, and stops with the service', async () => {
    const node = await startEmptyEvmNode();
    const dirs = [await tmpDir(), await tmpDir()];
    try {
      const log = createLogger('silent');
      const bare = await openServices(loadConfig({ 'data-dir': dirs[0]!.dir }, {}), { log });
      expect(await startWatcher(bare)).toBeUndefined();
      await closeServices(bare);
      const config = {
        ...loadConfig({ 'data-dir': dirs[1]!.dir }, {}),
        chains: { ...chainsAt(node.url), watchPollMs: 20 },
      };
      const withChain = await openServices(config, { log });
      const watcher = await startWatcher(withChain);
      expect(watcher).toBeInstanceOf(Watcher);
      await new Promise<void>((resolve) => {
        const t = setInterval(() => {
          if (watcher!.stats.polls + watcher!.stats.errors > 2) {
            clearInterval(t);
            resolve();
          }
        }, 20);
      });
      await closeServices(withChain);
      // Stopped: no timer is left to poll again.
      const rounds = watcher!.stats.polls + watcher!.stats.errors;
      await new Promise((r) => setTimeout(r, 100));
      expect(watcher!.stats.polls + watcher!.stats.errors).toBe(rounds);
    } finally {
      await node.close();
      for (const d of dirs) await d.cleanup();
    }
  });
});

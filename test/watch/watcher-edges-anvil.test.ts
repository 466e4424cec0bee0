import { Writable } from 'node:stream';
import pino from 'pino';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvmReader } from '../../src/chains/evm.js';
import { systemClock } from '../../src/core/clock.js';
import { DEPLOYMENTS, type DeploymentRecord } from '../../src/contracts/deployments.js';
import { EVENTS, type EventRecord } from '../../src/events/events.js';
import { MEMOIR_HEIR_PLANS, type HeirPlanRecord } from '../../src/memoir/heir-plans.js';
import { Watcher } from '../../src/watch/watcher.js';
import type { TestServer } from '../helpers.js';
import { ANVIL_KEYS, type Anvil } from '../support/anvil.js';
import {
  adminCall,
  anvilClients,
  startAnvilServer,
  deployGenerated,
  until,
  watchedPlan,
  linkPlan,
  registerOnAnvil,
  anvilWatcher,
} from './anvil-plan.js';

// Edges of the watcher on a real node (anvil):
// - Deleting the service's copy of a contract (delete_contract) deletes nothing on chain: its verified deployment stays
//   watched, by a watcher started afresh after the delete, and the memoir plan linked to it opens when the switch
//   fires. Before, the watcher read the switch with the stored contract's ABI: once deleted, the trigger went unseen
//   and the heirs' plan stayed closed for good (reports refused: "watched on chain").
// - A deployment younger than the confirmed block is not read yet: before, every poll failed on it and logged that
//   the chain endpoint did not answer, though it did.

const DAY = 86_400;
const owner = privateKeyToAccount(ANVIL_KEYS[0]);
const heirA = privateKeyToAccount(ANVIL_KEYS[1]);
const heirB = privateKeyToAccount(ANVIL_KEYS[2]);

let anvil: Anvil;
let server: TestServer;
let watcher: Watcher | undefined;

const call = adminCall(() => server);

beforeAll(async () => {
  ({ anvil, server } = await startAnvilServer(50));
}, 120_000);

afterAll(async () => {
  await watcher?.stop();
  await server?.close();
  await anvil?.stop();
});

describe('a deleted contract whose deployment is watched', () => {
  it('stays watched after the delete and a restart, and the linked plan opens when the switch fires', async () => {
    const store = server.services.store;
    const plan = watchedPlan(owner, heirA, heirB);
    const clients = anvilClients(anvil.url);
    const { c, address, hash } = await deployGenerated(call, clients, owner, plan);
    const planId = await linkPlan(call, plan, address);
    const depId = (await registerOnAnvil(call, c.id, address, hash)).id;

    // An unverified deployment of the same contract (an address with no code) keeps nothing.
    const other = await call('POST', `/contracts/${c.id}/deployments`, { network: 31337, address: heirB.address });
    expect(other.status, JSON.stringify(other.body)).toBe(200);
    expect(other.body.data.status).toBe('unverified');

    expect((await call('DELETE', `/contracts/${c.id}`)).status).toBe(200);
    expect((await call('GET', `/contracts/${c.id}`)).status).toBe(404);
    const kept = await store.get<DeploymentRecord>(DEPLOYMENTS, depId);
    expect(kept?.abi).toEqual(c.compiled.abi);
    expect((await store.get<DeploymentRecord>(DEPLOYMENTS, other.body.data.id))?.abi).toBeUndefined();
    // Its deployments are still listed under its id (and changed: pausing stays possible).
    const listed = await call('GET', `/contracts/${c.id}/deployments`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((d: { id: string }) => d.id).sort()).toEqual([depId, other.body.data.id].sort());
    expect((await call('GET', '/contracts/ctr_01JD0000000000000000000000/deployments')).status).toBe(404);

    // A watcher started after the delete (nothing of the contract in its memory) reads the switch.
    await anvil.mine(3);
    const reader = createEvmReader(anvil.url, anvil.chainId);
    watcher = anvilWatcher(server, anvil.url, { pollMs: 50, reader });
    watcher.start();
    await until(
      'the first snapshot',
      async () => (await store.get<DeploymentRecord>(DEPLOYMENTS, depId))?.watch?.snapshot,
    );

    await anvil.advance(61 * DAY);
    await anvil.mine(3);
    await until('the trigger', async () =>
      (await store.all<EventRecord>(EVENTS)).some(
        (e) => e.type === 'deadman.triggered' && e.data.deploymentId === depId,
      ),
    );
    expect(await store.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, planId)).toMatchObject({ state: 'triggered' });
  }, 120_000);
});

describe('a deployment younger than the confirmed block', () => {
  it('is not read until its block is confirmed: no failure, no line saying the endpoint did not answer', async () => {
    const store = server.services.store;
    const clients = anvilClients(anvil.url);
    const { c, address, hash } = await deployGenerated(call, clients, owner, watchedPlan(owner, heirA, heirB));
    const reg = await call('POST', `/contracts/${c.id}/deployments`, { network: 31337, address, txHash: hash });
    expect(reg.status, JSON.stringify(reg.body)).toBe(200);
    const depId = reg.body.data.id as string;
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const reader = createEvmReader(anvil.url, anvil.chainId);
    const young = new Watcher({
      store,
      clock: systemClock,
      networks: ['31337'],
      pollMs: 50,
      // The creation block is the head: 5 confirmations put the confirmed block before it.
      confirmations: 5,
      readerFor: async () => reader,
      log: pino({ level: 'warn' }, sink),
    });
    for (let i = 0; i < 3; i++) await young.pollOnce('31337');
    expect(young.stats.failed).toBe(0);
    expect(lines.join('')).not.toContain(depId);
    expect((await store.get<DeploymentRecord>(DEPLOYMENTS, depId))?.watch?.snapshot).toBeNull();
    // Once its block is confirmed, it is read.
    await anvil.mine(6);
    await young.pollOnce('31337');
    expect(young.stats.failed).toBe(0);
    expect((await store.get<DeploymentRecord>(DEPLOYMENTS, depId))?.watch?.snapshot).not.toBeNull();
  }, 120_000);
});

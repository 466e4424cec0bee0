import { Address } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTonReader } from '../../src/chains/ton.js';
import { DEPLOYMENTS, type DeploymentRecord } from '../../src/contracts/deployments.js';
import { EVENTS, type EventRecord } from '../../src/events/events.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { dropSchemas, randomSchema, testDatabaseUrl } from '../support/engines.js';
import { startTonApiStandin, type TonApiStandin } from '../support/ton-api.js';
import {
  call,
  deployTon,
  deployVariant,
  generateTon,
  type TonGeneratedAnswer,
  tonPlan,
} from './ton-register-support.js';

// register_deployment on TON, read through the toncenter-kind stand-in backed by @ton/sandbox: the generated
// StateInit deployed as it is verifies; a contract with other shares and interval, other code, or nothing at the
// address is kept unverified with each difference named; a network without an endpoint, a txHash and a bad address
// are 400s; a stand-in that does not answer or refuses the key is a 503 that names no URL.

const API_KEY = 'ton-test-key';

describe.each(['lowdb', 'postgres'] as const)('TON deployments are verified through the TON API (%s)', (engine) => {
  let api: TonApiStandin;
  let server: TestServer;
  let schema: string | undefined;
  let planned: TonGeneratedAnswer;
  let otherPlan: object;
  let samePlan: object;
  let owner: Awaited<ReturnType<TonApiStandin['chain']['treasury']>>;

  beforeAll(async () => {
    api = await startTonApiStandin({ apiKey: API_KEY });
    schema = engine === 'postgres' ? randomSchema('svc_tonreg') : undefined;
    const chains = {
      evmRpcUrls: {},
      tonApis: { 'ton-testnet': api.apiUrl },
      tonApiKey: API_KEY,
      watchPollMs: 60_000,
      watchConfirmations: 2,
    };
    const base = { chains };
    const config = schema ? { databaseUrl: await testDatabaseUrl(), databaseSchema: schema, ...base } : base;
    server = await startTestServer({ config, listen: false });
    owner = await api.chain.treasury('owner');
    const a = await api.chain.treasury('heir-a');
    const b = await api.chain.treasury('heir-b');
    samePlan = tonPlan(owner.address, [
      { address: a.address, percentage: 70 },
      { address: b.address, percentage: 30 },
    ]);
    planned = await generateTon(server, samePlan);
    // The same people with other shares and a shorter interval: the same code, other initial data.
    otherPlan = tonPlan(
      owner.address,
      [
        { address: a.address, percentage: 60 },
        { address: b.address, percentage: 40 },
      ],
      { deadMansSwitch: { enabled: true, intervalDays: 30, gracePeriodDays: 7 } },
    );
  }, 180_000);

  afterAll(async () => {
    await server?.close();
    await api?.close();
    if (schema) await dropSchemas(await testDatabaseUrl(), schema);
  });

  const register = (id: string, payload: object) => call(server, 'POST', `/contracts/${id}/deployments`, payload);
  const eventsOf = async (deploymentId: string) =>
    (await server.services.store.all<EventRecord>(EVENTS)).filter((e) => e.data.deploymentId === deploymentId);

  it('verifies the generated StateInit deployed as it is, and records deployed then verified', async () => {
    const at = await deployTon(api, owner, planned);
    const res = await register(planned.id, { network: 'ton-testnet', address: at.toRawString() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const d = res.body.data;
    expect(d).toMatchObject({ chain: 'ton', network: 'ton-testnet', status: 'verified', differences: [] });
    // Stored in the generator's own form, whichever form was registered.
    expect(d.address).toBe(planned.compiled.address);
    expect(d.watch).toMatchObject({ warnDays: [30, 7], paused: false, snapshot: null });
    expect(typeof d.blockNumber).toBe('number');
    expect((await eventsOf(d.id)).map((e) => e.type)).toEqual(['contract.deployed', 'contract.verified']);
    // The same contract written in its other form is the same deployment.
    const again = await register(planned.id, { network: 'ton-testnet', address: planned.compiled.address });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toContain(d.id);
  });

  it('names each difference of a contract with other shares and another interval, and keeps it unverified', async () => {
    const at = await deployVariant(api, owner, planned, otherPlan);
    const res = await register(planned.id, { network: 'ton-testnet', address: at.toString() });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const d = res.body.data;
    expect(d.status).toBe('unverified');
    expect(d.watch).toBeNull();
    expect(d.differences).toEqual([
      { field: 'beneficiaries[0].shareBps', expected: '7000', found: '6000' },
      { field: 'beneficiaries[1].shareBps', expected: '3000', found: '4000' },
      { field: 'switch.intervalSeconds', expected: `${90 * 86_400}`, found: `${30 * 86_400}` },
    ]);
    const events = await eventsOf(d.id);
    expect(events.map((e) => e.type)).toEqual(['contract.error']);
    expect(events[0]!.data.differences).toEqual(d.differences);
    const stored = await server.services.store.get<DeploymentRecord>(DEPLOYMENTS, d.id);
    expect(stored?.status).toBe('unverified');
  });

  it('names the initial data when every get method matches but the address is not the generated one', async () => {
    // The plan's own values with another rent reserve: nothing a get method shows differs.
    const at = await deployVariant(api, owner, planned, samePlan);
    expect(at.equals(Address.parse(planned.compiled.address))).toBe(false);
    const res = await register(planned.id, { network: 'ton-testnet', address: at.toString() });
    expect(res.body.data.status).toBe('unverified');
    expect(res.body.data.differences).toEqual([
      {
        field: 'initialData',
        expected: `the generated StateInit, at ${planned.compiled.address}`,
        found: expect.stringContaining('other initial data'),
      },
    ]);
  });

  it('refuses other code (a wallet) and an address with no contract, naming the code', async () => {
    const wallet = await api.chain.treasury('someone');
    const res = await register(planned.id, { network: 'ton-testnet', address: wallet.address.toString() });
    expect(res.status).toBe(200);
    expect(res.body.data.status).toBe('unverified');
    expect(res.body.data.differences).toHaveLength(1);
    expect(res.body.data.differences[0]).toMatchObject({ field: 'code' });
    expect(res.body.data.differences[0].expected).toContain(planned.compiled.codeHash);
    expect(res.body.data.differences[0].found).toMatch(/^other code \(hash [0-9a-f]{64}\)$/);

    const nobody = new Address(0, Buffer.alloc(32, 0x42));
    const empty = await register(planned.id, { network: 'ton-testnet', address: nobody.toRawString() });
    expect(empty.body.data.differences).toEqual([
      {
        field: 'code',
        expected: `the generated code (hash ${planned.compiled.codeHash})`,
        found: 'no contract at this address',
      },
    ]);
  });

  it('answers 400 for a network without an endpoint, a txHash, a bad address and another chain family', async () => {
    const nobody = new Address(0, Buffer.alloc(32, 0x43)).toRawString();
    const mainnet = await register(planned.id, { network: 'ton-mainnet', address: nobody });
    expect(mainnet.status).toBe(400);
    expect(mainnet.body.error.message).toContain('SVC_TON_API_MAINNET');
    const tx = await register(planned.id, { network: 'ton-testnet', address: nobody, txHash: 'a'.repeat(64) });
    expect(tx.status).toBe(400);
    expect(tx.body.error.details[0].field).toBe('txHash');
    const bad = await register(planned.id, { network: 'ton-testnet', address: `EQ${'A'.repeat(46)}` });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('address');
    const testOnly = new Address(0, Buffer.alloc(32, 0x44)).toString({ testOnly: true });
    const mixup = await register(planned.id, { network: 'ton-mainnet', address: testOnly });
    expect(mixup.status).toBe(400);
    expect(mixup.body.error.details[0]).toMatchObject({ field: 'address', reason: expect.stringContaining('testnet') });
    const evm = await register(planned.id, { network: 31337, address: `0x${'1'.repeat(40)}` });
    expect(evm.status).toBe(400);
    expect(evm.body.error.details[0].field).toBe('network');
    const before = await server.services.store.all<DeploymentRecord>(DEPLOYMENTS);
    expect(before.every((d) => d.address !== nobody)).toBe(true);
  });
});

describe('the TON reader', () => {
  it('answers 503 without the URL or key when the API is down or refuses the key', async () => {
    const api = await startTonApiStandin({ apiKey: 'right' });
    try {
      const wrongKey = createTonReader(api.apiUrl, 'ton-testnet', 'wrong-key');
      const refused = await wrongKey.getMasterchainSeqno().catch((e: unknown) => e);
      expect(refused).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(String((refused as Error).message)).toContain('SVC_TON_API_KEY');
      expect(String((refused as Error).message)).not.toContain('wrong-key');
      const right = createTonReader(api.apiUrl, 'ton-testnet', 'right');
      expect(await right.getMasterchainSeqno()).toBeGreaterThan(0);
    } finally {
      await api.close();
    }
    const down = createTonReader(api.apiUrl, 'ton-testnet', 'right');
    const err = await down.getAccount(new Address(0, Buffer.alloc(32, 1))).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(String((err as Error).message)).not.toContain('127.0.0.1');
  });
});

describe('a TON plan with guardians', () => {
  let api: TonApiStandin;
  let server: TestServer;

  beforeAll(async () => {
    api = await startTonApiStandin();
    server = await startTestServer({
      config: {
        chains: { evmRpcUrls: {}, tonApis: { 'ton-testnet': api.apiUrl }, watchPollMs: 60_000, watchConfirmations: 2 },
      },
      listen: false,
    });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await api?.close();
  });

  it("verifies through the guardian get methods, and names another plan's guardian rules", async () => {
    const owner = await api.chain.treasury('g-owner');
    const heir = await api.chain.treasury('g-heir');
    const at = (n: number) => new Address(0, Buffer.alloc(32, n));
    const plan = (threshold: number) =>
      tonPlan(owner.address, [{ address: heir.address, percentage: 100 }], {
        guardians: { addresses: [at(1), at(2), at(3)].map((a) => a.toRawString()), threshold },
      });
    const g = await generateTon(server, plan(2));
    const register = (address: Address) =>
      call(server, 'POST', `/contracts/${g.id}/deployments`, { network: 'ton-testnet', address: address.toString() });

    const ok = await register(await deployTon(api, owner, g));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.data).toMatchObject({ status: 'verified', differences: [] });

    const bad = await register(await deployVariant(api, owner, g, plan(3)));
    expect(bad.body.data.status).toBe('unverified');
    expect(bad.body.data.differences).toEqual([{ field: 'guardians.threshold', expected: '2', found: '3' }]);
  }, 120_000);
});

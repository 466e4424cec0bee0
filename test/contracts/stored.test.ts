import { decodeDeployData, getAddress, type Abi, type Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRACTS, MAX_CONTRACTS_PER_ACCOUNT, type ContractRecord } from '../../src/contracts/stored.js';
import { newId } from '../../src/core/ids.js';
import pg from 'pg';
import { startTestServer, type TestServer } from '../helpers.js';
import { countReads } from '../support/store-wrap.js';
import { randomSchema, testDatabaseUrl } from '../support/engines.js';

// Generated contracts are stored per account: the generate answer carries the id, get_contract and list_contracts
// read them back, another account does not see them, and an account keeps a bounded number.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({});
});
afterAll(async () => {
  await server?.close();
});

const PLAN = {
  blockchain: 'evm',
  ownerAddress: '0x27b1fdb04752bbc536007a920d24acb045561c26',
  beneficiaries: [
    { name: 'A', address: '0x52908400098527886E0F7030069857D2E4169EE7', percentage: 60 },
    { name: 'B', address: '0x8617e340b3d01fa5f11f306f4090fd50e238070d', percentage: 40 },
  ],
  deadMansSwitch: { enabled: true, intervalDays: 180 },
};

async function call(key: string, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) {
  const res = await server.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: { authorization: `Bearer ${key}` },
    ...(payload ? { payload } : {}),
  });
  return { status: res.statusCode, body: res.json() };
}

describe('stored contracts', () => {
  it('keeps a generated contract under the id of the answer, for its account only', async () => {
    const gen = await call(server.adminKey, 'POST', '/contracts/generate', PLAN);
    expect(gen.status, JSON.stringify(gen.body).slice(0, 300)).toBe(200);
    const id = gen.body.id as string;
    expect(id).toMatch(/^ctr_[0-9A-Z]{26}$/);

    const got = await call(server.adminKey, 'GET', `/contracts/${id}`);
    expect(got.status).toBe(200);
    const c = got.body.data;
    expect(c).toMatchObject({ id, chain: 'evm', source: gen.body.contractCode });
    expect(c.deployData).toBe(gen.body.compiled.deployData);
    expect(c.compiled.bytecode).toBe(gen.body.compiled.bytecode);
    expect(c.plan.beneficiaries.map((b: { percentage: number }) => b.percentage)).toEqual([60, 40]);
    expect(c.plan.ownerAddress).toBe(PLAN.ownerAddress);
    expect(c.advice.securityScore).toBe(gen.body.analysis.securityScore);
    expect(Date.parse(c.created)).not.toBeNaN();
    // The deployment data decodes back to the plan: owner, beneficiaries and shares in basis points.
    const { args } = decodeDeployData({
      abi: c.compiled.abi as Abi,
      bytecode: c.compiled.bytecode as Hex,
      data: c.deployData as Hex,
    });
    const [owner, addrs, bps] = args as readonly [string, string[], number[]];
    expect(getAddress(owner)).toBe(getAddress(PLAN.ownerAddress));
    expect(addrs.map((a) => getAddress(a))).toEqual(PLAN.beneficiaries.map((b) => getAddress(b.address)));
    expect(bps.map(Number)).toEqual([6000, 4000]);

    const list = await call(server.adminKey, 'GET', '/contracts?limit=100');
    expect(list.status).toBe(200);
    expect(list.body.data).toContainEqual(
      expect.objectContaining({ id, chain: 'evm', template: 'custom', beneficiaries: 2 }),
    );

    const other = await server.key({ ownerId: await server.account() });
    expect((await call(other, 'GET', `/contracts/${id}`)).body.error.code).toBe('NOT_FOUND');
    expect((await call(other, 'GET', '/contracts')).body.data).toEqual([]);
    // Another account cannot delete it either; its own account can, once.
    expect((await call(other, 'DELETE', `/contracts/${id}`)).status).toBe(404);
    expect((await call(server.adminKey, 'GET', `/contracts/${id}`)).status).toBe(200);
    expect((await call(server.adminKey, 'DELETE', `/contracts/${id}`)).body.data).toEqual({ id, deleted: true });
    expect((await call(server.adminKey, 'GET', `/contracts/${id}`)).status).toBe(404);
    expect((await call(server.adminKey, 'DELETE', `/contracts/${id}`)).status).toBe(404);
  }, 120_000);

  it('refuses a generation beyond the per-account bound with 409, before compiling', async () => {
    const ownerId = await server.account();
    const key = await server.key({ ownerId });
    const now = new Date().toISOString();
    await server.services.store.transact(async (tx) => {
      for (let i = 0; i < MAX_CONTRACTS_PER_ACCOUNT; i++) {
        const r: ContractRecord = {
          id: newId('contract'),
          ownerId,
          chain: 'evm',
          plan: PLAN as unknown as ContractRecord['plan'],
          source: '',
          compiled: {},
          advice: {},
          created: now,
        };
        await tx.put(CONTRACTS, r);
      }
    });
    const list = await call(key, 'GET', '/contracts?limit=1');
    expect(list.body.meta?.pagination?.total ?? list.body.pagination?.total).toBe(MAX_CONTRACTS_PER_ACCOUNT);
    // A page reads its own contracts, not the account's 500: oldest first, as the ids sort.
    const ids = (await server.services.store.findBy<ContractRecord>(CONTRACTS, 'ownerId', ownerId)).map((r) => r.id);
    const reads = countReads(server.services.store, CONTRACTS);
    try {
      const third = await call(key, 'GET', '/contracts?page=3&limit=20');
      expect(third.body.data.map((c: { id: string }) => c.id)).toEqual(ids.sort().slice(40, 60));
      expect(third.body.meta.pagination).toMatchObject({ page: 3, total: MAX_CONTRACTS_PER_ACCOUNT, hasNext: true });
      expect(reads.count()).toBeLessThanOrEqual(20);
    } finally {
      reads.restore();
    }
    const gen = await call(key, 'POST', '/contracts/generate', PLAN);
    expect(gen.status).toBe(409);
    expect(gen.body.error.code).toBe('CONFLICT');
    expect(gen.body.error.message).toContain(String(MAX_CONTRACTS_PER_ACCOUNT));
    // Deleting one frees room for the next.
    const oldest = (await call(key, 'GET', '/contracts?limit=1')).body.data[0].id as string;
    expect((await call(key, 'DELETE', `/contracts/${oldest}`)).status).toBe(200);
    expect((await call(key, 'POST', '/contracts/generate', PLAN)).status).toBe(200);
  }, 120_000);
});

describe('stored contracts on PostgreSQL', () => {
  const schema = randomSchema('svc_ctr');
  let pgServer: TestServer;
  let url: string;
  beforeAll(async () => {
    url = await testDatabaseUrl();
    pgServer = await startTestServer({ config: { databaseUrl: url, databaseSchema: schema } });
  });
  afterAll(async () => {
    await pgServer?.close();
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });

  it('lists and reads a generated contract, and hides it from another account', async () => {
    const headers = { authorization: `Bearer ${pgServer.adminKey}` };
    const gen = await pgServer.app.inject({
      method: 'POST',
      url: '/api/v1/contracts/generate',
      headers,
      payload: PLAN,
    });
    expect(gen.statusCode, gen.body.slice(0, 300)).toBe(200);
    const id = gen.json().id as string;
    const got = await pgServer.app.inject({ method: 'GET', url: `/api/v1/contracts/${id}`, headers });
    expect(got.json().data).toMatchObject({ id, chain: 'evm', deployData: gen.json().compiled.deployData });
    const list = await pgServer.app.inject({ method: 'GET', url: '/api/v1/contracts', headers });
    expect(list.json().data.map((c: { id: string }) => c.id)).toEqual([id]);
    const other = await pgServer.key({ ownerId: await pgServer.account() });
    const hidden = await pgServer.app.inject({
      method: 'GET',
      url: `/api/v1/contracts/${id}`,
      headers: { authorization: `Bearer ${other}` },
    });
    expect(hidden.json().error.code).toBe('NOT_FOUND');
  }, 120_000);
});

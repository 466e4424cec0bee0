import net from 'node:net';
import {
  type Abi,
  createWalletClient,
  decodeDeployData,
  encodeDeployData,
  getAddress,
  type Hex,
  http,
  createPublicClient,
  getContractAddress,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEPLOYMENTS, type DeploymentRecord } from '../../src/contracts/deployments.js';
import { MAX_DEPLOYMENTS_PER_CONTRACT } from '../../src/contracts/register-deployment.js';
import { EVENTS, type EventRecord } from '../../src/events/events.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { countReads } from '../support/store-wrap.js';
import { ANVIL_KEYS, type Anvil, startAnvil } from '../support/anvil.js';

// A registered deployment is verified against a real node (anvil): the code at the address and the constructor
// arguments must be the stored contract's; every tampering is named as a difference and sends contract.error.

let anvil: Anvil;
let server: TestServer;
let deadUrl: string;

async function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  anvil = await startAnvil();
  deadUrl = `http://127.0.0.1:${await closedPort()}`;
  server = await startTestServer({
    config: {
      chains: {
        evmRpcUrls: { '31337': anvil.url, '5': deadUrl },
        tonApis: {},
        watchPollMs: 15_000,
        watchConfirmations: 2,
      },
    },
  });
}, 120_000);
afterAll(async () => {
  await server?.close();
  await anvil?.stop();
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

/** Whether the OpenAPI document declares `status` for the operation (an answer the route gives must be declared). */
async function documents(method: string, path: string, status: number): Promise<boolean> {
  const doc = (await server.app.inject({ url: '/api/v1/openapi.json' })).json();
  return doc.paths[`/api/v1${path}`]?.[method]?.responses?.[String(status)] !== undefined;
}

const account = privateKeyToAccount(ANVIL_KEYS[0]);

async function deploy(data: Hex): Promise<{ address: Hex; txHash: Hex }> {
  const chain = { ...foundry, rpcUrls: { default: { http: [anvil.url] } } };
  const wallet = createWalletClient({ account, chain, transport: http(anvil.url) });
  const pub = createPublicClient({ chain, transport: http(anvil.url) });
  const txHash = await wallet.sendTransaction({ data, gas: 10_000_000n });
  const receipt = await pub.waitForTransactionReceipt({ hash: txHash });
  if (!receipt.contractAddress) throw new Error('no contract created');
  return { address: getAddress(receipt.contractAddress), txHash };
}

async function generate(plan: object) {
  const gen = await call(server.adminKey, 'POST', '/contracts/generate', plan);
  expect(gen.status, JSON.stringify(gen.body).slice(0, 300)).toBe(200);
  const c = (await call(server.adminKey, 'GET', `/contracts/${gen.body.id}`)).body.data;
  return c as { id: string; deployData: Hex; compiled: { abi: Abi; bytecode: Hex } };
}

/** Creation data of the same code with other constructor arguments. */
function withArgs(c: { deployData: Hex; compiled: { abi: Abi; bytecode: Hex } }, edit: (a: unknown[]) => void): Hex {
  const { args } = decodeDeployData({ abi: c.compiled.abi, bytecode: c.compiled.bytecode, data: c.deployData });
  const copy = structuredClone([...(args ?? [])]) as unknown[];
  edit(copy);
  return encodeDeployData({ abi: c.compiled.abi, bytecode: c.compiled.bytecode, args: copy });
}

async function eventsOf(deploymentId: string): Promise<EventRecord[]> {
  const all = await server.services.store.all<EventRecord>(EVENTS);
  return all.filter((e) => (e.data as { deploymentId?: string }).deploymentId === deploymentId);
}

describe('register_deployment on a real EVM node', () => {
  let c: Awaited<ReturnType<typeof generate>>;
  beforeAll(async () => {
    c = await generate(PLAN);
  }, 120_000);

  it('verifies a faithful deployment from its creation transaction, and sends each event once', async () => {
    const { address, txHash } = await deploy(c.deployData);
    const res = await call(server.adminKey, 'POST', `/contracts/${c.id}/deployments`, {
      network: 31337,
      address,
      txHash,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const d = res.body.data;
    expect(d).toMatchObject({
      status: 'verified',
      differences: [],
      network: '31337',
      txHash,
      deployer: account.address,
    });
    expect(d.blockNumber).toBeGreaterThan(0);
    const events = await eventsOf(d.id);
    expect(events.map((e) => e.type)).toEqual(['contract.deployed', 'contract.verified']);
    expect(events[1]?.data).toMatchObject({
      contractId: c.id,
      contractAddress: address,
      transactionHash: txHash,
      network: '31337',
      blockNumber: d.blockNumber,
      deployer: account.address,
    });
    const stored = await server.services.store.get<DeploymentRecord>(DEPLOYMENTS, d.id);
    expect(stored?.watch).toEqual({ snapshot: null, warned: [], warnDays: [30, 7], emitted: [], paused: false });
    // Listed and read back; the same place again is a 409 naming the first registration.
    const list = await call(server.adminKey, 'GET', `/contracts/${c.id}/deployments`);
    expect(list.body.data.map((x: { id: string }) => x.id)).toContain(d.id);
    expect((await call(server.adminKey, 'GET', `/deployments/${d.id}`)).body.data.address).toBe(address);
    const again = await call(server.adminKey, 'POST', `/contracts/${c.id}/deployments`, { network: 31337, address });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toContain(d.id);
    expect(await documents('post', '/contracts/{id}/deployments', 409)).toBe(true);
  }, 60_000);

  it('verifies a faithful deployment from its public state (no transaction given)', async () => {
    const { address } = await deploy(c.deployData);
    const res = await call(server.adminKey, 'POST', `/contracts/${c.id}/deployments`, { network: 31337, address });
    expect(res.body.data, JSON.stringify(res.body)).toMatchObject({
      status: 'verified',
      differences: [],
      txHash: null,
    });
  }, 60_000);

  it('names another share, from the transaction and from the public state', async () => {
    const data = withArgs(c, (a) => {
      a[2] = [5000n, 5000n];
    });
    for (const withTx of [true, false]) {
      const { address, txHash } = await deploy(data);
      const res = await call(server.adminKey, 'POST', `/contracts/${c.id}/deployments`, {
        network: 31337,
        address,
        ...(withTx ? { txHash } : {}),
      });
      expect(res.status).toBe(200);
      expect(res.body.data.status).toBe('unverified');
      expect(res.body.data.differences).toEqual([
        { field: 'shares[0]', expected: '6000', found: '5000' },
        { field: 'shares[1]', expected: '4000', found: '5000' },
      ]);
      const events = await eventsOf(res.body.data.id);
      expect(events.map((e) => e.type)).toEqual(['contract.error']);
      expect(events[0]?.data).toMatchObject({ contractAddress: address, differences: res.body.data.differences });
    }
  }, 60_000);

  it('names another beneficiary', async () => {
    const other = '0x000000000000000000000000000000000000dEaD';
    const { address, txHash } = await deploy(
      withArgs(c, (a) => {
        (a[1] as string[])[1] = other;
      }),
    );
    const res = await call(server.adminKey, 'POST', `/contracts/${c.id}/deployments`, {
      network: 31337,
      address,
      txHash,
    });
    expect(res.body.data.differences).toEqual([
      { field: 'beneficiaries[1]', expected: '0x8617E340B3D01FA5F11F306F4090FD50E238070D', found: other },
    ]);
  }, 60_000);

  it('names other code and a minimal proxy in front', async () => {
    const otherPlan = await generate({
      ...PLAN,
      deadMansSwitch: { enabled: true, intervalDays: 90, gracePeriodDays: 30 },
    });
    const { address } = await deploy(otherPlan.deployData);
    const res = await call(server.adminKey, 'POST', `/contracts/${c.id}/deployments`, { network: 31337, address });
    expect(res.body.data.status).toBe('unverified');
    expect(res.body.data.differences.map((d: { field: string }) => d.field)).toContain('code');

    const real = await deploy(c.deployData);
    const clone =
      `0x3d602d80600a3d3981f3363d3d373d3d3d363d73${real.address.slice(2).toLowerCase()}5af43d82803e903d91602b57fd5bf3` as Hex;
    const proxy = await deploy(clone);
    const p = await call(server.adminKey, 'POST', `/contracts/${c.id}/deployments`, {
      network: 31337,
      address: proxy.address,
    });
    expect(p.body.data.differences).toHaveLength(1);
    expect(p.body.data.differences[0].field).toBe('code');
    expect(p.body.data.differences[0].found).toContain('EIP-1167');
    expect((await eventsOf(p.body.data.id)).map((e) => e.type)).toEqual(['contract.error']);
  }, 120_000);

  it('registered before its transaction is mined, it is checked again once it is; it can be deleted', async () => {
    const chain = { ...foundry, rpcUrls: { default: { http: [anvil.url] } } };
    const pub = createPublicClient({ chain, transport: http(anvil.url) });
    const nonce = await pub.getTransactionCount({ address: account.address });
    const address = getContractAddress({ from: account.address, nonce: BigInt(nonce) });
    const early = await call(server.adminKey, 'POST', `/contracts/${c.id}/deployments`, { network: 31337, address });
    expect(early.status).toBe(200);
    expect(early.body.data.status).toBe('unverified');
    expect(early.body.data.differences[0].found).toBe('no code at this address');
    // Another contract may not take the place while this registration holds it.
    const other = await generate({ ...PLAN, deadMansSwitch: { enabled: true, intervalDays: 120 } });
    const taken = await call(server.adminKey, 'POST', `/contracts/${other.id}/deployments`, {
      network: 31337,
      address,
    });
    expect(taken.status).toBe(409);
    expect(taken.body.error.details[0].reason).toContain(early.body.data.id);

    // A memoir plan of the account names the address: the verified deployment watches it.
    const linked = await call(server.adminKey, 'POST', '/svcloom/heirs/plans', {
      plan: PLAN,
      contractAddress: address,
      heirAccess: { enabled: true },
    });
    expect(linked.status, JSON.stringify(linked.body)).toBe(201);
    const planId = linked.body.data.plan.id as string;

    const mined = await deploy(c.deployData);
    expect(mined.address).toBe(address);
    const again = await call(server.adminKey, 'POST', `/contracts/${c.id}/deployments`, { network: 31337, address });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.data).toMatchObject({ id: early.body.data.id, status: 'verified', differences: [] });
    expect(again.body.data.createdAt).toBe(early.body.data.createdAt);
    expect((await eventsOf(early.body.data.id)).map((e) => e.type)).toEqual([
      'contract.error',
      'contract.deployed',
      'contract.verified',
    ]);
    type Listed = { id: string; watched: boolean };
    const plan = async () =>
      ((await call(server.adminKey, 'GET', '/svcloom/heirs/plans?limit=100')).body.data as Listed[]).find(
        (p) => p.id === planId,
      );
    expect((await plan())?.watched).toBe(true);
    // Verified now: registering it once more is a duplicate.
    expect(
      (await call(server.adminKey, 'POST', `/contracts/${c.id}/deployments`, { network: 31337, address })).status,
    ).toBe(409);

    // Deleting it: another account's key, or the id under another contract, finds nothing.
    const path = `/contracts/${c.id}/deployments/${early.body.data.id}`;
    const stranger = await server.key({ ownerId: await server.account() });
    expect((await call(stranger, 'DELETE', path)).status).toBe(404);
    expect(
      (await call(server.adminKey, 'DELETE', `/contracts/${other.id}/deployments/${early.body.data.id}`)).status,
    ).toBe(404);
    const gone = await call(server.adminKey, 'DELETE', path);
    expect(gone.status).toBe(200);
    expect(gone.body.data).toEqual({ deleted: true, id: early.body.data.id, plansUnwatched: 1 });
    expect((await call(server.adminKey, 'GET', `/deployments/${early.body.data.id}`)).status).toBe(404);
    expect((await plan())?.watched).toBe(false);
    expect((await call(server.adminKey, 'DELETE', path)).status).toBe(404);
    // The place is free again, for the other contract too (which it does not match).
    const otherNow = await call(server.adminKey, 'POST', `/contracts/${other.id}/deployments`, {
      network: 31337,
      address,
    });
    expect(otherNow.status).toBe(200);
    expect(otherNow.body.data.status).toBe('unverified');
    // An unverified deployment is not watched: changing its watch is a 409, which the document declares.
    const watch = await server.app.inject({
      method: 'PATCH',
      url: `/api/v1/contracts/${other.id}/deployments/${otherNow.body.data.id}`,
      headers: { authorization: `Bearer ${server.adminKey}` },
      payload: { paused: true },
    });
    expect(watch.statusCode, watch.body).toBe(409);
    expect(await documents('patch', '/contracts/{id}/deployments/{deploymentId}', 409)).toBe(true);
  }, 120_000);

  it('a creation transaction not mined yet is named as such, not as one that created nothing', async () => {
    const rpc = (method: string, params: unknown[] = []) =>
      fetch(anvil.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      }).then((r) => r.json());
    const chain = { ...foundry, rpcUrls: { default: { http: [anvil.url] } } };
    const wallet = createWalletClient({ account, chain, transport: http(anvil.url) });
    const pub = createPublicClient({ chain, transport: http(anvil.url) });
    const nonce = await pub.getTransactionCount({ address: account.address });
    const address = getContractAddress({ from: account.address, nonce: BigInt(nonce) });
    await rpc('evm_setAutomine', [false]);
    try {
      const txHash = await wallet.sendTransaction({ data: c.deployData, gas: 10_000_000n });
      const before = (await server.services.store.all(DEPLOYMENTS)).length;
      const pending = await call(server.adminKey, 'POST', `/contracts/${c.id}/deployments`, {
        network: 31337,
        address,
        txHash,
      });
      expect(pending.status).toBe(400);
      expect(pending.body.error.details[0]).toMatchObject({ field: 'txHash' });
      expect(pending.body.error.message).toContain('not mined yet');
      expect((await server.services.store.all(DEPLOYMENTS)).length).toBe(before);
    } finally {
      await rpc('evm_setAutomine', [true]);
      await rpc('evm_mine');
    }
  }, 60_000);

  it('refuses bad requests with clear errors and stores nothing', async () => {
    const address = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
    const post = (key: string, body: object) => call(key, 'POST', `/contracts/${c.id}/deployments`, body);
    const noEndpoint = await post(server.adminKey, { network: 999, address });
    expect(noEndpoint.status).toBe(400);
    expect(noEndpoint.body.error.message).toContain('SVC_EVM_RPC_URLS');
    const family = await post(server.adminKey, { network: 'ton-testnet', address });
    expect(family.status).toBe(400);
    expect(family.body.error.message).toContain('evm');
    expect((await post(server.adminKey, { network: 31337, address: '0x1234' })).status).toBe(400);
    // A mixed-case address whose EIP-55 checksum fails is a typo: named, not registered as another address.
    const typo = await post(server.adminKey, { network: 31337, address: address.replace('F642', 'f642') });
    expect(typo.status).toBe(400);
    expect(typo.body.error.details[0]).toEqual({
      field: 'address',
      reason: `This address has a typo: did you mean ${address}?`,
    });
    expect((await post(server.adminKey, { network: 'mars', address })).status).toBe(400);
    const other = await server.key({ ownerId: await server.account() });
    expect((await post(other, { network: 31337, address })).status).toBe(404);
    expect((await call(other, 'GET', `/contracts/${c.id}/deployments`)).status).toBe(404);
    const before = (await server.services.store.all(DEPLOYMENTS)).length;
    const down = await post(server.adminKey, { network: 5, address });
    expect(down.status).toBe(503);
    expect(down.body.error.message).toContain('did not answer');
    expect(JSON.stringify(down.body)).not.toContain(deadUrl);
    expect((await server.services.store.all(DEPLOYMENTS)).length).toBe(before);
  }, 60_000);

  it('holds at most 20 registrations per contract, and finds a place however its address is written', async () => {
    const bounded = await generate({ ...PLAN, deadMansSwitch: { enabled: true, intervalDays: 240 } });
    const path = `/contracts/${bounded.id}/deployments`;
    // Addresses with no code on the node: each registration is stored, unverified.
    const places = Array.from({ length: MAX_DEPLOYMENTS_PER_CONTRACT }, (_, i) =>
      getAddress(`0x${'d'.repeat(36)}${String(i).padStart(4, '0')}`),
    );
    const first = await call(server.adminKey, 'POST', path, { network: 31337, address: places[0]!.toLowerCase() });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    // Stored in its checksummed spelling, and the same place written in upper case is that registration.
    expect(first.body.data.address).toBe(places[0]);
    const upper = `0x${places[0]!.slice(2).toUpperCase()}`;
    const again = await call(server.adminKey, 'POST', path, { network: 31337, address: upper });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.data.id).toBe(first.body.data.id);
    for (const address of places.slice(1))
      expect((await call(server.adminKey, 'POST', path, { network: 31337, address })).status).toBe(200);
    const more = await call(server.adminKey, 'POST', path, {
      network: 31337,
      address: getAddress(`0x${'e'.repeat(40)}`),
    });
    expect(more.status).toBe(409);
    expect(more.body.error.message).toContain(`${MAX_DEPLOYMENTS_PER_CONTRACT} registered deployments`);
    // A place it holds already is checked again, not a further registration.
    expect((await call(server.adminKey, 'POST', path, { network: 31337, address: places[7] })).status).toBe(200);
    const listed = (await call(server.adminKey, 'GET', `${path}?limit=100`)).body.data as unknown[];
    expect(listed).toHaveLength(MAX_DEPLOYMENTS_PER_CONTRACT);
    // Another account's registration of the same place, for a contract of its own, is its own: neither refused nor
    // told of this account's.
    const theirKey = await server.key({ ownerId: await server.account(), tier: 'partner', scopes: ['contracts'] });
    const theirs = await call(theirKey, 'POST', '/contracts/generate', PLAN);
    expect(theirs.status).toBe(200);
    // And however many other accounts registered it too, their records are not read for this one.
    const listedPlace = (listed as DeploymentRecord[]).find((d) => d.address === places[0])!;
    await server.services.store.transact(async (tx) => {
      for (let i = 0; i < 40; i++)
        await tx.put(DEPLOYMENTS, { ...listedPlace, id: `dep_other_${i}`, ownerId: `acct_other_${i}` });
    });
    const reads = countReads(server.services.store, DEPLOYMENTS);
    let their: Awaited<ReturnType<typeof call>>;
    try {
      their = await call(theirKey, 'POST', `/contracts/${theirs.body.id}/deployments`, {
        network: 31337,
        address: places[0],
      });
    } finally {
      reads.restore();
    }
    expect(their.status, JSON.stringify(their.body)).toBe(200);
    expect(their.body.data.id).not.toBe(first.body.data.id);
    expect(reads.count()).toBeLessThan(10);
  }, 120_000);
});

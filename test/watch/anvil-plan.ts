import { type Abi, createPublicClient, createWalletClient, getAddress, type Hex, http, parseEther } from 'viem';
import type { PrivateKeyAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { expect } from 'vitest';
import { createEvmReader, type EvmReader } from '../../src/chains/evm.js';
import { systemClock } from '../../src/core/clock.js';
import { Watcher } from '../../src/watch/watcher.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { type Anvil, startAnvil } from '../support/anvil.js';

/** A REST call to the service under test: `{status, body}` of `/api/v1<url>`. */
export type Call = (
  method: 'GET' | 'POST',
  url: string,
  payload?: object,
) => Promise<{ status: number; body: unknown }>;

/** A generated contract as `GET /contracts/:id` gives it, as far as deploying it needs. */
type GeneratedContract = { id: string; deployData: Hex; compiled: { abi: Abi } };

/** Signed transactions on an anvil node (of chain `chainId`: anvil's own unless started with another), each waited for and checked to succeed. */
export function anvilClients(url: string, chainId: number = foundry.id) {
  const chain = { ...foundry, id: chainId, rpcUrls: { default: { http: [url] } } };
  const pub = createPublicClient({ chain, transport: http(url) });
  const wallet = (account: PrivateKeyAccount) => createWalletClient({ account, chain, transport: http(url) });
  return {
    pub,
    async send(account: PrivateKeyAccount, tx: { to?: Hex; data?: Hex; value?: bigint }) {
      const hash = await wallet(account).sendTransaction({ ...tx, gas: 10_000_000n });
      const receipt = await pub.waitForTransactionReceipt({ hash });
      if (receipt.status !== 'success') throw new Error(`transaction failed: ${hash}`);
      return receipt;
    },
    async write(account: PrivateKeyAccount, address: Hex, abi: Abi, functionName: string): Promise<void> {
      const hash = await wallet(account).writeContract({ address, abi, functionName, gas: 1_000_000n, chain });
      const receipt = await pub.waitForTransactionReceipt({ hash });
      if (receipt.status !== 'success') throw new Error(`${functionName} failed`);
    },
  };
}

/** The watcher tests' plan: two heirs (60/40) and a 60-day switch. */
export function watchedPlan(owner: PrivateKeyAccount, heirA: PrivateKeyAccount, heirB: PrivateKeyAccount) {
  return {
    blockchain: 'evm',
    ownerAddress: owner.address,
    beneficiaries: [
      { name: 'A', address: heirA.address, percentage: 60 },
      { name: 'B', address: heirB.address, percentage: 40 },
    ],
    deadMansSwitch: { enabled: true, intervalDays: 60 },
  };
}

/** Generates `plan` through the service, deploys its creation data from `owner` and funds it with 10 ETH. */
export async function deployGenerated(
  call: Call,
  clients: ReturnType<typeof anvilClients>,
  owner: PrivateKeyAccount,
  plan: object,
): Promise<{ c: GeneratedContract; address: Hex; hash: Hex }> {
  const gen = await call('POST', '/contracts/generate', plan);
  expect(gen.status, JSON.stringify(gen.body).slice(0, 300)).toBe(200);
  const c = ((await call('GET', `/contracts/${(gen.body as { id: string }).id}`)).body as { data: GeneratedContract })
    .data;
  const receipt = await clients.send(owner, { data: c.deployData });
  const address = getAddress(receipt.contractAddress!);
  await clients.send(owner, { to: address, value: parseEther('10') });
  return { c, address, hash: receipt.transactionHash };
}

/** A REST caller with `server()`'s admin key: `{status, body}` of `/api/v1<url>`. */
export function adminCall(server: () => TestServer) {
  return async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) => {
    const s = server();
    const res = await s.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { authorization: `Bearer ${s.adminKey}` },
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  };
}

/** Polls `probe` every 25 ms until it answers something truthy; fails after 30 s naming `what`. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | false> | T | undefined | false,
): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const got = await probe();
    if (got) return got;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** A fresh anvil node, and a test server (not listening) whose EVM endpoint for chain 31337 it is. */
export async function startAnvilServer(watchPollMs: number): Promise<{ anvil: Anvil; server: TestServer }> {
  const anvil = await startAnvil();
  const server = await startTestServer({
    config: { chains: { evmRpcUrls: { '31337': anvil.url }, tonApis: {}, watchPollMs, watchConfirmations: 2 } },
    listen: false,
  });
  return { anvil, server };
}

/** Links a memoir plan (heirs' access on) to the contract at `contractAddress`: the plan's id. */
export async function linkPlan(call: Call, plan: object, contractAddress: string): Promise<string> {
  const linked = await call('POST', '/svcloom/heirs/plans', { plan, contractAddress, heirAccess: { enabled: true } });
  expect(linked.status, JSON.stringify(linked.body)).toBe(201);
  return (linked.body as { data: { plan: { id: string } } }).data.plan.id;
}

/** Registers the deployment of contract `contractId` on anvil (chain 31337), which verifies it: the deployment. */
export async function registerOnAnvil(
  call: Call,
  contractId: string,
  address: Hex,
  txHash: Hex,
): Promise<{ id: string; status: string; watch: unknown }> {
  const reg = await call('POST', `/contracts/${contractId}/deployments`, { network: 31337, address, txHash });
  expect(reg.status, JSON.stringify(reg.body)).toBe(200);
  const d = (reg.body as { data: { id: string; status: string; watch: unknown } }).data;
  expect(d.status).toBe('verified');
  return d;
}

/**
 * A watcher of chain 31337 on the test server's store, polling every `pollMs` (60 s: the test calls pollOnce) and
 * reading `url` (anvil's, or the endpoint a test swaps in), or through `reader` when the test wraps one.
 */
export function anvilWatcher(
  server: TestServer,
  url: string,
  opts: { pollMs?: number; confirmations?: number; reader?: EvmReader } = {},
): Watcher {
  return new Watcher({
    store: server.services.store,
    clock: systemClock,
    networks: ['31337'],
    pollMs: opts.pollMs ?? 60_000,
    confirmations: opts.confirmations ?? 2,
    readerFor: async () => opts.reader ?? createEvmReader(url, foundry.id),
  });
}

import {
  type Abi,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  parseEther,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { foundry } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOCK_ERC20_SOURCE, MOCK_ERC721_SOURCE } from '../../src/contracts/evm/mocks.js';
import { DEPLOYMENTS, type DeploymentRecord } from '../../src/contracts/deployments.js';
import { EVENTS, type EventRecord } from '../../src/events/events.js';
import { MEMOIR_HEIR_PLANS, type HeirPlanRecord } from '../../src/memoir/heir-plans.js';
import { isClaimable } from '../../src/store/port.js';
import { WATCH_CURSORS, type CursorRecord } from '../../src/watch/reorg.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { ANVIL_KEYS, type Anvil, startAnvil } from '../support/anvil.js';
import { dropSchemas, randomSchema, testDatabaseUrl } from '../support/engines.js';
import { watchedPlan, linkPlan, registerOnAnvil, anvilWatcher } from './anvil-plan.js';

// The watcher on anvil, on each store engine: a plan holding ETH, an ERC-20 and a listed NFT. Reorganisations are
// made with anvil's snapshots: one shallower than the confirmations is never seen; a deeper one is found by the
// block hashes, the deployment is read again from the common ancestor, and nothing the abandoned branch said is
// sent again (an undone check-in is not reported twice; a claim included again in another block is not reported
// twice). Each claim (native, token, NFT) is reported once with what was claimed, also by a new watcher on the
// same store.

const DAY = 86_400;
const CONFIRMATIONS = 2;
const owner = privateKeyToAccount(ANVIL_KEYS[0]);
const heirA = privateKeyToAccount(ANVIL_KEYS[1]);
const heirB = privateKeyToAccount(ANVIL_KEYS[2]);
type Account = typeof owner;

let anvil: Anvil;

beforeAll(async () => {
  anvil = await startAnvil();
}, 60_000);
afterAll(async () => {
  await anvil?.stop();
});

const chain = () => ({ ...foundry, rpcUrls: { default: { http: [anvil.url] } } });
const pub = () => createPublicClient({ chain: chain(), transport: http(anvil.url) });
const wallet = (account: Account) => createWalletClient({ account, chain: chain(), transport: http(anvil.url) });

async function send(account: Account, tx: { to?: Hex; data: Hex; value?: bigint }): Promise<Hex> {
  const hash = await wallet(account).sendTransaction({ ...tx, gas: 10_000_000n });
  const receipt = await pub().waitForTransactionReceipt({ hash });
  if (receipt.status !== 'success') throw new Error(`transaction failed: ${hash}`);
  return receipt.contractAddress ? getAddress(receipt.contractAddress) : hash;
}

const calldata = (abi: Abi, functionName: string, args: unknown[] = []) =>
  encodeFunctionData({ abi, functionName, args });

describe.each(['lowdb', 'postgres'] as const)('token and NFT claims and reorganisations on anvil (%s)', (engine) => {
  let server: TestServer;
  let schema: string | undefined;
  let dbUrl = '';

  beforeAll(async () => {
    schema = engine === 'postgres' ? randomSchema('svc_watchclaims') : undefined;
    if (schema) dbUrl = await testDatabaseUrl();
    const chains = { evmRpcUrls: { '31337': anvil.url }, tonApis: {}, watchPollMs: 60_000, watchConfirmations: 2 };
    server = await startTestServer({
      config: schema ? { chains, databaseUrl: dbUrl, databaseSchema: schema } : { chains },
      listen: false,
    });
    // PostgreSQL's store claims rows; the embedded one does not: the engine asked for is the one running.
    expect(isClaimable(server.services.store)).toBe(engine === 'postgres');
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    if (schema) await dropSchemas(dbUrl, schema);
  });

  async function call(method: 'GET' | 'POST', url: string, payload?: object) {
    const res = await server.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { authorization: `Bearer ${server.adminKey}` },
      ...(payload ? { payload } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  }

  async function deployMock(source: string, name: string): Promise<{ address: Hex; abi: Abi }> {
    const out = await call('POST', '/contracts/compile', { blockchain: 'evm', sourceCode: source, contractName: name });
    expect(out.status, JSON.stringify(out.body).slice(0, 300)).toBe(200);
    const { abi, bytecode } = out.body.compiled as { abi: Abi; bytecode: Hex };
    // Deployed by an heir: the generation's own execution check deploys from the owner's first addresses.
    return { address: await send(heirA, { data: bytecode }), abi };
  }

  const newWatcher = () => anvilWatcher(server, anvil.url, { confirmations: CONFIRMATIONS });

  it('reports each claim once, and reorganisations neither double nor keep what they undid', async () => {
    // The third development key's account is not among anvil's funded ones: B pays its claims' gas from this.
    await send(owner, { to: heirB.address, data: '0x', value: parseEther('1') });
    const token = await deployMock(MOCK_ERC20_SOURCE, 'MockERC20');
    const nft = await deployMock(MOCK_ERC721_SOURCE, 'MockERC721');
    const plan = {
      ...watchedPlan(owner, heirA, heirB),
      assets: [
        { type: 'erc20', address: token.address },
        { type: 'erc721', address: nft.address, tokenId: '7', beneficiary: heirB.address },
      ],
    };
    const gen = await call('POST', '/contracts/generate', plan);
    expect(gen.status, JSON.stringify(gen.body).slice(0, 300)).toBe(200);
    const c = (await call('GET', `/contracts/${gen.body.id}`)).body.data as {
      id: string;
      deployData: Hex;
      compiled: { abi: Abi };
    };
    const abi = c.compiled.abi;
    const txHash = await wallet(owner).sendTransaction({ data: c.deployData, gas: 10_000_000n });
    const address = getAddress((await pub().waitForTransactionReceipt({ hash: txHash })).contractAddress!);
    await send(owner, { to: address, data: '0x', value: parseEther('10') });
    await send(owner, { to: token.address, data: calldata(token.abi, 'mint', [address, 1000n]) });
    await send(owner, { to: nft.address, data: calldata(nft.abi, 'mint', [owner.address, 7n]) });
    await send(owner, {
      to: nft.address,
      data: calldata(nft.abi, 'safeTransferFrom', [owner.address, address, 7n]),
    });

    const planId = await linkPlan(call, plan, address);
    const depId = (await registerOnAnvil(call, c.id, address, txHash)).id;
    const store = server.services.store;
    const recorded = async () =>
      (await store.all<EventRecord>(EVENTS)).filter(
        (e) => e.type.startsWith('deadman.') && e.data.deploymentId === depId,
      );
    const snapshotOf = async () => (await store.get<DeploymentRecord>(DEPLOYMENTS, depId))!.watch!.snapshot!;

    await anvil.mine(CONFIRMATIONS + 1);
    let watcher = newWatcher();
    const first = await watcher.pollOnce('31337');
    expect(first).toMatchObject({ read: 1, events: 0, failed: 0, reorg: null });
    const checkedIn0 = (await snapshotOf()).lastCheckIn;
    expect((await snapshotOf()).blockHash).toBe((await pub().getBlock({ blockNumber: BigInt(first.block!) })).hash);
    expect((await store.get<CursorRecord>(WATCH_CURSORS, 'cursor:31337'))?.block).toBe(first.block);

    // A check-in undone by a reorganisation shallower than the confirmations: never read, never reported.
    const shallow = await anvil.rpc<Hex>('evm_snapshot');
    await anvil.advance(100);
    await send(owner, { to: address, data: calldata(abi, 'checkIn') });
    expect(await watcher.pollOnce('31337')).toMatchObject({ events: 0, reorg: null });
    expect(await anvil.rpc('evm_revert', [shallow])).toBe(true);
    await anvil.advance(200);
    await anvil.mine(CONFIRMATIONS + 1);
    expect(await watcher.pollOnce('31337')).toMatchObject({ events: 0, reorg: null, failed: 0 });
    expect(await recorded()).toEqual([]);

    // A deeper one: the check-in was confirmed and reported; then the branch holding it is abandoned. The block
    // hashes show it, the deployment is read again from the common ancestor, and the switch is as it was.
    const deep = await anvil.rpc<Hex>('evm_snapshot');
    await anvil.advance(100);
    await send(owner, { to: address, data: calldata(abi, 'checkIn') });
    const checkInBlock = Number(await pub().getBlockNumber());
    await anvil.mine(CONFIRMATIONS + 1);
    const reset = await watcher.pollOnce('31337');
    expect(reset).toMatchObject({ events: 1, reorg: null });
    const checkedIn1 = (await snapshotOf()).lastCheckIn;
    expect(checkedIn1).toBeGreaterThan(checkedIn0);
    expect(await anvil.rpc('evm_revert', [deep])).toBe(true);
    await anvil.advance(300);
    await anvil.mine(CONFIRMATIONS + 3);
    const reorg = await watcher.pollOnce('31337');
    expect(reorg.events).toBe(0);
    expect(reorg.failed).toBe(0);
    expect(reorg.reorg).not.toBeNull();
    // The common ancestor: a block read before, below the abandoned check-in.
    expect(reorg.reorg!).toBeGreaterThanOrEqual(first.block!);
    expect(reorg.reorg!).toBeLessThan(checkInBlock);
    expect(watcher.stats.reorgs).toBe(1);
    const after = await snapshotOf();
    expect(after.lastCheckIn).toBe(checkedIn0);
    expect(after.blockHash).toBe((await pub().getBlock({ blockNumber: BigInt(after.block) })).hash);
    expect((await recorded()).map((e) => [e.type, e.data.lastCheckIn])).toEqual([['deadman.reset', checkedIn1]]);
    // The chain agrees again: the next poll finds no reorganisation.
    await anvil.mine(1);
    expect(await watcher.pollOnce('31337')).toMatchObject({ events: 0, reorg: null });

    // The new branch has its own check-in, earlier than the abandoned one: compared with the switch at the common
    // ancestor (not with the abandoned read) it is a check-in, and it is reported.
    const deep2 = await anvil.rpc<Hex>('evm_snapshot');
    await anvil.advance(100);
    await send(owner, { to: address, data: calldata(abi, 'checkIn') });
    await anvil.mine(CONFIRMATIONS + 1);
    expect(await watcher.pollOnce('31337')).toMatchObject({ events: 1, reorg: null });
    const checkedIn3 = (await snapshotOf()).lastCheckIn;
    expect(await anvil.rpc('evm_revert', [deep2])).toBe(true);
    await anvil.advance(20);
    await send(owner, { to: address, data: calldata(abi, 'checkIn') });
    await anvil.mine(CONFIRMATIONS + 2);
    const reorg2 = await watcher.pollOnce('31337');
    expect(reorg2).toMatchObject({ events: 1, failed: 0 });
    expect(reorg2.reorg).not.toBeNull();
    const checkedIn4 = (await snapshotOf()).lastCheckIn;
    expect(checkedIn4).toBeLessThan(checkedIn3);
    expect((await recorded()).map((e) => [e.type, e.data.lastCheckIn])).toEqual([
      ['deadman.reset', checkedIn1],
      ['deadman.reset', checkedIn3],
      ['deadman.reset', checkedIn4],
    ]);

    // 31 days later, 29 are left: the 30-day warning.
    await anvil.advance(31 * DAY);
    await anvil.mine(CONFIRMATIONS + 1);
    expect(await watcher.pollOnce('31337')).toMatchObject({ events: 1 });
    const warning = (await recorded()).at(-1)!;
    expect(warning).toMatchObject({ type: 'deadman.warning', data: { leadDays: 30 } });
    const { deadline, blockTime } = warning.data as { deadline: number; blockTime: number };
    expect(warning.data.daysLeft).toBe(Math.floor((deadline - blockTime) / DAY));

    // Past the deadline: the trigger opens the plan; each heir claims ETH, A its token share, B its NFT.
    await anvil.advance(61 * DAY);
    await anvil.mine(CONFIRMATIONS + 1);
    expect(await watcher.pollOnce('31337')).toMatchObject({ events: 1 });
    expect((await store.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, planId))?.state).toBe('triggered');
    await send(heirA, { to: address, data: calldata(abi, 'claim') });
    const tokenTx = await send(heirA, { to: address, data: calldata(abi, 'claimToken', [token.address]) });
    const nftTx = await send(heirB, { to: address, data: calldata(abi, 'claimNftTo', [0n, owner.address]) });
    await anvil.mine(CONFIRMATIONS);
    expect(await watcher.pollOnce('31337')).toMatchObject({ events: 3, failed: 0 });
    const claims = () => recorded().then((all) => all.filter((e) => e.type === 'deadman.claimed').map((e) => e.data));
    expect(await claims()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ asset: 'native', beneficiary: heirA.address, amount: parseEther('6').toString() }),
        expect.objectContaining({
          asset: 'erc20',
          token: token.address,
          beneficiary: heirA.address,
          amount: '600',
          transactionHash: tokenTx,
          contractAddress: address,
          network: '31337',
        }),
        expect.objectContaining({
          asset: 'erc721',
          token: nft.address,
          tokenId: '7',
          beneficiary: heirB.address,
          recipient: owner.address,
          transactionHash: nftTx,
        }),
      ]),
    );
    expect(await claims()).toHaveLength(3);

    // B's token claim, confirmed and reported, then undone by a reorganisation and included again (the same signed
    // transaction) in another block: reported once.
    const beforeClaim = await anvil.rpc<Hex>('evm_snapshot');
    const signed = await wallet(heirB).signTransaction({
      to: address,
      data: calldata(abi, 'claimToken', [token.address]),
      gas: 500_000n,
      nonce: await pub().getTransactionCount({ address: heirB.address }),
      maxFeePerGas: 100_000_000_000n,
      maxPriorityFeePerGas: 1n,
      chain: chain(),
    });
    const claimB = await pub().sendRawTransaction({ serializedTransaction: signed });
    const firstInclusion = await pub().waitForTransactionReceipt({ hash: claimB });
    await anvil.mine(CONFIRMATIONS + 1);
    expect(await watcher.pollOnce('31337')).toMatchObject({ events: 1, reorg: null });
    expect(await anvil.rpc('evm_revert', [beforeClaim])).toBe(true);
    await anvil.advance(50);
    await anvil.mine(CONFIRMATIONS + 2);
    // Undone: the reorganisation is found, nothing is sent.
    const undone = await watcher.pollOnce('31337');
    expect(undone).toMatchObject({ events: 0, failed: 0 });
    expect(undone.reorg).not.toBeNull();
    expect(await pub().sendRawTransaction({ serializedTransaction: signed })).toBe(claimB);
    const secondInclusion = await pub().waitForTransactionReceipt({ hash: claimB });
    expect(secondInclusion.blockNumber).not.toBe(firstInclusion.blockNumber);
    await anvil.mine(CONFIRMATIONS + 1);
    expect(await watcher.pollOnce('31337')).toMatchObject({ events: 0, failed: 0 });
    const bTokens = (await claims()).filter((d) => d.asset === 'erc20' && d.beneficiary === heirB.address);
    expect(bTokens).toEqual([expect.objectContaining({ amount: '400', transactionHash: claimB })]);

    // A new watcher on the same store, with the network's cursor and the deployment's snapshot gone, reads
    // everything again since the contract's creation and sends nothing: each event's once-key is kept.
    await watcher.stop();
    await store.delete(WATCH_CURSORS, 'cursor:31337');
    const d = (await store.get<DeploymentRecord>(DEPLOYMENTS, depId))!;
    await store.put(DEPLOYMENTS, { ...d, watch: { ...d.watch!, snapshot: null } });
    watcher = newWatcher();
    await anvil.mine(1);
    expect(await watcher.pollOnce('31337')).toMatchObject({ events: 0, failed: 0 });
    await watcher.stop();
    expect((await recorded()).map((e) => e.type)).toEqual([
      'deadman.reset',
      'deadman.reset',
      'deadman.reset',
      'deadman.warning',
      'deadman.triggered',
      'deadman.claimed',
      'deadman.claimed',
      'deadman.claimed',
      'deadman.claimed',
    ]);
  }, 120_000);
});

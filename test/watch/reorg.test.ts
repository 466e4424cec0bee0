import type { Abi, Hex } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvmLog, EvmReader } from '../../src/chains/evm.js';
import type { SwitchSnapshot } from '../../src/contracts/deployments.js';
import { openLowdbStore, type Store } from '../../src/store/index.js';
import { decide } from '../../src/watch/decide.js';
import { claimsOf, readClaimLogs, LOG_BLOCK_RANGE } from '../../src/watch/evm-claims.js';
import { findAncestor, HASHES_KEPT, loadCursor, saveCursor } from '../../src/watch/reorg.js';
import { tmpDir } from '../helpers.js';

// The bookkeeping under the reorganisation check and the token and NFT claims, without a node: the common ancestor
// found from the recorded hashes, the cursor kept short and cut back after a reorganisation, log queries in slices,
// and the once-keys of claims. The same paths run on anvil in test/watch/watcher-claims-anvil.test.ts.

const hash = (branch: number, n: number) => `0x${branch.toString(16)}${n.toString(16).padStart(63, '0')}`;

describe('the common ancestor', () => {
  const cursor = (blocks: number[], branch = 0) => ({
    id: 'cursor:1',
    network: '1',
    block: blocks.at(-1)!,
    hashes: blocks.map((n) => [n, hash(branch, n)] as [number, string]),
  });

  it('is null while the chain still has the newest block read', async () => {
    const asked: number[] = [];
    const at = async (n: number) => {
      asked.push(n);
      return hash(0, n);
    };
    expect(await findAncestor(cursor([10, 12, 15]), 20, at)).toBeNull();
    // One lookup: each block commits to its parent.
    expect(asked).toEqual([15]);
    expect(await findAncestor(undefined, 20, at)).toBeNull();
  });

  it('is the newest recorded block the chain still has, or -1 when none', async () => {
    // Blocks above 12 were replaced.
    const at = async (n: number) => hash(n > 12 ? 1 : 0, n);
    expect(await findAncestor(cursor([10, 12, 15]), 20, at)).toBe(12);
    // The chain is now shorter than what was read: the blocks above the target are gone.
    expect(await findAncestor(cursor([10, 12, 15]), 13, async (n) => hash(0, n))).toBe(12);
    // Every recorded block replaced.
    expect(await findAncestor(cursor([10, 12, 15]), 20, async (n) => hash(2, n))).toBe(-1);
  });
});

describe('the cursor', () => {
  let store: Store;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const dir = await tmpDir('svc-reorg-');
    store = await openLowdbStore({ dataDir: dir.dir });
    cleanup = async () => {
      await store.close();
      await dir.cleanup();
    };
  });
  afterAll(() => cleanup());

  it('keeps the recent hashes, and drops the abandoned ones after a reorganisation', async () => {
    for (let n = 1; n <= HASHES_KEPT + 10; n++) await saveCursor(store, '5', n, hash(0, n), null);
    let c = (await loadCursor(store, '5'))!;
    expect(c.block).toBe(HASHES_KEPT + 10);
    expect(c.hashes).toHaveLength(HASHES_KEPT);
    expect(c.hashes[0]).toEqual([11, hash(0, 11)]);
    await saveCursor(store, '5', 72, hash(1, 72), 60);
    c = (await loadCursor(store, '5'))!;
    expect(c.hashes.at(-2)).toEqual([60, hash(0, 60)]);
    expect(c.hashes.at(-1)).toEqual([72, hash(1, 72)]);
    expect(c.hashes.filter(([n]) => n > 60 && n < 72)).toEqual([]);
  });
});

const A = '0x00000000000000000000000000000000000000aa' as Hex;
const TOKEN = '0x1111111111111111111111111111111111111111' as Hex;
const NFT = '0x2222222222222222222222222222222222222222' as Hex;
const HEIR = '0x52908400098527886E0F7030069857D2E4169EE7' as Hex;
const ELSEWHERE = '0x8617E340B3D01FA5F11F306F4090FD50E238070D' as Hex;
const tx = (n: number) => `0x${n.toString(16).padStart(64, '0')}` as Hex;

function log(eventName: string, args: Record<string, unknown>, block: number, index: number, txn: number): EvmLog {
  return {
    address: A,
    eventName,
    args,
    blockNumber: BigInt(block),
    blockHash: hash(0, block) as Hex,
    transactionHash: tx(txn),
    logIndex: index,
  };
}

function readerWith(logs: EvmLog[], nfts: [Hex, bigint, Hex, boolean][]) {
  const queries: [bigint, bigint, number][] = [];
  const reader = {
    getLogs: async (addresses: readonly Hex[], _events: unknown, from: bigint, to: bigint) => {
      queries.push([from, to, addresses.length]);
      return logs.filter((l) => l.blockNumber >= from && l.blockNumber <= to);
    },
    readContractAt: async (_a: Hex, _abi: Abi, name: string, args: readonly unknown[]) =>
      name === 'nftCount' ? BigInt(nfts.length) : nfts[Number(args[0])],
  } as unknown as EvmReader;
  return { reader, queries };
}

const ABI = [
  { type: 'function', name: 'nftCount', stateMutability: 'view', inputs: [], outputs: [{ type: 'uint256' }] },
  {
    type: 'function',
    name: 'nftAt',
    stateMutability: 'view',
    inputs: [{ type: 'uint256', name: 'index' }],
    outputs: [{ type: 'address' }, { type: 'uint256' }, { type: 'address' }, { type: 'bool' }],
  },
] as unknown as Abi;

describe('token and NFT claims', () => {
  it('are read in slices of blocks, oldest first', async () => {
    const far = Number(LOG_BLOCK_RANGE) + 5;
    const logs = [
      log('TokenClaimed', { token: TOKEN, beneficiary: HEIR, amount: 5n }, far, 0, 2),
      log('TokenClaimed', { token: TOKEN, beneficiary: HEIR, amount: 7n }, 3, 1, 1),
    ];
    const { reader, queries } = readerWith(logs, []);
    const got = await readClaimLogs(reader, [A], 1n, BigInt(far));
    expect(queries.map(([f, t]) => [Number(f), Number(t)])).toEqual([
      [1, Number(LOG_BLOCK_RANGE)],
      [Number(LOG_BLOCK_RANGE) + 1, far],
    ]);
    expect(got.get(A)!.map((l) => l.args.amount)).toEqual([7n, 5n]);
  });

  it('each has a once-key that a re-read finds again; an NFT names its beneficiary and where it went', async () => {
    const logs = [
      log('TokenClaimed', { token: TOKEN, beneficiary: HEIR, amount: 5n }, 3, 0, 1),
      // Two claims of the same token by the same beneficiary in one transaction are two claims.
      log('TokenClaimed', { token: TOKEN, beneficiary: HEIR, amount: 5n }, 3, 1, 1),
      log('NftClaimed', { token: NFT, tokenId: 7n, recipient: ELSEWHERE }, 4, 0, 2),
    ];
    const { reader } = readerWith(logs, [[NFT, 7n, HEIR, true]]);
    const claims = await claimsOf(reader, ABI, A, logs, 5n);
    expect(claims.map((c) => c.key)).toEqual([
      `claimed:erc20:${tx(1)}:${TOKEN}:${HEIR.toLowerCase()}:0`,
      `claimed:erc20:${tx(1)}:${TOKEN}:${HEIR.toLowerCase()}:1`,
      `claimed:erc721:${NFT}:7`,
    ]);
    expect(claims[2]).toMatchObject({ asset: 'erc721', beneficiary: HEIR, recipient: ELSEWHERE, tokenId: '7' });

    const snap: SwitchSnapshot = {
      block: 5,
      blockTime: 100,
      lastCheckIn: 0,
      intervalSeconds: 0,
      graceSeconds: 0,
      triggered: false,
      claimed: {},
      balance: '0',
    };
    const events = decide(snap, snap, [], new Set(), 100, claims);
    expect(events.map((e) => [e.type, e.data.asset, e.data.amount ?? e.data.tokenId])).toEqual([
      ['deadman.claimed', 'erc20', '5'],
      ['deadman.claimed', 'erc20', '5'],
      ['deadman.claimed', 'erc721', '7'],
    ]);
    // Read again (a restart, or the same transaction included again after a reorganisation): nothing new.
    const again = await claimsOf(reader, ABI, A, logs, 5n);
    expect(decide(snap, snap, [], new Set(events.map((e) => e.key)), 100, again)).toEqual([]);
  });
});

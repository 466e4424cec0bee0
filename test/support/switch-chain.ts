/**
 * An EVM chain held in memory, answering the watcher's reads of generated switch contracts (lastCheckIn,
 * intervalDays, isReleased, cancelled, beneficiaries, claimedBy, the balance) the way such a contract would, at any block. For
 * tests of the watcher's bookkeeping on both engines and for the bench; the reads themselves are tested on anvil
 * (test/watch/watcher-anvil.test.ts).
 */
import type { Abi, Hex } from 'viem';
import type { EvmReader } from '../../src/chains/evm.js';
import { CONTRACTS, type ContractRecord } from '../../src/contracts/stored.js';
import { DEPLOYMENTS, type DeploymentRecord } from '../../src/contracts/deployments.js';
import { newId } from '../../src/core/ids.js';
import { systemClock } from '../../src/core/clock.js';
import type { Store } from '../../src/store/port.js';
import { Watcher, type WatcherOptions } from '../../src/watch/watcher.js';

const DAY = 86_400;
const view = (name: string, inputs: string[], outputs: string[]) => ({
  type: 'function',
  name,
  stateMutability: 'view',
  inputs: inputs.map((type, i) => ({ type, name: `a${i}` })),
  outputs: outputs.map((type) => ({ type, name: '' })),
});

/** The views of a generated contract with a dead man's switch and no grace period. */
export const SWITCH_ABI = [
  view('lastCheckIn', [], ['uint256']),
  view('intervalDays', [], ['uint256']),
  view('isReleased', [], ['bool']),
  view('cancelled', [], ['bool']),
  view('beneficiaries', [], ['address[]', 'uint256[]']),
  view('claimedBy', ['address'], ['uint256']),
] as unknown as Abi;

interface SwitchState {
  lastCheckIn: number;
  intervalDays: number;
  beneficiaries: Hex[];
  claimed: Map<string, bigint>;
  balance: bigint;
  cancelled: boolean;
}

export class SwitchChain {
  head = 100n;
  time = 1_700_000_000;
  readonly contracts = new Map<string, SwitchState>();
  /** Every read answered (calls of the endpoint). */
  calls = 0;
  /** Changes every block's hash (a reorganisation of the whole chain held): see reorganise(). */
  branch = 0;

  add(address: Hex, beneficiaries: Hex[], intervalDays = 60): void {
    this.contracts.set(address.toLowerCase(), {
      lastCheckIn: this.time,
      intervalDays,
      beneficiaries,
      claimed: new Map(),
      balance: 10n ** 19n,
      cancelled: false,
    });
  }

  /** Moves time forward by `seconds` and mines `blocks` blocks. */
  advance(seconds: number, blocks = 3): void {
    this.time += seconds;
    this.head += BigInt(blocks);
  }

  /** Another branch: every block at or below the head gets another hash (the state stays as it is). */
  reorganise(): void {
    this.branch += 1;
  }

  hashOf(n: bigint): Hex {
    return `0x${this.branch.toString(16).padStart(8, '0')}${n.toString(16).padStart(56, '0')}`;
  }

  checkIn(address: Hex): void {
    this.#state(address).lastCheckIn = this.time;
  }

  /** The owner's cancel(): an owner action (the last check-in moves), then never released; the ETH goes back. */
  cancel(address: Hex): void {
    const s = this.#state(address);
    s.lastCheckIn = this.time;
    s.cancelled = true;
    s.balance = 0n;
  }

  claim(address: Hex, beneficiary: Hex, amount: bigint): void {
    const s = this.#state(address);
    s.claimed.set(beneficiary, (s.claimed.get(beneficiary) ?? 0n) + amount);
    s.balance -= amount;
  }

  #state(address: string): SwitchState {
    const s = this.contracts.get(address.toLowerCase());
    if (!s) throw new Error(`no contract at ${address}`);
    return s;
  }

  /** A reader of this chain. State is the current one at any block at or below the head (no history is kept). */
  reader(): EvmReader {
    const count = <T>(v: T) => {
      this.calls += 1;
      return Promise.resolve(v);
    };
    const unsupported = () => Promise.reject(new Error('not answered by the stand-in chain'));
    return {
      chainId: 31337,
      checkChainId: () => count(undefined),
      getCode: unsupported,
      getTransaction: unsupported,
      getTransactionReceipt: unsupported,
      getStorageAt: unsupported,
      readContract: unsupported,
      simulateCreation: unsupported,
      getBlockNumber: () => count(this.head),
      getBlock: (n) =>
        count({ number: n ?? this.head, timestamp: BigInt(this.time), hash: this.hashOf(n ?? this.head) }),
      // The stand-in's contracts emit no events: token and NFT claims are tested on anvil.
      getLogs: () => count([]),
      getBalance: (address) => count(this.#state(address).balance),
      readContractAt: (address, _abi, name, args) => {
        const s = this.#state(address);
        switch (name) {
          case 'lastCheckIn':
            return count(BigInt(s.lastCheckIn));
          case 'intervalDays':
            return count(BigInt(s.intervalDays));
          case 'isReleased':
            return count(!s.cancelled && this.time >= s.lastCheckIn + s.intervalDays * DAY);
          case 'cancelled':
            return count(s.cancelled);
          case 'beneficiaries':
            return count([s.beneficiaries, s.beneficiaries.map(() => 5000n)]);
          case 'claimedBy':
            return count(s.claimed.get(args[0] as Hex) ?? 0n);
          default:
            return unsupported();
        }
      },
    };
  }
}

/**
 * A stored contract with the switch's views and `n` verified deployments of it on chain 31337, in `chain`, each
 * with a switch of `intervalDays`.
 */
export async function seedWatched(
  store: Store,
  chain: SwitchChain,
  ownerId: string,
  n: number,
  beneficiaries: Hex[],
  intervalDays = 60,
): Promise<string[]> {
  const now = new Date().toISOString();
  const contract: ContractRecord = {
    id: newId('contract'),
    ownerId,
    chain: 'evm',
    plan: {} as ContractRecord['plan'],
    source: '',
    compiled: { abi: SWITCH_ABI },
    advice: {},
    created: now,
  };
  await store.put(CONTRACTS, contract);
  const records: DeploymentRecord[] = [];
  const base = chain.contracts.size;
  for (let i = 0; i < n; i++) {
    const address = `0x${(base + i + 1).toString(16).padStart(40, 'a')}` as Hex;
    chain.add(address, beneficiaries, intervalDays);
    records.push({
      id: newId('deployment'),
      ownerId,
      contractId: contract.id,
      chain: 'evm',
      network: '31337',
      address,
      txHash: null,
      blockNumber: null,
      deployer: null,
      status: 'verified',
      differences: [],
      watch: { snapshot: null, warned: [], warnDays: [30, 7], emitted: [], paused: false },
      createdAt: now,
      verifiedAt: now,
      updatedAt: now,
    });
  }
  // Written in a few large transactions: the bench seeds thousands.
  for (let i = 0; i < records.length; i += 500) {
    const chunk = records.slice(i, i + 500);
    await store.transact(async (tx) => {
      for (const r of chunk) await tx.put(DEPLOYMENTS, r);
    });
  }
  const ids = records.map((r) => r.id);
  return ids;
}

/** A watcher of chain 31337 on `store`, reading `chain`; the test polls it (`pollOnce`), its timer would wait a minute. */
export function switchWatcher(store: Store, chain: SwitchChain, options: Partial<WatcherOptions> = {}): Watcher {
  return new Watcher({
    store,
    clock: systemClock,
    networks: ['31337'],
    pollMs: 60_000,
    confirmations: 2,
    readerFor: async () => chain.reader(),
    ...options,
  });
}

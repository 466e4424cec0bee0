/**
 * Deployments of stored contracts (`dep_...`): where an owner says a generated contract now lives on chain, what the
 * service found when it read that chain, and (once verified) how far the watcher has followed it.
 *
 * The collection is account data (declared in src/accounts/tenancy.ts): handlers read it through the caller's
 * account view. The watcher reads every verified deployment across accounts, as the system.
 */

export const DEPLOYMENTS = 'contract_deployments';
/**
 * Indexed fields: the account (listing), the contract (its deployments), the state (the watcher's work list) and the
 * address (the same address on other networks, src/watch/plans.ts: registration stores one spelling per address, so
 * the index finds them all).
 */
export const DEPLOYMENT_INDEXES: Record<string, string[]> = {
  [DEPLOYMENTS]: ['ownerId', 'contractId', 'status', 'address'],
};

/** Lead times (days before the deadline) at which the watcher warns, unless the owner chose others. */
export const DEFAULT_WARN_DAYS = [30, 7];
/** At most this many lead times per deployment, each 1..365 days. */
export const WARN_DAYS_LIMITS = { count: 5, min: 1, max: 365 } as const;

/** An EVM chain id as a decimal string (`"31337"`), or `ton-mainnet` / `ton-testnet`. */
export type NetworkId = string;

/**
 * Networks for trying contracts out, not for holding an estate: TON's testnet, the EVM test chains of the common
 * networks (Ethereum's Sepolia, Holesky, Hoodi and Goerli; Polygon's Amoy and Mumbai; BNB Chain's, Avalanche's Fuji,
 * Arbitrum's, Base's, Optimism's, zkSync's, Linea's, Scroll's, Gnosis's Chiado, Celo's Alfajores, Fantom's test
 * networks) and the local development chains (anvil and Hardhat's 31337, Ganache's and geth's 1337).
 */
const TEST_NETWORKS = new Set([
  'ton-testnet',
  '5',
  '11155111',
  '17000',
  '560048',
  '80001',
  '80002',
  '97',
  '43113',
  '421614',
  '84532',
  '11155420',
  '300',
  '59141',
  '534351',
  '10200',
  '44787',
  '4002',
  '31337',
  '1337',
]);

/** Whether a network is one for trying contracts out (TEST_NETWORKS). */
export const isTestNetwork = (network: NetworkId): boolean => TEST_NETWORKS.has(network);

/** One difference between what is on chain and the stored plan, named for the owner. */
export interface DeploymentDifference {
  /** What differs: `code`, `owner`, `beneficiaries[1].share`, `switch.intervalSeconds`, `proxy`, ... */
  field: string;
  /** What the plan says. */
  expected: string;
  /** What the chain holds. */
  found: string;
}

/** What the watcher last read of a verified deployment's switch (the chain's own words, not the service's guess). */
export interface SwitchSnapshot {
  /** Block (EVM) or logical time (TON) the snapshot was read at, after confirmations. */
  block: number;
  /** Unix seconds of that block. */
  blockTime: number;
  /** Hash of that block (EVM): a later read finding another block at that height knows the chain reorganised. */
  blockHash?: string;
  /** Last proof of life the contract counts (unix seconds). */
  lastCheckIn: number;
  /** Seconds between check-ins, and the grace period after, as the contract holds them. */
  intervalSeconds: number;
  graceSeconds: number;
  /** Whether the contract is claimable (released) on chain. */
  triggered: boolean;
  /**
   * Whether the owner cancelled the contract (EVM `cancelled()`, TON `get_state` 2): final, it is never released then.
   * Absent in snapshots read before the watcher read it, and for a contract without the view.
   */
  cancelled?: boolean;
  /** What each beneficiary has claimed so far, by address (decimal strings of the smallest unit). */
  claimed: Record<string, string>;
  /** Native balance held (decimal string of the smallest unit). */
  balance: string;
  /**
   * Contracts with guardians: when the release their quorum proposed takes effect unless the owner shows a sign of
   * life first (unix seconds; 0: none pending). Absent for a contract without guardians and in older snapshots.
   */
  guardianReleaseAt?: number;
  /**
   * Contracts with guardians: how many more times their quorum may veto a trigger in the grace period before the
   * owner's next sign of life (EVM `vetoesLeft()`, TON get_guardians' sixth value). A veto restarts the clock (it moves
   * the last check-in) and spends one; the owner's sign of life gives them all back, so a check-in that came with one
   * fewer was the guardians'. Absent for a contract without vetoes and in older snapshots.
   */
  vetoesLeft?: number;
  /** TON: the contract has no guardians (no get_guardians), remembered so it is not asked again. */
  noGuardians?: boolean;
  /**
   * TON: the contract's listed jettons with the total its heirs claimed of each (`[]`: the contract lists none;
   * absent: not read yet). Read every poll in one get method; the per-heir amounts below only when a total moved.
   */
  jettons?: Array<{ master: string; claimed: string }>;
  /** TON: what each beneficiary has claimed of each jetton, keyed `<beneficiary> <jetton master>` (nonzero only). */
  jettonClaimed?: Record<string, string>;
}

export interface DeploymentRecord {
  [field: string]: unknown;
  /** `dep_<id>`. */
  id: string;
  ownerId: string;
  contractId: string;
  chain: 'evm' | 'ton' | 'solana';
  network: NetworkId;
  /** Checksummed (EVM) or user-friendly (TON) address. */
  address: string;
  txHash: string | null;
  blockNumber: number | null;
  deployer: string | null;
  /** `verified` once code and arguments matched the plan; `unverified` with the differences otherwise. */
  status: 'verified' | 'unverified';
  differences: DeploymentDifference[];
  /** The watcher's progress: the last confirmed snapshot, and the warning lead times already sent for a deadline. */
  watch: {
    snapshot: SwitchSnapshot | null;
    /** Lead times (days) whose `deadman.warning` was sent for the current deadline. */
    warned: number[];
    /** Lead times before the deadline at which to warn (days); default [30, 7]. */
    warnDays: number[];
    /**
     * The once-keys of the events already recorded for this deployment (newest last, the oldest dropped past a
     * bound): a re-read of the same or older chain state finds its events here and sends none again. Absent on
     * records written before the watcher kept them.
     */
    emitted?: string[];
    /** The owner paused watching: nothing is read or sent until it is resumed. Absent means not paused. */
    paused?: boolean;
    /**
     * The `deadman.triggered` event recorded when the switch fired: a plan linked afterwards opens with it. Absent
     * before a trigger, and on records written before the watcher kept it (the event log is searched then).
     */
    triggeredEventId?: string;
  } | null;
  /**
   * EVM: the contract's ABI, kept here when its stored contract is deleted (`delete_contract`), so that the watcher
   * goes on reading the switch of what stays deployed. Absent while the stored contract holds it.
   */
  abi?: unknown[];
  createdAt: string;
  verifiedAt: string | null;
  updatedAt: string;
}

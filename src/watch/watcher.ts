/**
 * The on-chain watcher: follows every verified deployment of the configured EVM networks and turns what its dead
 * man's switch does into events (`deadman.warning`, `deadman.reset`, `deadman.triggered`, `deadman.cancelled`,
 * `deadman.claimed`).
 *
 * Every `pollMs` per network, the leader of that network (./lease.ts) reads the block `confirmations` below the
 * head, reads each watched deployment's switch at that block (./evm-switch.ts), and in one store transaction per
 * deployment: decides which events the change means (./decide.ts, against the once-keys already recorded), records
 * them in the outbox (so webhooks deliver them signed), stores the new snapshot and keys, and, when the switch
 * fired, opens the shares of the memoir plans the deployment watches (./plans.ts). A crash before that transaction
 * commits loses nothing (the next poll reads the same state again); after it, the keys make the next read send
 * nothing twice. Token and NFT claims come from the contracts' events since the network's last read (./evm-claims.ts).
 *
 * A reorg deeper than the confirmations is found by block hash (./reorg.ts): the deployments read past the common
 * ancestor are compared with their state at the ancestor instead of the abandoned read, claim events are read again
 * from there, and the once-keys (what an event says, never the block it was read in) keep everything sent once.
 *
 * Chain time, not the service's clock, decides warnings: a deadline is compared with the confirmed block's time.
 */
import { randomBytes } from 'node:crypto';
import type { Abi, Hex } from 'viem';
import type { EvmLog, EvmReader } from '../chains/evm.js';
import type { TonNetwork, TonReader } from '../chains/ton.js';
import { isTonNetwork } from '../chains/ton-readers.js';
import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/log.js';
import type { Store, Tx } from '../store/port.js';
import { accountTx } from '../accounts/tenancy.js';
import { recordEvent } from '../events/events.js';
import {
  DEFAULT_WARN_DAYS,
  DEPLOYMENTS,
  type DeploymentRecord,
  type SwitchSnapshot,
} from '../contracts/deployments.js';
import { CONTRACTS, type ContractRecord } from '../contracts/stored.js';
import { deadlineOf, decide, type WatchEvent } from './decide.js';
import { type AssetClaim, claimsOf, hasClaimEvents, readClaimLogs } from './evm-claims.js';
import { readEvmSwitch } from './evm-switch.js';
import { acquireLease, releaseLease } from './lease.js';
import { eachLimited } from './each-limited.js';
import { markWatched, openWatchedPlans, unwatchPlans, watchLinkedPlans } from './plans.js';
import { findAncestor, loadCursor, saveCursor } from './reorg.js';
import { WriteBatcher } from './write-batcher.js';
import { mailContractReminder } from '../memoir/reminders.js';

/** Once-keys kept per deployment: enough for years of check-ins, warnings and claims; the oldest go first. */
export const EMITTED_KEYS_KEPT = 200;
/**
 * Blocks of claim events read at a deployment's first read when its creation block is unknown (it was registered
 * without its transaction): about a week of Ethereum blocks, in ten log queries.
 */
const FIRST_READ_BLOCKS = 50_000;
/**
 * Deployments written per store transaction: the embedded store rewrites its file per commit, so a poll that changes
 * thousands of deployments commits a few dozen times instead of thousands; small enough that one transaction stays
 * short on PostgreSQL.
 */
export const WRITE_BATCH = 64;
/** Deployments read at the same time per network (each read is a handful of calls to the endpoint). */
const READ_CONCURRENCY = 16;

export interface WatcherOptions {
  store: Store;
  clock: Clock;
  log?: Logger | undefined;
  /** EVM chain ids (decimal strings) to follow. */
  networks: string[];
  pollMs: number;
  confirmations: number;
  /** The reader of a network (the configured JSON-RPC endpoint; tests and the bench give stand-ins). */
  readerFor: (network: string) => Promise<EvmReader>;
  /** How long a leader's lease lasts without renewal (ms); default three polls, at least 2 s. */
  leaseMs?: number | undefined;
  /** Deployments written per store transaction in a poll (default WRITE_BATCH; 1: one transaction each). */
  writeBatch?: number | undefined;
  /** The reader of a TON network (`ton-mainnet`/`ton-testnet` in `networks`), read through ./ton-poll.ts. */
  tonReaderFor?: ((network: TonNetwork) => Promise<TonReader>) | undefined;
}

/** What one poll of one network did. */
export interface PollResult {
  /** The confirmed block read, or null when the chain is shorter than the confirmations. */
  block: number | null;
  /** Deployments whose switch was read (a read that changed nothing and sent nothing writes nothing). */
  read: number;
  /** Events recorded. */
  events: number;
  /** Deployments that could not be read or written this round (tried again next poll). */
  failed: number;
  /** The common ancestor when this poll found the chain reorganised under what was read before; else null. */
  reorg: number | null;
}

export interface WatcherStats {
  polls: number;
  /** Polls skipped because another instance leads the network. */
  notLeader: number;
  events: number;
  failed: number;
  /** Polls that failed as a whole (the endpoint or the store did not answer). */
  errors: number;
  /** Reorganisations found under what was read (deeper than the confirmations). */
  reorgs: number;
}

/** Whether a snapshot shows the same switch as the stored one and nothing falls due: then nothing is written. */
export function quiet(d: DeploymentRecord, next: SwitchSnapshot, claims: readonly AssetClaim[]): boolean {
  const prev = d.watch?.snapshot;
  if (!prev || !d.watch) return false;
  const same =
    prev.lastCheckIn === next.lastCheckIn &&
    prev.intervalSeconds === next.intervalSeconds &&
    prev.graceSeconds === next.graceSeconds &&
    prev.triggered === next.triggered &&
    (prev.guardianReleaseAt ?? 0) === (next.guardianReleaseAt ?? 0) &&
    prev.vetoesLeft === next.vetoesLeft &&
    (prev.noGuardians ?? false) === (next.noGuardians ?? false) &&
    (prev.cancelled ?? false) === (next.cancelled ?? false) &&
    prev.balance === next.balance &&
    JSON.stringify(prev.claimed) === JSON.stringify(next.claimed) &&
    JSON.stringify(prev.jettons) === JSON.stringify(next.jettons) &&
    JSON.stringify(prev.jettonClaimed) === JSON.stringify(next.jettonClaimed);
  if (!same) return false;
  const emitted = new Set(d.watch.emitted ?? []);
  return decide(prev, next, d.watch.warnDays ?? DEFAULT_WARN_DAYS, emitted, next.blockTime, claims).length === 0;
}

export class Watcher {
  readonly id = `wch_${randomBytes(8).toString('hex')}`;
  readonly #o: WatcherOptions;
  readonly #leaseMs: number;
  readonly #writeBatch: number;
  readonly #timers = new Map<string, NodeJS.Timeout>();
  readonly #running = new Set<Promise<unknown>>();
  readonly #abis = new Map<string, Abi | null>();
  #stopped = false;
  #lastError = -Infinity;
  /** When each deployment's failure was last logged: one line a minute each, whatever the poll interval. */
  readonly #lastFailure = new Map<string, number>();
  /** `<deployment>:<plan>` of the plans opened (or held back) after a trigger read before they were linked. */
  readonly #lateOpened = new Set<string>();
  readonly stats: WatcherStats = { polls: 0, notLeader: 0, events: 0, failed: 0, errors: 0, reorgs: 0 };

  constructor(opts: WatcherOptions) {
    this.#o = opts;
    this.#leaseMs = opts.leaseMs ?? Math.max(3 * opts.pollMs, 2_000);
    this.#writeBatch = Math.max(1, opts.writeBatch ?? WRITE_BATCH);
  }

  /** Starts polling every network (the first poll at once). */
  start(): void {
    for (const network of this.#o.networks) this.#schedule(network, 0);
  }

  /** Stops polling: waits for the rounds under way to finish, then gives up the leases. */
  async stop(): Promise<void> {
    this.#stopped = true;
    for (const t of this.#timers.values()) clearTimeout(t);
    this.#timers.clear();
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
    for (const network of this.#o.networks) await releaseLease(this.#o.store, network, this.id).catch(() => undefined);
  }

  #schedule(network: string, delay: number): void {
    if (this.#stopped) return;
    const timer = setTimeout(() => {
      this.#timers.delete(network);
      const round = this.#round(network).finally(() => {
        this.#running.delete(round);
        this.#schedule(network, this.#o.pollMs);
      });
      this.#running.add(round);
    }, delay);
    timer.unref();
    this.#timers.set(network, timer);
  }

  async #round(network: string): Promise<void> {
    try {
      const leader = await acquireLease(this.#o.store, network, this.id, this.#leaseMs, this.#o.clock);
      if (!leader) {
        this.stats.notLeader += 1;
        return;
      }
      if (this.#stopped) return;
      await this.pollOnce(network);
    } catch (err) {
      this.stats.errors += 1;
      // The endpoint or the store is down: every poll fails until it is back; one line a minute is enough.
      const now = Date.now();
      if (now - this.#lastError < 60_000) return;
      this.#lastError = now;
      this.#o.log?.warn({ network, err: (err as Error).message }, 'the chain watcher could not poll; it keeps trying');
    }
  }

  /** One poll of one network, whether or not this watcher leads it (the loop checks the lease first). */
  async pollOnce(network: string): Promise<PollResult> {
    if (isTonNetwork(network)) return this.#pollTon(network);
    const { store } = this.#o;
    const reader = await this.#o.readerFor(network);
    // As registration does: an endpoint answering for another chain (a test network, where the same wallet's
    // contract sits at the same address and the owner never checks in) must not fire this network's switches.
    await reader.checkChainId();
    const head = await reader.getBlockNumber();
    const target = head - BigInt(this.#o.confirmations);
    this.stats.polls += 1;
    if (target < 0n) return { block: null, read: 0, events: 0, failed: 0, reorg: null };
    const block = await reader.getBlock(target);
    const at = Number(block.number);
    // Block hashes looked up this poll (the reorg check and the rollback ask for the same few blocks).
    const hashes = new Map<number, Promise<string>>([[at, Promise.resolve(block.hash)]]);
    const hashAt = (n: number) => {
      let h = hashes.get(n);
      if (!h) {
        h = reader.getBlock(BigInt(n)).then((b) => b.hash);
        hashes.set(n, h);
      }
      return h;
    };
    const cursor = await loadCursor(store, network);
    const ancestor = await findAncestor(cursor, at, hashAt);
    if (ancestor !== null) {
      this.stats.reorgs += 1;
      this.#o.log?.warn(
        { network, ancestor, read: cursor?.block },
        'the chain reorganised below the confirmations; what was read after the common ancestor is read again',
      );
    }
    const all = await store.findBy<DeploymentRecord>(DEPLOYMENTS, 'status', 'verified');
    const due = all.filter(
      (d) =>
        d.network === network &&
        d.chain === 'evm' &&
        d.watch !== null &&
        d.watch.paused !== true &&
        // Not before its creation: at an older confirmed block there is no contract to read yet.
        (d.blockNumber === null || d.blockNumber <= at) &&
        // Nothing new to read at the same block: the state there has been decided already.
        (d.watch.snapshot?.block !== at || d.watch.snapshot.blockHash !== block.hash),
    );
    // Claim events since the last block read for every deployment (since the ancestor after a reorg); a
    // deployment read for the first time, since its creation.
    const since = ancestor !== null ? ancestor + 1 : cursor ? cursor.block + 1 : null;
    const result: PollResult = { block: at, read: 0, events: 0, failed: 0, reorg: ancestor };
    const logs = await this.#claimLogs(reader, due, since, at);
    const failed = (deploymentId: string, err: unknown) => {
      result.failed += 1;
      const now = Date.now();
      if (now - (this.#lastFailure.get(deploymentId) ?? -Infinity) < 60_000) return;
      this.#lastFailure.set(deploymentId, now);
      if (this.#lastFailure.size > 10_000) this.#lastFailure.delete(this.#lastFailure.keys().next().value!);
      this.#o.log?.warn(
        { network, deploymentId, err: (err as Error).message },
        'the chain watcher could not follow a deployment this round',
      );
    };
    // The writes of the deployments that changed, several to a transaction (one store commit for many); a batch
    // that fails is written again one deployment at a time, so one bad record holds back only itself.
    const writes = new WriteBatcher<PendingWrite>(this.#writeBatch, async (batch) => {
      try {
        const recorded = await this.#o.store.transact(async (tx) => {
          let n = 0;
          for (const w of batch) n += (await this.#applyIn(tx, w)).length;
          return n;
        });
        result.events += recorded;
      } catch {
        for (const w of batch) {
          try {
            // Awaited first: `x += await y` would read x before the wait and lose the other writes' counts.
            const recorded = await this.apply(w.id, w.snapshot, w.claims, w.rolledBack);
            result.events += recorded.length;
          } catch (err) {
            failed(w.id, err);
          }
        }
      }
    });
    await eachLimited(due, READ_CONCURRENCY, async (d) => {
      if (this.#stopped) return;
      try {
        const abi = await this.#abiOf(d);
        if (!abi) return;
        const address = d.address as Hex;
        const rolledBack = await this.#rollback(reader, abi, d, ancestor, hashAt);
        const [snapshot, claims] = await Promise.all([
          readEvmSwitch(reader, abi, address, block),
          claimsOf(reader, abi, address, logs.get(address.toLowerCase()) ?? [], block.number),
        ]);
        result.read += 1;
        // Nothing changed on chain and nothing falls due: no write (the stored snapshot stays the last change read;
        // the next poll reads again anyway). This keeps a quiet poll to reads and decisions, whatever the store.
        if (rolledBack === undefined && quiet(d, snapshot, claims)) return;
        writes.add({ id: d.id, snapshot, claims, rolledBack });
      } catch (err) {
        failed(d.id, err);
      }
    });
    await writes.drain();
    // The cursor moves only when every deployment was read: a failed one is read again from the same block.
    const moved = cursor?.block !== at || cursor.hashes.at(-1)?.[1] !== block.hash || ancestor !== null;
    if (result.failed === 0 && !this.#stopped && moved) await saveCursor(store, network, at, block.hash, ancestor);
    await watchLinkedPlans(
      this.#o,
      all.filter((d) => d.network === network && d.watch !== null),
      this.#lateOpened,
    );
    this.stats.events += result.events;
    this.stats.failed += result.failed;
    return result;
  }

  /** The claim logs of the due deployments up to `to`: one query for those read before, one per new deployment. */
  async #claimLogs(
    reader: EvmReader,
    due: DeploymentRecord[],
    since: number | null,
    to: number,
  ): Promise<Map<string, EvmLog[]>> {
    const groups = new Map<number, Hex[]>();
    for (const d of due) {
      const abi = await this.#abiOf(d);
      if (!abi || !hasClaimEvents(abi)) continue;
      const snapshot = d.watch?.snapshot;
      // Never before the contract's creation; when that block is unknown (registered without its transaction),
      // a bounded window before the first read.
      const start = d.blockNumber ?? Math.max(0, to - FIRST_READ_BLOCKS);
      // Without a cursor (the first poll of this network), from the deployment's own last read.
      const from = Math.max(start, !snapshot ? 0 : (since ?? snapshot.block + 1));
      const list = groups.get(from) ?? [];
      list.push(d.address as Hex);
      groups.set(from, list);
    }
    const out = new Map<string, EvmLog[]>();
    for (const [from, addresses] of groups)
      for (const [address, logs] of await readClaimLogs(reader, addresses, BigInt(from), BigInt(to)))
        out.set(address, logs);
    return out;
  }

  /**
   * After a reorganisation, a deployment last read past the common ancestor on the abandoned branch: its switch as
   * it was at the ancestor (null when it cannot be read there, e.g. it did not exist yet), which the new read is
   * compared with instead of the abandoned one. Undefined when nothing is rolled back.
   */
  async #rollback(
    reader: EvmReader,
    abi: Abi,
    d: DeploymentRecord,
    ancestor: number | null,
    hashAt: (n: number) => Promise<string>,
  ): Promise<SwitchSnapshot | null | undefined> {
    const prev = d.watch?.snapshot;
    if (ancestor === null || !prev || prev.block <= ancestor) return undefined;
    if (prev.blockHash !== undefined && (await hashAt(prev.block).catch(() => null)) === prev.blockHash)
      return undefined;
    if (ancestor < 0) return null;
    try {
      const base = await reader.getBlock(BigInt(ancestor));
      return await readEvmSwitch(reader, abi, d.address as Hex, base);
    } catch {
      return null;
    }
  }

  /** A TON network: the same decisions and writes, the switch read through the TON API (loaded only for TON). */
  async #pollTon(network: TonNetwork): Promise<PollResult> {
    if (!this.#o.tonReaderFor) throw new Error(`no TON reader for ${network}`);
    const [{ pollTonNetwork }, reader] = await Promise.all([import('./ton-poll.js'), this.#o.tonReaderFor(network)]);
    this.stats.polls += 1;
    const { result, watched } = await pollTonNetwork({
      store: this.#o.store,
      network,
      reader,
      apply: async (id, snapshot) => (await this.apply(id, snapshot)).length,
      quiet: (d, snapshot) => quiet(d, snapshot, []),
      stopped: () => this.#stopped,
      log: this.#o.log,
    });
    await watchLinkedPlans(this.#o, watched, this.#lateOpened);
    this.stats.events += result.events;
    this.stats.failed += result.failed;
    // TON has no reorganisations to find: a masterchain block is final once committed.
    return { ...result, reorg: null };
  }

  async #abiOf(d: DeploymentRecord): Promise<Abi | null> {
    // A deployment whose stored contract was deleted keeps the ABI itself.
    if (Array.isArray(d.abi)) return d.abi as Abi;
    if (!this.#abis.has(d.contractId)) {
      const c = await this.#o.store.get<ContractRecord>(CONTRACTS, d.contractId);
      this.#abis.set(d.contractId, ((c?.compiled as { abi?: Abi } | undefined)?.abi ?? null) as Abi | null);
    }
    return this.#abis.get(d.contractId) ?? null;
  }

  /**
   * Records what a snapshot means for one deployment, in one transaction: the events not sent yet (each with its
   * once-key), the snapshot, and, when the switch fired, the opening of the plans it watches. Resolves with the
   * events recorded.
   */
  async apply(
    deploymentId: string,
    snapshot: SwitchSnapshot,
    claims: readonly AssetClaim[] = [],
    rolledBack?: SwitchSnapshot | null,
  ): Promise<WatchEvent[]> {
    return this.#o.store.transact((tx) => this.#applyIn(tx, { id: deploymentId, snapshot, claims, rolledBack }));
  }

  /** apply() inside a transaction of the caller's (a batch writes several deployments in one). */
  async #applyIn(tx: Tx, w: PendingWrite): Promise<WatchEvent[]> {
    const { clock } = this.#o;
    const { snapshot, claims, rolledBack } = w;
    {
      const d = await tx.get<DeploymentRecord>(DEPLOYMENTS, w.id);
      if (d?.status !== 'verified' || !d.watch || d.watch.paused === true) return [];
      const watch = d.watch;
      const emitted = new Set(watch.emitted ?? []);
      const warnDays = watch.warnDays ?? DEFAULT_WARN_DAYS;
      const prev = rolledBack === undefined ? watch.snapshot : rolledBack;
      const events = decide(prev, snapshot, warnDays, emitted, snapshot.blockTime, claims);
      const own = accountTx(tx, d.ownerId);
      const base = {
        deploymentId: d.id,
        contractId: d.contractId,
        network: d.network,
        contractAddress: d.address,
        blockNumber: snapshot.block,
        blockTime: snapshot.blockTime,
      };
      let triggered: string | null = null;
      for (const e of events) {
        const record = await recordEvent(
          own,
          { type: e.type, ownerId: d.ownerId, data: { ...base, ...e.data } },
          clock,
        );
        if (e.type === 'deadman.triggered') triggered = record.id;
        // The owner is reminded by mail too, once per warning like the event.
        if (e.type === 'deadman.warning') await mailContractReminder(own, d, Number(e.data.deadline), clock);
        emitted.add(e.key);
      }
      if (triggered) await openWatchedPlans(tx, d, triggered, clock);
      else if (snapshot.cancelled === true) await unwatchPlans(tx, d, clock, 'cancelled');
      else await markWatched(tx, d, clock);
      const deadline = deadlineOf(snapshot);
      const keys = [...emitted].slice(-EMITTED_KEYS_KEPT);
      const warned = keys
        .filter((k) => k.startsWith(`warn:${deadline}:`))
        .map((k) => Number(k.slice(`warn:${deadline}:`.length)));
      const next: DeploymentRecord = {
        ...d,
        watch: {
          ...watch,
          snapshot,
          emitted: keys,
          warned,
          warnDays,
          ...(triggered ? { triggeredEventId: triggered } : {}),
        },
        updatedAt: clock.now().toISOString(),
      };
      await own.put(DEPLOYMENTS, next);
      return events;
    }
  }
}

/** One deployment's write: what apply() records. */
interface PendingWrite {
  id: string;
  snapshot: SwitchSnapshot;
  claims: readonly AssetClaim[];
  rolledBack: SwitchSnapshot | null | undefined;
}

/**
 * One leader per network: a lease record per network in the shared store. Whoever holds an unexpired lease reads
 * that network; the others wait for it to expire (its holder stopped or died) or to be released (a clean stop).
 *
 * On a store that claims with row locks (PostgreSQL, several instances), taking or renewing the lease is a claim of
 * the lease row, the same mechanism the webhook dispatcher uses for deliveries: instances never wait on each other,
 * and one that finds the row locked simply is not the leader this round. On the embedded store (one process) it is a
 * plain transaction. The lease only saves duplicate work: the once-keys on each deployment are what keep an event
 * single, even if two watchers ever read the same state.
 */
import type { Clock } from '../core/clock.js';
import { isClaimable, type Store, type Tx } from '../store/port.js';

export const WATCH_LEASES = 'watch_leases';
/** Indexed by network: the claim selects the lease row of one network. */
export const WATCH_INDEXES: Record<string, string[]> = { [WATCH_LEASES]: ['network'] };

export interface LeaseRecord {
  [field: string]: unknown;
  /** `lease:<network>`. */
  id: string;
  network: string;
  /** The watcher holding it, or null. */
  holder: string | null;
  /** Unix ms until which it is held. */
  leaseUntil: number;
}

const leaseId = (network: string) => `lease:${network}`;

function take(lease: LeaseRecord, holder: string, nowMs: number, leaseMs: number): LeaseRecord | null {
  if (lease.holder !== holder && lease.holder !== null && lease.leaseUntil > nowMs) return null;
  return { ...lease, holder, leaseUntil: nowMs + leaseMs };
}

/** Takes or renews the lease of `network` for `holder`; resolves whether it holds it now. */
export async function acquireLease(
  store: Store,
  network: string,
  holder: string,
  leaseMs: number,
  clock: Clock,
): Promise<boolean> {
  const id = leaseId(network);
  const fresh: LeaseRecord = { id, network, holder: null, leaseUntil: 0 };
  const onTx = async (tx: Tx, lease: LeaseRecord | undefined) => {
    if (!lease) return false;
    const next = take(lease, holder, clock.now().getTime(), leaseMs);
    if (next) await tx.put(WATCH_LEASES, next);
    return next !== null;
  };
  if (!isClaimable(store)) return store.transact(async (tx) => onTx(tx, (await tx.get(WATCH_LEASES, id)) ?? fresh));
  // The row exists before it is claimed (a claim locks only existing rows).
  if (!(await store.get(WATCH_LEASES, id)))
    await store.transact(async (tx) => {
      if (!(await tx.get(WATCH_LEASES, id))) await tx.put(WATCH_LEASES, fresh);
    });
  return store.claimWith<LeaseRecord, boolean>(
    WATCH_LEASES,
    { field: 'network', value: network, limit: 1 },
    (tx, rows) => onTx(tx, rows[0]),
  );
}

/** Gives the lease up at a clean stop, so another instance leads at once instead of after it expires. */
export async function releaseLease(store: Store, network: string, holder: string): Promise<void> {
  await store.transact(async (tx) => {
    const lease = await tx.get<LeaseRecord>(WATCH_LEASES, leaseId(network));
    if (lease?.holder === holder) await tx.put(WATCH_LEASES, { ...lease, holder: null, leaseUntil: 0 });
  });
}

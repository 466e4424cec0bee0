import type { SwitchSnapshot } from '../contracts/deployments.js';
import { leadTimesDue } from '../core/lead-times.js';
import type { AssetClaim } from './evm-claims.js';

/** One event the watcher should record, with the key that makes it happen only once per occurrence. */
export interface WatchEvent {
  type: 'deadman.warning' | 'deadman.reset' | 'deadman.triggered' | 'deadman.cancelled' | 'deadman.claimed';
  key: string;
  data: Record<string, unknown>;
}

const DAY = 86_400;

/**
 * The moment the contract becomes claimable: the last check-in plus the interval plus the grace period,
 * which is how the switch contract itself counts it.
 */
export function deadlineOf(s: SwitchSnapshot): number {
  return s.lastCheckIn + s.intervalSeconds + s.graceSeconds;
}

/**
 * The whole days left before `deadline` at `now` (unix seconds), rounded down: 6 days and 23 hours left is 6, less
 * than a day is 0. Never more than the time really left, so an owner who trusts it is never late.
 */
export function daysLeftOf(deadline: number, now: number): number {
  return Math.max(0, Math.floor((deadline - now) / DAY));
}

/**
 * The lead time whose warning is due at `now`, if any: of those crossed in the current period (leadTimesDue; the
 * period starts at the last check-in), the nearest only, so a watcher starting late does not send a burst.
 */
export function dueLeadTime(s: SwitchSnapshot, warnDays: readonly number[], now: number): number | undefined {
  const due = leadTimesDue(deadlineOf(s), now, warnDays, s.lastCheckIn, DAY);
  return due.length > 0 ? Math.min(...due) : undefined;
}

/**
 * Pure decision: compares the previous and the new on-chain snapshot and returns the events not yet sent.
 * `emitted` holds the keys already recorded, so a re-read of older state after a reorg sends nothing twice.
 * `claims` are the token and NFT claims read from the contract's events since the last read (each with its key).
 */
export function decide(
  prev: SwitchSnapshot | null,
  next: SwitchSnapshot,
  warnDays: number[],
  emitted: ReadonlySet<string>,
  now: number,
  claims: readonly AssetClaim[] = [],
): WatchEvent[] {
  const out: WatchEvent[] = [];
  const push = (e: WatchEvent) => {
    if (!emitted.has(e.key) && !out.some((o) => o.key === e.key)) out.push(e);
  };
  const deadline = deadlineOf(next);
  if (next.cancelled === true) {
    // The owner cancelled: final, and the cancel itself (an owner action) moved the last check-in, which is not a
    // check-in to report. A cancelled contract is never released, so nothing falls due any more: no warnings.
    push({ type: 'deadman.cancelled', key: 'cancelled', data: { lastCheckIn: next.lastCheckIn } });
  } else if (prev && next.lastCheckIn > prev.lastCheckIn) {
    // The clock restarted: the owner's sign of life, or the guardians' veto of a trigger in the grace period, which
    // moves the last check-in too. A veto spends one of their vetoes, the owner's sign of life gives them all back:
    // fewer left than before means the last move was the guardians' (an owner who checked in and then a veto, both
    // since the last read, a whole interval apart, read as the owner's: the owner did check in).
    const vetoed = prev.vetoesLeft !== undefined && next.vetoesLeft !== undefined && next.vetoesLeft < prev.vetoesLeft;
    push({
      type: 'deadman.reset',
      key: `reset:${next.lastCheckIn}`,
      data: {
        lastCheckIn: next.lastCheckIn,
        deadline,
        ...(vetoed ? { by: 'guardians', vetoesLeft: next.vetoesLeft } : { by: 'owner' }),
      },
    });
  }
  if (next.triggered) {
    push({ type: 'deadman.triggered', key: `triggered:${deadline}`, data: { deadline } });
  } else if (next.cancelled !== true) {
    // The guardians' quorum proposed an early release: it takes effect at its time unless the owner shows a sign of
    // life first, whatever the switch's own deadline. The owner is told at once, once per proposal.
    const release = next.guardianReleaseAt ?? 0;
    if (release > now) {
      push({
        type: 'deadman.warning',
        key: `guardians:${release}`,
        data: { deadline: release, daysLeft: daysLeftOf(release, now), guardians: true },
      });
    }
    const due = dueLeadTime(next, warnDays, now);
    if (due !== undefined) {
      push({
        type: 'deadman.warning',
        key: `warn:${deadline}:${due}`,
        data: { deadline, daysLeft: daysLeftOf(deadline, now), leadDays: due },
      });
    }
  }
  for (const [beneficiary, amount] of Object.entries(next.claimed)) {
    const before = BigInt(prev?.claimed[beneficiary] ?? '0');
    if (BigInt(amount) > before) {
      push({
        type: 'deadman.claimed',
        key: `claimed:${beneficiary.toLowerCase()}:native:${amount}`,
        data: { beneficiary, amount: (BigInt(amount) - before).toString(), asset: 'native' },
      });
    }
  }
  for (const [pair, amount] of Object.entries(next.jettonClaimed ?? {})) {
    const before = BigInt(prev?.jettonClaimed?.[pair] ?? '0');
    if (BigInt(amount) > before) {
      const [beneficiary, token] = pair.split(' ') as [string, string];
      push({
        type: 'deadman.claimed',
        key: `claimed:${beneficiary.toLowerCase()}:jetton:${token.toLowerCase()}:${amount}`,
        data: { beneficiary, asset: 'jetton', token, amount: (BigInt(amount) - before).toString() },
      });
    }
  }
  for (const c of claims) {
    const what = c.asset === 'erc20' ? { amount: c.amount } : { tokenId: c.tokenId, recipient: c.recipient };
    push({
      type: 'deadman.claimed',
      key: c.key,
      data: { beneficiary: c.beneficiary, asset: c.asset, token: c.token, ...what, transactionHash: c.transactionHash },
    });
  }
  return out;
}

/**
 * The heirs' chat allowance: a memoir's owner prepays credits on a share, taken
 * from their own wallet at once, and an heir's chat through that share spends
 * them before the heir's own credits (src/tools/memoir/chat.ts). The allowance
 * is kept on the share (the grant record, src/accounts/grants.ts).
 */
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import type { Logger } from '../core/log.js';
import { ApiError } from '../core/errors.js';
import { ulid } from '../core/ids.js';
import { GRANTS, type GrantRecord } from '../accounts/grants.js';
import { accountTx } from '../accounts/tenancy.js';
import { debitCredits, refundDebit, returnCreditsInTx } from '../credits/spend.js';
import type { Store, Tx } from '../store/port.js';

/** The most credits one call may prepay. */
export const MAX_PREPAID_CREDITS = 100_000;

/**
 * Moves `credits` from the owner's wallet to the allowance of one of their memoir shares (404 for a share that is
 * not theirs, 402 when the wallet is short: nothing moves). Answers the share's allowance after it.
 */
export async function prepayHeirChat(
  deps: { store: Store; clock: Clock; config: Config; log: Logger },
  ownerId: string,
  shareId: string,
  credits: number,
): Promise<{ shareId: string; chatAllowance: number; credits: number }> {
  const share = await deps.store.get<GrantRecord>(GRANTS, shareId);
  if (share?.kind !== 'memoir') throw ApiError.notFound(`Share ${shareId.slice(0, 60)}`);
  if (share.revokedAt)
    throw new ApiError('CONFLICT', 'This share is withdrawn: its holder can no longer use an allowance.');
  const { entry } = await debitCredits(deps, ownerId, {
    credits,
    idempotencyKey: `heir-allowance:${shareId}:${ulid()}`,
    reference: { type: 'memoir_share', id: shareId },
    action: null,
  });
  try {
    const chatAllowance = await addPrepaid(deps.store, shareId, credits, deps.clock.now().toISOString());
    return { shareId, chatAllowance, credits };
  } catch (err) {
    await refundDebit(deps, entry, 'the allowance could not be stored');
    throw err;
  }
}

/**
 * A share as it counts its allowance: `allowance` is what is left (spent by the heir's chat, given back when an answer
 * fails, src/accounts/grants.ts), and `allowancePrepaid` all the owner ever put in, so what was spent is the difference.
 */
type CountedGrant = GrantRecord & { allowancePrepaid?: number };

/** Adds prepaid credits to one of the owner's shares, counting them in what was ever prepaid; answers what is left now. */
async function addPrepaid(store: Store, shareId: string, credits: number, nowIso: string): Promise<number> {
  return store.transact(async (tx) => {
    const current = await tx.get<CountedGrant>(GRANTS, shareId);
    if (!current) throw ApiError.notFound(`Share ${shareId.slice(0, 60)}`);
    // Withdrawn since the check before the debit: the caller refunds the debit.
    if (current.revokedAt)
      throw new ApiError('CONFLICT', 'This share is withdrawn: its holder can no longer use an allowance.');
    const allowance = (current.allowance ?? 0) + credits;
    const before = Math.max(current.allowancePrepaid ?? 0, current.allowance ?? 0);
    await tx.put(GRANTS, { ...current, allowance, allowancePrepaid: before + credits, updatedAt: nowIso });
    return allowance;
  });
}

/** What a share's heirs' chat allowance holds: prepaid in all, left, and spent by the heir's chat so far. */
export function allowanceOf(g: GrantRecord): { prepaid: number; remaining: number; spent: number } {
  const remaining = Math.max(0, g.allowance ?? 0);
  // A share prepaid before the total was counted knows only what is left: nothing is reported spent from it.
  const recorded = (g as CountedGrant).allowancePrepaid;
  const prepaid = Math.max(typeof recorded === 'number' ? recorded : 0, remaining);
  return { prepaid, remaining, spent: prepaid - remaining };
}

/**
 * A share being withdrawn: what is left of its allowance goes back to the owner's wallet in the same write (a refund
 * entry), since no one can spend it any more. Answers the share with nothing left and what was prepaid lowered by the
 * same amount (so what it reports spent stays what the heir's chat spent), and the credits returned.
 */
export async function returnAllowanceInTx(
  tx: Tx,
  g: GrantRecord,
  now: Date,
): Promise<{ grant: GrantRecord; returned: number }> {
  const { prepaid, remaining } = allowanceOf(g);
  if (remaining === 0) return { grant: g, returned: 0 };
  const reason = "the memoir share was withdrawn: its unspent heirs' chat allowance";
  await returnCreditsInTx(tx, g.ownerId, remaining, { type: 'memoir_share', id: g.id }, reason, now);
  const grant: CountedGrant = { ...g, allowance: 0, allowancePrepaid: prepaid - remaining };
  return { grant, returned: remaining };
}

/**
 * Gives back to a share the credits a chat took from its allowance for an answer that then failed. A share withdrawn
 * meanwhile can spend nothing more, and what was left of its allowance went back to the owner then: these credits go
 * to the owner's wallet too (a refund entry), and what the share reports prepaid is lowered by as much, so that what it
 * reports spent stays what the heir's chat spent. `store` is the whole store: the share and the wallet are the owner's.
 */
export async function giveBackAllowance(store: Store, grantId: string, credits: number, now: Date): Promise<void> {
  if (credits <= 0) return;
  const nowIso = now.toISOString();
  await store.transact(async (tx) => {
    const g = await tx.get<GrantRecord>(GRANTS, grantId);
    if (!g) return;
    if (!g.revokedAt) {
      await tx.put(GRANTS, { ...g, allowance: (g.allowance ?? 0) + credits, updatedAt: nowIso });
      return;
    }
    const reason = "a chat through a memoir share withdrawn while it ran failed: the heirs' chat allowance it took";
    const reference = { type: 'memoir_share' as const, id: g.id };
    await returnCreditsInTx(accountTx(tx, g.ownerId), g.ownerId, credits, reference, reason, now);
    const prepaid = allowanceOf(g).prepaid;
    const grant: CountedGrant = { ...g, allowancePrepaid: Math.max(0, prepaid - credits), updatedAt: nowIso };
    await tx.put(GRANTS, grant);
  });
}

/**
 * The one place the memoir's paid actions are charged: through the credits
 * ledger (src/credits), priced by the catalogue (SVC_CREDITS_CATALOGUE). The
 * credits are debited before the work runs (402 INSUFFICIENT_CREDITS with
 * details `required` and `available` when the wallet is short, and nothing
 * runs) and refunded by a new ledger entry when the work throws.
 */
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import type { Logger } from '../core/log.js';
import { actionCost, catalogueOf, type PaidAction } from '../credits/catalogue.js';
import { requireCredits, withCredits } from '../credits/spend.js';
import type { Store } from '../store/port.js';

export type { PaidAction };

export interface Charge {
  action: PaidAction;
  /** Units charged: messages, started minutes of media, started seconds of audio or video. */
  units: number;
  /** Credits taken from the account's wallet. */
  credits: number;
}

export interface ChargeContext {
  store: Store;
  clock: Clock;
  config: Config;
  log: Logger;
  principal: { ownerId: string };
}

/** What `units` of an action cost now (whole units: started minutes or seconds count in full). */
export function priceOf(config: Config, action: PaidAction, units: number): { units: number; credits: number } {
  const whole = Math.max(1, Math.ceil(units));
  return { units: whole, credits: actionCost(catalogueOf(config), action, whole) };
}

/** Runs `work` as a paid action: debited first, refunded if it throws. */
export async function withCharge<T>(
  ctx: ChargeContext,
  action: PaidAction,
  units: number,
  ref: { type: string; id: string },
  work: () => Promise<T>,
): Promise<{ result: T; charge: Charge }> {
  const price = priceOf(ctx.config, action, units);
  const result = await withCredits(ctx, action, price.units, ref, work);
  return { result, charge: { action, ...price } };
}

/**
 * Refuses at once (402) a caller who cannot pay for `units` of `action`, before work whose real length is known only
 * once done (speech): `units` is a lower bound of it. The charge itself comes after, with `withCharge`.
 */
export async function requireCharge(ctx: ChargeContext, action: PaidAction, units: number): Promise<void> {
  await requireCredits(ctx, action, priceOf(ctx.config, action, units).units);
}

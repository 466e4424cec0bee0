/**
 * What the memoir's paid actions cost, and the one place they are charged.
 *
 * Until the credits ledger (src/credits, issue on credits) lands, `withCharge`
 * runs the work without debiting anything and reports `charged: 0, ledger:
 * false`; wiring the ledger is a change to this file only. Contract: debit
 * `amount` before the work (402 INSUFFICIENT_CREDITS with details `required`
 * and `available` when short), refund it when the work throws.
 */
import type { Store } from '../store/port.js';
import type { Clock } from '../core/clock.js';

export type PaidAction = 'chat' | 'media_inference' | 'voice' | 'avatar';

/** Credits per unit of each paid action. */
export const PRICES = {
  /** Per chat message answered. */
  chat: 1,
  /** Per started minute of media analysed (photos count as one minute). */
  media_inference: 2,
  /** Per started second of synthesised speech. */
  voice: 1,
  /** Per started second of avatar video. */
  avatar: 5,
} as const satisfies Record<PaidAction, number>;

export interface Charge {
  action: PaidAction;
  units: number;
  /** Credits taken (0 while no ledger is wired in). */
  credits: number;
  /** What the action costs at the listed prices. */
  price: number;
  /** Whether a credits ledger took the charge (false until src/credits is wired in). */
  ledger: boolean;
}

export function priceOf(action: PaidAction, units: number): number {
  return PRICES[action] * Math.max(1, Math.ceil(units));
}

export interface ChargeDeps {
  store: Store;
  clock: Clock;
  ownerId: string;
}

/** Runs `work` as a paid action of `units` units: debited first, refunded if it throws. */
export async function withCharge<T>(deps: ChargeDeps, action: PaidAction, units: number, work: () => Promise<T>): Promise<{ result: T; charge: Charge }> {
  const price = priceOf(action, units);
  void deps;
  // No ledger yet: nothing to debit or refund.
  const result = await work();
  return { result, charge: { action, units: Math.max(1, Math.ceil(units)), credits: 0, price, ledger: false } };
}

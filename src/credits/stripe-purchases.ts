/**
 * The purchase records a Stripe event is matched against (./stripe-events.ts): a
 * checkout or a reload, read as one shape.
 */
import type { Store } from '../store/port.js';
import { CREDIT_CHECKOUTS, CREDIT_RELOADS, type CheckoutRecord, type ReloadRecord } from './records.js';

/** What a purchase record says about the sale: the only source of the account and the credits. */
export interface Purchase {
  kind: 'checkout' | 'reload';
  ownerId: string;
  /** `pur_...` or `rld_...`. */
  purchaseId: string;
  credits: number;
  amount: number;
  currency: string;
  /** Known once the purchase is settled. */
  paymentIntentId: string | null;
  checkoutSessionId: string | null;
  /** Reloads: the customer whose saved card is charged. */
  customerId: string | null;
}

export const fromCheckout = (r: CheckoutRecord): Purchase => ({
  kind: 'checkout',
  ownerId: r.ownerId,
  purchaseId: r.purchaseId,
  credits: r.credits,
  amount: r.amount,
  currency: r.currency,
  paymentIntentId: r.paymentIntentId,
  checkoutSessionId: r.id,
  customerId: null,
});

export const fromReload = (r: ReloadRecord): Purchase => ({
  kind: 'reload',
  ownerId: r.ownerId,
  purchaseId: r.id,
  credits: r.credits,
  amount: r.amount,
  currency: r.currency,
  paymentIntentId: r.paymentIntentId,
  checkoutSessionId: null,
  customerId: r.customerId,
});

/** The purchase a PaymentIntent's `svcPurchaseId` points at, if this service recorded one by that id. */
export async function findPurchase(store: Store, purchaseId: string | undefined): Promise<Purchase | undefined> {
  if (purchaseId?.startsWith('rld_')) {
    const reload = await store.get<ReloadRecord>(CREDIT_RELOADS, purchaseId);
    return reload ? fromReload(reload) : undefined;
  }
  if (purchaseId?.startsWith('pur_')) {
    const found = await store.findBy<CheckoutRecord>(CREDIT_CHECKOUTS, 'purchaseId', purchaseId);
    return found.length === 1 ? fromCheckout(found[0]!) : undefined;
  }
  return undefined;
}

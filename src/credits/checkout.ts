/**
 * Buying packs through Stripe Checkout.
 *
 * purchase: validates, creates the checkout session (outside any transaction,
 * idempotency key = our purchase id), then writes the purchase record (session
 * id, account, pack, credits, amount, currency) with a payment.initiated event.
 * That record is what the webhook later credits, and nothing else
 * (src/credits/stripe-events.ts). The buyer gets the checkout URL only once the
 * record is committed, so no session can be paid without one: when the write
 * fails the purchase answers an error and the session is never shown.
 */
import { z } from 'zod';
import { ApiError, type ErrorDetail } from '../core/errors.js';
import { ulid } from '../core/ids.js';
import { catalogueOf, findPack, unknownPack } from './catalogue.js';
import type { CreditDeps } from './autoreload.js';
import { inAccount } from './ledger.js';
import { emitInTx } from './payments.js';
import { CREDIT_CHECKOUTS, CREDIT_WALLETS, type CheckoutRecord, type WalletRecord } from './records.js';
import { PaymentProviderError, requireGateway, type CheckoutCreated } from './stripe.js';

export const PurchaseInput = z
  .object({
    packType: z.string().min(1).max(40).describe('The pack to buy (see GET /packs), e.g. starter.'),
    successUrl: z
      .string()
      .min(1)
      .max(2048)
      .describe(
        'Where checkout sends the buyer after paying; HTTPS (or a host the operator allows). May contain {CHECKOUT_SESSION_ID}.',
      ),
    cancelUrl: z
      .string()
      .min(1)
      .max(2048)
      .describe('Where checkout sends the buyer who cancels; HTTPS (or a host the operator allows).'),
  })
  .strict()
  .describe('A pack to buy and where to return.');

export const PurchaseOutput = z
  .object({
    checkoutSessionId: z.string().describe('The Stripe checkout session id (cs_...).'),
    url: z.string().describe('Send the buyer here to pay.'),
    expiresAt: z.string().describe('When the checkout session expires unpaid, ISO 8601.'),
    purchaseId: z.string().describe("This service's id of the purchase (pur_...)."),
    packType: z.string().describe('The pack bought.'),
    credits: z.number().int().describe('Credits added once the payment completes.'),
    amount: z.number().int().describe('Price in minor units.'),
    currency: z.string().describe('ISO 4217 currency, lowercase.'),
  })
  .describe('A checkout session to pay for a pack.');

/** A return URL must be HTTPS, or on a host the operator allows (SVC_PAYMENT_RETURN_HOSTS). */
function returnUrlProblem(field: string, raw: string, allowedHosts: readonly string[]): ErrorDetail | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { field, reason: 'not an absolute URL' };
  }
  if (url.username || url.password) return { field, reason: 'must not contain credentials' };
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && allowedHosts.includes(url.hostname.toLowerCase().replace(/^\[|\]$/g, '')))
    return undefined;
  return { field, reason: 'must be an https:// URL' };
}

export async function purchase(
  deps: CreditDeps,
  accountId: string,
  input: z.output<typeof PurchaseInput>,
): Promise<z.infer<typeof PurchaseOutput>> {
  const details: ErrorDetail[] = [];
  const pack = findPack(catalogueOf(deps.config), input.packType);
  if (!pack) details.push(unknownPack(catalogueOf(deps.config), input.packType));
  for (const [field, raw] of [
    ['successUrl', input.successUrl],
    ['cancelUrl', input.cancelUrl],
  ] as const) {
    const problem = returnUrlProblem(field, raw, deps.config.payments.returnHosts);
    if (problem) details.push(problem);
  }
  if (details.length || !pack) throw ApiError.validation('Invalid purchase.', details);
  const gateway = requireGateway(deps.config.payments);
  const wallet = await deps.store.get<WalletRecord>(CREDIT_WALLETS, accountId);
  const purchaseId = `pur_${ulid()}`;
  let session: CheckoutCreated;
  try {
    session = await gateway.createCheckout({
      accountId,
      purchaseId,
      pack,
      successUrl: input.successUrl,
      cancelUrl: input.cancelUrl,
      customerId: wallet?.stripeCustomerId ?? undefined,
    });
  } catch (err) {
    if (!(err instanceof PaymentProviderError)) throw err;
    deps.log.warn({ accountId, purchaseId, reason: err.message }, 'checkout session could not be created');
    throw new ApiError(
      'SERVICE_UNAVAILABLE',
      'The payment provider could not be reached or refused the request; try again shortly.',
    );
  }
  const expiresAt = new Date(session.expiresAt * 1000).toISOString();
  await inAccount(deps.store, accountId, async (tx) => {
    const now = deps.clock.now();
    const record: CheckoutRecord = {
      id: session.id,
      ownerId: accountId,
      purchaseId,
      packType: pack.type,
      credits: pack.credits,
      amount: pack.price,
      currency: pack.currency,
      status: 'open',
      url: session.url,
      expiresAt,
      paymentIntentId: null,
      createdAt: now.toISOString(),
      completedAt: null,
    };
    // Stripe gives each purchase id its own session; a record already there is never overwritten.
    if (await tx.get(CREDIT_CHECKOUTS, session.id)) return;
    await tx.put(CREDIT_CHECKOUTS, record);
    await emitInTx(
      tx,
      accountId,
      'payment.initiated',
      {
        kind: 'checkout',
        checkoutSessionId: session.id,
        purchaseId,
        packType: pack.type,
        credits: pack.credits,
        amount: pack.price,
        currency: pack.currency,
      },
      now,
    );
  });
  return {
    checkoutSessionId: session.id,
    url: session.url,
    expiresAt,
    purchaseId,
    packType: pack.type,
    credits: pack.credits,
    amount: pack.price,
    currency: pack.currency,
  };
}

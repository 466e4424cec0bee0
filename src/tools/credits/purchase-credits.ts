import { purchase, PurchaseInput, PurchaseOutput } from '../../credits/checkout.js';
import { defineTool, OUTBOUND, SESSION_ONLY } from '../define.js';
import { creditDeps, creditRoute } from './common.js';

export const purchaseCreditsTool = defineTool({
  name: 'purchase_credits',
  example: {
    packType: 'starter',
    successUrl: 'https://app.example.com/credits/done?session={CHECKOUT_SESSION_ID}',
    cancelUrl: 'https://app.example.com/credits',
  },
  title: 'Buy a credit pack',
  description:
    'Creates a Stripe Checkout session for a pack and returns its URL; the credits are added once Stripe reports the payment complete ' +
    '(exactly once, whatever the number of notifications). The card is saved for automatic reloads. Return URLs must be HTTPS. ' +
    '503 PAYMENTS_NOT_CONFIGURED when this server has no Stripe key. Session and X-CSRF-Token; REST only.',
  domain: 'credits',
  ...SESSION_ONLY,
  annotations: OUTBOUND,
  input: PurchaseInput,
  output: PurchaseOutput,
  rest: creditRoute('POST', 'purchase', { status: 201, extraStatuses: [503] }),
  handler: (input, ctx) => purchase(creditDeps(ctx), ctx.principal.ownerId, input),
});

/**
 * The parts of Stripe's objects that ./stripe-events.ts reads, as zod schemas:
 * a signed body can still hold anything, so each object is parsed before use.
 */
import { z } from 'zod';

const StripeId = z
  .string()
  .regex(/^[A-Za-z0-9_]{1,255}$/)
  .describe('A Stripe object id, e.g. cs_..., pi_..., ch_..., evt_....');
const Ref = z
  .union([
    StripeId,
    z.object({ id: StripeId.describe('The id of the expanded object.') }).describe('An expanded Stripe object.'),
  ])
  .nullish()
  .describe('A Stripe object id, or the object expanded.');
const Metadata = z
  .record(z.string().describe('Metadata key.'), z.string().describe('Metadata value.'))
  .nullish()
  .describe('Key-value metadata of the object.');
const Amount = z.number().nullish().describe('An amount in minor units.');
const Currency = z.string().nullish().describe('ISO 4217 currency, lowercase.');

export const EventEnvelope = z
  .object({
    id: StripeId,
    type: z.string().min(1).max(200).describe('The event type.'),
    data: z.object({ object: z.unknown().describe('The object the event is about.') }).describe('The event data.'),
  })
  .describe('A Stripe event.');

export const SessionObject = z
  .object({
    id: StripeId,
    mode: z.string().nullish().describe('payment, setup or subscription.'),
    payment_status: z.string().nullish().describe('paid, unpaid or no_payment_required.'),
    amount_total: Amount,
    currency: Currency,
    payment_intent: Ref,
    customer: Ref,
    metadata: Metadata,
  })
  .describe('A Stripe checkout session.');
export type SessionObject = z.infer<typeof SessionObject>;

export const ChargeObject = z
  .object({
    id: StripeId,
    amount: z.number().describe('Amount charged, minor units.'),
    amount_refunded: z.number().describe('Amount refunded so far, minor units.'),
    currency: z.string().describe('ISO 4217 currency, lowercase.'),
    payment_intent: Ref,
    metadata: Metadata,
  })
  .describe('A Stripe charge.');

export const PaymentIntentObject = z
  .object({
    id: StripeId,
    amount: z.number().describe('Amount, minor units.'),
    currency: z.string().describe('ISO 4217 currency, lowercase.'),
    status: z.string().nullish().describe('The PaymentIntent status, e.g. succeeded.'),
    customer: Ref,
    metadata: Metadata,
    last_payment_error: z
      .object({
        code: z.string().nullish().describe('Error code.'),
        message: z.string().nullish().describe('Error message.'),
      })
      .nullish()
      .describe('Why the last payment attempt failed.'),
  })
  .describe('A Stripe PaymentIntent.');

export function parse<T>(schema: z.ZodType<T>, value: unknown): T | undefined {
  const result = schema.safeParse(value);
  return result.success ? result.data : undefined;
}

export const refId = (v: z.infer<typeof Ref>): string | undefined => (typeof v === 'string' ? v : (v?.id ?? undefined));

/**
 * POST /api/v1/payments/stripe/webhook: Stripe's notifications.
 *
 * The signature covers the exact bytes Stripe sent, so this route (alone, in
 * its own encapsulated scope) takes the body as a raw Buffer instead of the
 * JSON parser the rest of the API uses. The SDK's constructEvent verifies it
 * (signature and age, against the service clock); a bad or stale signature is
 * a 400 in the envelope and changes nothing. A verified event is checked
 * against the purchase records and applied by src/credits/stripe-events.ts:
 * one that is not this service's, or does not match its record, answers 200
 * with `ignored: true` (its reason logged; Stripe would retry anything else
 * for days). A valid event that cannot be applied now (the store or Stripe
 * unreachable) answers 503, anything unexpected 500, so Stripe delivers it
 * again (applying is idempotent).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../core/errors.js';
import { errorEnvelope, makeMeta } from '../core/envelope.js';
import { handleStripeEvent } from '../credits/stripe-events.js';
import { PaymentProviderError, verifyStripeEvent } from '../credits/stripe.js';
import type { Services } from '../tools/define.js';
import { unavailableError } from '../access/unavailable.js';

export const STRIPE_WEBHOOK_PATH = '/api/v1/payments/stripe/webhook';

/** Stripe's events are small; anything larger is not one. */
const WEBHOOK_BODY_LIMIT = 512 * 1024;

export async function registerStripeWebhook(app: FastifyInstance, services: Services): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_req, body, done) =>
      done(null, body),
    );

    const fail = (reply: FastifyReply, err: ApiError) =>
      reply
        .status(err.status)
        .type('application/json; charset=utf-8')
        .send(errorEnvelope(err.toBody(), makeMeta(String(reply.request.id), services.clock.now())));

    scope.post(STRIPE_WEBHOOK_PATH, { schema: { hide: true } }, async (req, reply) => {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      const header = req.headers['stripe-signature'];
      let event;
      try {
        event = verifyStripeEvent(
          services.config.payments,
          raw,
          typeof header === 'string' ? header : undefined,
          services.clock.now().getTime(),
        );
      } catch (err) {
        if (err instanceof ApiError) {
          services.log.warn({ requestId: req.id, code: err.code, remoteAddress: req.ip }, 'Stripe webhook refused');
          return fail(reply, err);
        }
        throw err;
      }
      try {
        const result = await handleStripeEvent(
          { store: services.store, clock: services.clock, config: services.config, log: services.log },
          event,
        );
        const fields = {
          requestId: req.id,
          stripeEvent: event.id,
          type: event.type,
          handled: result.handled,
          note: result.note,
        };
        if (result.handled) services.log.info(fields, 'Stripe webhook applied');
        else if (result.suspicious)
          services.log.warn(fields, 'Stripe webhook ignored: it does not match what this service sold');
        else services.log.info(fields, 'Stripe webhook ignored');
        return reply.status(200).send({
          success: true,
          data: {
            received: true,
            eventId: event.id,
            type: event.type,
            handled: result.handled,
            ignored: !result.handled,
            note: result.note,
          },
          meta: makeMeta(String(req.id), services.clock.now()),
        });
      } catch (err) {
        services.log.error(
          { err, requestId: req.id, stripeEvent: event.id, type: event.type },
          'Stripe webhook could not be applied; Stripe will deliver it again',
        );
        const now = services.clock.now();
        const unavailable =
          unavailableError(err, now) ??
          (err instanceof PaymentProviderError
            ? new ApiError(
                'SERVICE_UNAVAILABLE',
                'The payment provider could not be reached; the event will be applied when Stripe delivers it again.',
              )
            : undefined);
        return fail(reply, unavailable ?? ApiError.internal());
      }
    });
  });
}

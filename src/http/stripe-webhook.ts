/**
 * POST /api/v1/payments/stripe/webhook: Stripe's notifications.
 *
 * The signature covers the exact bytes Stripe sent, so this route (alone, in
 * its own encapsulated scope) takes the body as a raw Buffer instead of the
 * JSON parser the rest of the API uses. The SDK's constructEvent verifies it
 * (signature and age, against the service clock); a bad or stale signature is
 * a 400 in the envelope and changes nothing. A verified event is applied by
 * src/credits/checkout.ts; a failure to apply it answers 500 so Stripe
 * delivers it again (applying is idempotent).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../core/errors.js';
import { errorEnvelope, makeMeta } from '../core/envelope.js';
import { handleStripeEvent } from '../credits/checkout.js';
import { verifyStripeEvent } from '../credits/stripe.js';
import type { Services } from '../tools/define.js';

export const STRIPE_WEBHOOK_PATH = '/api/v1/payments/stripe/webhook';

/** Stripe's events are small; anything larger is not one. */
const WEBHOOK_BODY_LIMIT = 512 * 1024;

export async function registerStripeWebhook(app: FastifyInstance, services: Services): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_req, body, done) => done(null, body));

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
        event = verifyStripeEvent(services.config.payments, raw, typeof header === 'string' ? header : undefined, services.clock.now().getTime());
      } catch (err) {
        if (err instanceof ApiError) {
          services.log.warn({ requestId: req.id, code: err.code, remoteAddress: req.ip }, 'Stripe webhook refused');
          return fail(reply, err);
        }
        throw err;
      }
      try {
        const result = await handleStripeEvent({ store: services.store, clock: services.clock, config: services.config, log: services.log }, event);
        services.log.info({ requestId: req.id, stripeEvent: event.id, type: event.type, handled: result.handled, note: result.note }, 'Stripe webhook');
        return reply.status(200).send({
          success: true,
          data: { received: true, eventId: event.id, type: event.type, handled: result.handled, note: result.note },
          meta: makeMeta(String(req.id), services.clock.now()),
        });
      } catch (err) {
        services.log.error({ err, requestId: req.id, stripeEvent: event.id, type: event.type }, 'Stripe webhook could not be applied; Stripe will deliver it again');
        return fail(reply, err instanceof ApiError && err.status < 500 ? err : ApiError.internal());
      }
    });
  });
}

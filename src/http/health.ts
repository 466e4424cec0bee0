import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { makeMeta } from '../core/envelope.js';
import { checkHealth } from '../core/health.js';
import type { Services } from '../tools/define.js';
import { SERVICE_VERSION } from '../version.js';
import { MetaSchema } from './envelope-schemas.js';

const HealthEnvelope = z
  .object({
    success: z.literal(true).describe('Always true.'),
    data: z
      .object({
        status: z
          .enum(['ok', 'degraded'])
          .describe(
            'ok: every part reaches its engine. degraded: a part cannot (see store and limiter); the process still answers, ' +
              'requests needing that part get 503 SERVICE_UNAVAILABLE, and it recovers by itself. Always HTTP 200: alert on degraded, ' +
              'do not take the instance out of rotation for it (the engines are shared by every instance).',
          ),
        version: z.string().max(64).describe('Service version.'),
        uptimeSeconds: z.number().int().min(0).describe('Seconds since start.'),
        store: z
          .object({
            engine: z
              .string()
              .max(32)
              .describe('lowdb (embedded, one process) or postgres (shared by several instances).'),
            status: z.enum(['ok', 'unavailable']).describe('Whether the store reaches its engine now.'),
          })
          .describe('The store.'),
        limiter: z
          .object({
            engine: z.string().max(32).describe('memory (in process) or redis (shared by several instances).'),
            status: z.enum(['ok', 'unavailable']).describe('Whether the rate limiter reaches its engine now.'),
          })
          .describe('The rate limiter.'),
      })
      .describe('Health.'),
    meta: MetaSchema,
  })
  .describe('Health envelope.');

/** GET /health: liveness, and whether the store and the rate limiter reach their engines. */
export async function healthRoutes(app: FastifyInstance, { services }: { services: Services }): Promise<void> {
  app.get(
    '/health',
    {
      schema: {
        operationId: 'health',
        summary: 'Liveness check',
        tags: ['system'],
        security: [],
        response: { 200: HealthEnvelope },
      },
    },
    async (req) => {
      const health = await checkHealth(services.store, services.limiter);
      return {
        success: true as const,
        data: {
          status: health.status,
          version: SERVICE_VERSION,
          uptimeSeconds: Math.round(process.uptime()),
          store: health.store,
          limiter: health.limiter,
        },
        meta: makeMeta(String(req.id), services.clock.now()),
      };
    },
  );
}

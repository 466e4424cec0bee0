/**
 * The OpenAPI document (GET /api/v1/openapi.json) and its browsable form (/docs). @fastify/swagger builds the
 * document from the routes' zod schemas as they are added, so this plugin is registered before the routes;
 * src/http/openapi.ts finishes it.
 */
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { AnyTool, Services } from '../tools/define.js';
import { SERVICE_VERSION } from '../version.js';
import { finishOpenApiDocument } from './openapi.js';
import { cookieOptionsOf, sessionCookieName } from './session-cookie.js';

export const docsPlugin = fp(
  async (app: FastifyInstance, { services, tools }: { services: Services; tools: readonly AnyTool[] }) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.0.3',
        info: {
          title: 'svc inheritance planning API',
          version: SERVICE_VERSION,
          license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
          description:
            'Generates inheritance smart contracts and checks plans against inheritance law. Every operation is also an MCP tool ' +
            'of the same name at POST /mcp. Responses use the envelope {success, data | error, meta}.',
        },
        servers: [{ url: services.config.publicUrl ?? '/' }],
        components: {
          securitySchemes: {
            bearerAuth: {
              type: 'http',
              scheme: 'bearer',
              description: 'Recommended: `Authorization: Bearer <API_KEY>`.',
            },
            sessionCookie: {
              type: 'apiKey',
              in: 'cookie',
              name: sessionCookieName(cookieOptionsOf(services.config)),
              description:
                'A user session (POST /api/auth/login). Every non-GET request made with it also needs the X-CSRF-Token header.',
            },
            apiKeyHeader: {
              type: 'apiKey',
              in: 'header',
              name: 'X-API-Key',
              description: 'The key in the X-API-Key header.',
            },
            apiKeyQuery: {
              type: 'apiKey',
              in: 'query',
              name: 'api_key',
              description: 'Not recommended: query strings end up in logs.',
            },
          },
        },
        security: [{ bearerAuth: [] }, { apiKeyHeader: [] }, { apiKeyQuery: [] }],
        tags: [...new Set(tools.map((t) => t.domain))].map((name) => ({ name, description: `${name} operations` })),
      },
      transform: jsonSchemaTransform,
      // Components, examples, headers and media types (src/http/openapi.ts); built once and cached.
      transformObject: (document) =>
        'openapiObject' in document ? finishOpenApiDocument(document.openapiObject, tools) : document.swaggerObject,
    });
    await app.register(swaggerUi, { routePrefix: '/docs' });
    app.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  },
  { name: 'svc-docs' },
);

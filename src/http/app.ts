/**
 * The REST + MCP-over-HTTP application, composed of plugins: errors (./errors.ts), the OpenAPI document (./docs.ts),
 * health (./health.ts), one route per tool (./tool-routes.ts), /mcp (./mcp-route.ts), the embeddable wizard
 * (./embed.ts) and the Stripe webhook (./stripe-webhook.ts).
 */
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { newId } from '../core/ids.js';
import type { AnyTool, Services } from '../tools/define.js';
import { countRequest } from '../access/key.js';
import { presentedKey } from './credentials.js';
import { docsPlugin } from './docs.js';
import { registerEmbedRoutes } from './embed.js';
import { earlyErrorHandlers, errorsPlugin, RequestLog } from './errors.js';
import { healthRoutes } from './health.js';
import { jsonBodyParser, type StringBodyParser } from './json-body.js';
import { mcpRoutes } from './mcp-route.js';
import { RATE_LIMIT, setRateHeaders } from './rate-headers.js';
import { registerStripeWebhook } from './stripe-webhook.js';
import { registerMailUnsubscribe } from './mail-unsubscribe.js';
import { registerMailCheckIn } from './mail-checkin.js';
import { registerAccountPages } from './account-page.js';
import { registerHeirPage } from './heir-page.js';
import { toolRoutes } from './tool-routes.js';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Whether a request URL is the MCP endpoint's (with or without a query). */
const isMcpUrl = (url: string): boolean => url === '/mcp' || url.startsWith('/mcp?');

function createServer(services: Services): FastifyInstance {
  const configured = services.config.trustProxy;
  const trustProxy: FastifyServerOptions['trustProxy'] =
    typeof configured === 'number' ? (_address: string, hop: number) => hop < configured : (configured ?? false);
  const log = services.log as FastifyBaseLogger;
  return Fastify({
    // Fastify is given the logger only when requests are logged (info and below): with a logger of its own it times
    // every response and adds and removes two listeners on it, for the request log line alone. Without, each
    // request's logger is still the service's (below), so its warnings and errors are logged as before; only the
    // server's own lines (its listening address, errors of onListen hooks) are not, and a response that fails while
    // being written is not logged when requests are not.
    ...(services.log.isLevelEnabled('info') ? { loggerInstance: log } : {}),
    // No per-request child logger (creating one costs more than the rest of a cheap
    // request): error logs name the request id themselves.
    childLoggerFactory: () => log,
    logController: new RequestLog(services.log),
    bodyLimit: services.config.bodyLimit,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : newId('request');
    },
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    ajv: { customOptions: { coerceTypes: false } },
    // The client address is the socket's unless proxies are configured; then only
    // X-Forwarded-For entries added by those proxies are believed.
    trustProxy,
    ...earlyErrorHandlers(services),
  });
}

/** Builds the REST + MCP-over-HTTP application. The caller listens and closes it. */
export async function buildApp(services: Services, tools: readonly AnyTool[]): Promise<FastifyInstance> {
  const app = createServer(services);

  // The session cookie (HttpOnly, SameSite=Lax, Secure when the public URL is HTTPS) is read and set by the tool
  // routes themselves (./session-cookie.ts): no cookie plugin and its per-request hooks.

  // Validation happens once, in invokeTool, for every transport; the zod schemas
  // given to routes feed the OpenAPI document (through jsonSchemaTransform) only.
  app.setValidatorCompiler(() => (data) => ({ value: data }));
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  // JSON only: a text/plain body is a wrong content type, not a string input.
  app.removeContentTypeParser('text/plain');
  // Fastify's JSON parser, whose refusal of a __proto__ key is told apart from malformed JSON (./json-body.ts).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    jsonBodyParser(app.getDefaultJsonParser('error', 'error') as StringBodyParser),
  );

  // Graceful shutdown: in-flight requests finish, and their connections close
  // after answering rather than idling on keep-alive and holding close() open.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Callback-style hooks: cheaper than async ones on every request. One onSend hook
  // does the per-response work (an onRequest hook would cost a hook stage more).
  app.addHook('onSend', (req, reply, payload, done) => {
    // Lower-case names: see RATE_LIMIT (./rate-headers.ts).
    reply.header('x-request-id', req.id);
    if (closing) reply.header('connection', 'close');
    // Tool calls and admitted /mcp requests set the rate headers themselves; every other API or /mcp response (an
    // unknown route, a body refused before it reaches a call: malformed, too large, of a wrong type) is counted here.
    if (reply.hasHeader(RATE_LIMIT) || !(req.url.startsWith('/api/') || isMcpUrl(req.url))) return done(null, payload);
    countRequest(services, { apiKey: presentedKey(req.headers, req.query), clientIp: req.ip }).then(
      (state) => {
        setRateHeaders(reply, state);
        done(null, payload);
      },
      () => done(null, payload),
    );
  });

  await app.register(errorsPlugin, { services });
  // Before the routes: the document is built from them as they are added.
  await app.register(docsPlugin, { services, tools });
  await registerStripeWebhook(app, services);
  await registerMailUnsubscribe(app, services);
  await registerMailCheckIn(app, services);
  await registerHeirPage(app, services);
  await registerAccountPages(app, services);
  await app.register(healthRoutes, { services });
  await app.register(toolRoutes, { services, tools });
  await app.register(mcpRoutes, { services, tools, closing: () => closing });
  await app.register(async (scope) => registerEmbedRoutes(scope, services));
  return app;
}

// The MCP adapter. With src/mcp/stdio.ts and src/mcp/http.ts, the only code that
// imports the MCP SDK. It uses the SDK's low-level Server rather than McpServer:
// McpServer validates tool input itself and answers with its own error text,
// while we want every transport to go through invokeTool (one validation, one
// auth and scope check, one error envelope).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import {
  CallToolRequestSchema,
  CompleteRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { completeResource, matchResource, PROMPTS, RESOURCE_TEMPLATES } from '../resources/index.js';
import { APP_RESOURCES, findAppResource } from '../resources/apps.js';
import { ApiError } from '../core/errors.js';
import { errorEnvelope, makeMeta } from '../core/envelope.js';
import { newId } from '../core/ids.js';
import type { AnyTool, Services } from '../tools/define.js';
import type { Principal } from '../accounts/principal.js';
import { ZodError } from 'zod';
import type { CallInfo } from '../access/call.js';
import { admit } from '../access/key.js';
import { mayCall, requireAccess } from '../access/permissions.js';
import { invokeTool, zodDetails } from '../tools/invoke.js';
import { toolSchemas } from '../tools/schema.js';
import { MCP_INSTRUCTIONS, SERVER_CAPABILITIES, SERVER_INFO } from './info.js';
import { rpcCodeOf, rpcError } from './rpc-errors.js';

export { MCP_INSTRUCTIONS } from './info.js';
export { RPC_UNAUTHORIZED } from './rpc-errors.js';

export interface McpServerOptions {
  tools: readonly AnyTool[];
  services: Services;
  /** The key presented for this connection (stdio configuration or the HTTP Authorization header). */
  apiKey: string | undefined;
  transport: CallInfo['transport'];
  /** The client's address (HTTP), or loopback for stdio. */
  clientIp: string | undefined;
  /**
   * The principal the HTTP route already authenticated and counted for this
   * POST (every JSON-RPC request on /mcp is admitted there, before the SDK sees
   * it). Undefined over stdio: each request is admitted here instead.
   */
  admitted?: Principal | undefined;
  /** MCP over HTTP: the POST's Accept-Language, the language of refused calls' validation details. */
  acceptLanguage?: string | undefined;
}

/** A tool as tools/list gives it (the build-time manifest, src/mcp/manifest-source.ts, is made from this too). */
export function describeTool(tool: AnyTool): Tool {
  const schemas = toolSchemas(tool);
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: schemas.input as Tool['inputSchema'],
    outputSchema: schemas.output as Tool['outputSchema'],
    annotations: { title: tool.title, ...tool.annotations },
    ...(tool.meta ? { _meta: tool.meta } : {}),
  };
}

function errorResult(err: ApiError, requestId: string, services: Services): CallToolResult {
  const envelope = errorEnvelope(err.toBody(), makeMeta(requestId, services.clock.now()));
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(envelope) }] };
}

/** What the handlers work with, derived once from the options. */
interface Ready {
  opts: McpServerOptions;
  tools: readonly AnyTool[];
  byName: Map<string, AnyTool>;
}

/** The MCP tools of a registry and their index by name, made once per registry (HTTP makes a server per request). */
const mcpTools = new WeakMap<readonly AnyTool[], Omit<Ready, 'opts'>>();

function prepare(opts: McpServerOptions): Ready {
  let made = mcpTools.get(opts.tools);
  if (!made) {
    // Session routes (cookies) are REST only.
    const tools = opts.tools.filter((t) => t.mcp !== false);
    made = { tools, byName: new Map(tools.map((t) => [t.name, t])) };
    mcpTools.set(opts.tools, made);
  }
  return { opts, ...made };
}

/**
 * `notifications/progress` for one tool call, when the client asked for it with
 * `_meta.progressToken`; undefined otherwise. Progress values only ever grow (the
 * protocol requires it): a stage without figures counts as one more step.
 */
function progressSender(
  token: string | number | undefined,
  send: (n: {
    method: 'notifications/progress';
    params: { progressToken: string | number; progress: number; total?: number; message?: string };
  }) => Promise<void>,
  log: Services['log'],
): ((stage: string, done?: number, total?: number) => void) | undefined {
  if (token === undefined) return undefined;
  let last = 0;
  return (stage, done, total) => {
    last = done !== undefined && done > last ? done : last + 1;
    const params = {
      progressToken: token,
      progress: last,
      message: stage,
      ...(total !== undefined && total >= last ? { total } : {}),
    };
    send({ method: 'notifications/progress', params }).catch((err: unknown) =>
      log.debug({ err }, 'could not send a progress notification'),
    );
  };
}

/**
 * The request's abort signal, aborted with the API's own error rather than the SDK's reason (the client's
 * notifications/cancelled reason, any string, or an AbortError): work stopped by it (a compile's pool rejects with
 * the reason) fails with the VALIDATION_ERROR REST gives a client that went away, not as an internal error (an
 * error log line, and a contract.error of INTERNAL_ERROR sent to the account's webhooks).
 */
function cancellation(signal: AbortSignal): AbortSignal {
  const controller = new AbortController();
  const abort = () =>
    controller.abort(
      ApiError.validation('The client cancelled the request before the answer.', [{ field: '', reason: 'cancelled' }]),
    );
  if (signal.aborted) abort();
  else signal.addEventListener('abort', abort, { once: true });
  return controller.signal;
}

let sharedValidator: AjvJsonSchemaValidator | undefined;

/**
 * A server with every tool registered, bound to one connection's key. The
 * options may be a promise (`svc mcp` answers `initialize` while the tools and
 * the store are still loading): requests other than `initialize` wait for it.
 */
export function createMcpServer(options: McpServerOptions | Promise<McpServerOptions>): Server {
  // HTTP makes a server per request; without a shared validator the SDK would build a fresh Ajv (about 5 ms of CPU)
  // for each one.
  sharedValidator ??= new AjvJsonSchemaValidator();
  const server = new Server(SERVER_INFO, {
    capabilities: SERVER_CAPABILITIES,
    instructions: MCP_INSTRUCTIONS,
    jsonSchemaValidator: sharedValidator,
  });
  const ready: Ready | Promise<Ready> = options instanceof Promise ? options.then(prepare) : prepare(options);
  // A failed load is reported by whoever started it (the CLI exits); here it only fails the requests.
  if (ready instanceof Promise) ready.catch(() => undefined);

  /** The caller of a request that is not a tool call: admitted (authenticated and counted) like any call. */
  const caller = async (opts: McpServerOptions): Promise<Principal> => {
    if (opts.admitted) return opts.admitted;
    try {
      return (await admit(opts.services, { apiKey: opts.apiKey, clientIp: opts.clientIp })).principal;
    } catch (err) {
      throw protocolError(err, opts.services);
    }
  };

  // Only a valid key lists tools, and only the tools it may call.
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const { opts, tools } = await ready;
    const principal = await caller(opts);
    return { tools: tools.filter((t) => mayCall(t, principal)).map(describeTool) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { opts, byName } = await ready;
    const requestId = newId('request');
    const tool = byName.get(request.params.name);
    if (!tool) {
      return errorResult(new ApiError('NOT_FOUND', `Unknown tool "${request.params.name}"`), requestId, opts.services);
    }
    try {
      const output = await invokeTool(tool, request.params.arguments ?? {}, opts.services, {
        apiKey: opts.apiKey,
        requestId,
        transport: opts.transport,
        clientIp: opts.clientIp,
        admitted: opts.admitted,
        acceptLanguage: opts.acceptLanguage,
        // notifications/cancelled over stdio, or the HTTP connection closing, aborts the work.
        signal: cancellation(extra.signal),
        progress: progressSender(request.params._meta?.progressToken, extra.sendNotification, opts.services.log),
      });
      return { content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: output };
    } catch (err) {
      return errorResult(err instanceof ApiError ? err : ApiError.internal(), requestId, opts.services);
    }
  });
  /** Resources, prompts and completions need a valid key with contracts:read, admitted like a tool call. */
  const authorize = async (): Promise<McpServerOptions> => {
    const { opts } = await ready;
    const principal = await caller(opts);
    try {
      requireAccess(principal, 'contracts:read');
    } catch (err) {
      throw protocolError(err, opts.services);
    }
    return opts;
  };

  registerResourceHandlers(server, authorize);
  wrapRequestHandlers(server);
  return server;
}

/** The request handlers of each server that have not returned yet (wrapRequestHandlers records them). */
const running = new WeakMap<Server, Set<Promise<unknown>>>();

/**
 * Resolves once every request handler the server started has returned. Closing a Server aborts the requests under
 * way but does not wait for them: a handler past its last look at the signal (a write begun, a refund owed) goes on,
 * so whoever closes the store afterwards (`svc mcp` when the client ends stdin, or on a signal) waits for this first.
 */
export async function handlersSettled(server: Server): Promise<void> {
  const set = running.get(server);
  while (set?.size) await Promise.allSettled([...set]);
}

/** The resources/templates/list result. */
export function listResourceTemplates() {
  return {
    resourceTemplates: RESOURCE_TEMPLATES.map((r) => ({
      uriTemplate: r.uriTemplate,
      name: r.name,
      title: r.title,
      description: r.description,
      mimeType: r.mimeType,
    })),
  };
}

/** The resources/list result: the MCP Apps, then every template's entries (documentation pages and jurisdictions). */
export function listResources(services: Pick<Services, 'docs' | 'jurisdictions'>) {
  const apps = APP_RESOURCES.map((r) => ({
    uri: r.uri,
    name: r.name,
    title: r.title,
    description: r.description,
    mimeType: r.mimeType,
    _meta: r.meta,
  }));
  return {
    resources: [
      ...apps,
      ...RESOURCE_TEMPLATES.flatMap((r) => r.list(services as Services).map((e) => ({ ...e, mimeType: r.mimeType }))),
    ],
  };
}

/** The prompts/list result. */
export function listPrompts() {
  return {
    prompts: PROMPTS.map((p) => ({
      name: p.name,
      title: p.title,
      description: p.description,
      arguments: p.arguments.map((a) => ({ name: a.name, description: a.description, required: a.required })),
    })),
  };
}

/** Resources, prompt and completion handlers; `authorize` admits the caller and returns its connection's options. */
function registerResourceHandlers(server: Server, authorize: () => Promise<McpServerOptions>): void {
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => {
    await authorize();
    return listResourceTemplates();
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => {
    const opts = await authorize();
    return listResources(opts.services);
  });
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const opts = await authorize();
    const app = findAppResource(request.params.uri);
    if (app) {
      try {
        return { contents: [{ uri: app.uri, mimeType: app.mimeType, text: await app.read(), _meta: app.meta }] };
      } catch (err) {
        throw protocolError(err, opts.services);
      }
    }
    const found = matchResource(request.params.uri);
    if (!found) throw rpcError(-32002, `Resource not found: ${request.params.uri}`);
    try {
      return {
        contents: [
          { uri: request.params.uri, mimeType: found.def.mimeType, text: found.def.read(opts.services, found.value) },
        ],
      };
    } catch (err) {
      if (err instanceof ApiError && err.code === 'NOT_FOUND')
        throw rpcError(-32002, `Resource not found: ${request.params.uri}`, err.toBody());
      throw protocolError(err, opts.services);
    }
  });
  server.setRequestHandler(ListPromptsRequestSchema, async () => {
    await authorize();
    return listPrompts();
  });
  server.setRequestHandler(GetPromptRequestSchema, async (request) => {
    await authorize();
    const prompt = PROMPTS.find((p) => p.name === request.params.name);
    if (!prompt) throw rpcError(ErrorCode.InvalidParams, `Unknown prompt "${request.params.name}"`);
    return {
      description: prompt.description,
      messages: [
        {
          role: 'user' as const,
          content: { type: 'text' as const, text: prompt.render(request.params.arguments ?? {}) },
        },
      ],
    };
  });
  server.setRequestHandler(CompleteRequestSchema, async (request) => {
    const opts = await authorize();
    const { ref, argument } = request.params;
    let values: string[] = [];
    if (ref.type === 'ref/resource') values = completeResource(opts.services, ref.uri, argument.value);
    else if (ref.type === 'ref/prompt') {
      const arg = PROMPTS.find((p) => p.name === ref.name)?.arguments.find((a) => a.name === argument.name);
      values = arg?.complete?.(opts.services, argument.value) ?? [];
    }
    return { completion: { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 } };
  });
}

/**
 * Wraps the registered handlers once (the SDK keeps them in a map it does not expose; this file is the only one that
 * touches the SDK), for two things:
 * - the SDK parses each request against its schema before calling the handler and reports a mismatch (say,
 *   `arguments` that is not an object) as -32603 with a raw zod dump. Those are the client's mistake: -32602 Invalid
 *   params, with the fields named;
 * - each handler's run is recorded until it returns, for handlersSettled.
 */
function wrapRequestHandlers(server: Server): void {
  const set = new Set<Promise<unknown>>();
  running.set(server, set);
  const handlers = (
    server as unknown as { _requestHandlers: Map<string, (req: unknown, extra: unknown) => Promise<unknown>> }
  )._requestHandlers;
  for (const [method, handler] of handlers) {
    handlers.set(method, (req, extra) => {
      const run = invalidParams(method, handler, req, extra);
      set.add(run);
      const done = () => set.delete(run);
      run.then(done, done);
      return run;
    });
  }
}

/** Runs one handler, a zod failure of the SDK's request parsing turned into -32602 Invalid params. */
async function invalidParams(
  method: string,
  handler: (req: unknown, extra: unknown) => Promise<unknown>,
  req: unknown,
  extra: unknown,
): Promise<unknown> {
  try {
    return await handler(req, extra);
  } catch (err) {
    // The SDK may bring its own copy of zod: recognised by shape, not by class.
    if (
      err instanceof ZodError ||
      (err instanceof Error && /ZodError/.test(err.name) && Array.isArray((err as ZodError).issues))
    ) {
      const details = zodDetails(err as ZodError, req, { people: false }).map((d) => ({
        ...d,
        field: d.field.replace(/^params\./, ''),
      }));
      throw rpcError(
        ErrorCode.InvalidParams,
        `Invalid params for ${method}: ${details.map((d) => `${d.field || '(request)'}: ${d.reason}`).join('; ')}`,
        { details },
      );
    }
    throw err;
  }
}

/** An admission or lookup failure on a non-tool request, as a JSON-RPC error carrying the error envelope's error. */
function protocolError(err: unknown, services: Services): Error {
  const apiErr = err instanceof ApiError ? err : ApiError.internal();
  if (!(err instanceof ApiError)) services.log.error({ err }, 'MCP request failed');
  return rpcError(rpcCodeOf(apiErr), apiErr.message, apiErr.toBody());
}

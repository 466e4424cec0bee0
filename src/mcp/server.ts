// The MCP adapter. With src/mcp/stdio.ts and src/mcp/http.ts, the only code that
// imports the MCP SDK. It uses the SDK's low-level Server rather than McpServer:
// McpServer validates tool input itself and answers with its own error text,
// while we want every transport to go through invokeTool (one validation, one
// auth and scope check, one error envelope).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { ApiError } from '../core/errors.js';
import { errorEnvelope, makeMeta } from '../core/envelope.js';
import { newId } from '../core/ids.js';
import type { AnyTool, Services } from '../tools/define.js';
import { authenticate } from '../keys/keys.js';
import { invokeTool, mayCall, type CallInfo } from '../tools/invoke.js';
import { toolSchemas } from '../tools/schema.js';
import { SERVICE_NAME, SERVICE_VERSION } from '../version.js';

export const MCP_INSTRUCTIONS = [
  'svc plans inheritance: it generates inheritance smart contracts for EVM (Solidity, compiled), Solana (Anchor) and TON (FunC)',
  'from an owner, beneficiaries with percentage shares (summing to 100), an inheritance template and an optional dead man\'s switch,',
  'and checks plans against the inheritance law of a jurisdiction.',
  'Start with list_templates to pick a template. Every tool answers with structured content;',
  'an error result carries the JSON envelope {success:false, error:{code, message, details}} — fix the fields named in details and call again.',
].join(' ');

export interface McpServerOptions {
  tools: readonly AnyTool[];
  services: Services;
  /** The key presented for this connection (stdio configuration or the HTTP Authorization header). */
  apiKey: string | undefined;
  transport: CallInfo['transport'];
  /** The client's address (HTTP), or loopback for stdio. */
  clientIp: string | undefined;
}

function describeTool(tool: AnyTool): Tool {
  const schemas = toolSchemas(tool);
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: schemas.input as Tool['inputSchema'],
    outputSchema: schemas.output as Tool['outputSchema'],
    annotations: { title: tool.title, ...tool.annotations },
  };
}

function errorResult(err: ApiError, requestId: string, services: Services): CallToolResult {
  const envelope = errorEnvelope(err.toBody(), makeMeta(requestId, services.clock.now()));
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(envelope) }] };
}

/** A server with every tool registered, bound to one connection's key. */
export function createMcpServer(opts: McpServerOptions): Server {
  const server = new Server(
    { name: SERVICE_NAME, title: 'svc inheritance planning', version: SERVICE_VERSION },
    { capabilities: { tools: { listChanged: false } }, instructions: MCP_INSTRUCTIONS },
  );
  const byName = new Map(opts.tools.map((t) => [t.name, t]));

  // A valid key sees only the tools it may call; without one, every tool is listed
  // (calls then fail with the authentication error that explains what is missing).
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    const principal = await authenticate(opts.services.store, opts.apiKey, opts.services.clock).then(
      (a) => a.principal,
      () => undefined,
    );
    const visible = principal ? opts.tools.filter((t) => mayCall(t, principal)) : opts.tools;
    return { tools: visible.map(describeTool) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
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
      });
      return { content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: output };
    } catch (err) {
      return errorResult(err instanceof ApiError ? err : ApiError.internal(), requestId, opts.services);
    }
  });
  return server;
}

import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { EarlyStdioTransport } from './early.js';
import type { AnyTool, Services } from '../tools/define.js';
import { createMcpServer, handlersSettled } from './server.js';

export interface StdioServing<T> {
  /** What `load` gave (or its failure). */
  loaded: Promise<T>;
  /** Resolves when the client has closed the connection (stdin ended) or `close` was called. */
  closed: Promise<void>;
  close(): Promise<void>;
}

/** How long a start with no client waits before loading anyway (so the first key is still announced at once). */
const LOAD_ANYWAY_MS = 250;

/**
 * Serves MCP over this process's stdin/stdout. `initialize` is answered before
 * anything heavy loads: `load` (the tools, the store and the libraries behind
 * them) starts once the client has initialized, or after a short delay, and
 * every other request waits for it. An IDE thus sees the server start at once.
 */
export async function serveStdio<T extends { tools: readonly AnyTool[]; services: Services }>(
  load: () => Promise<T>,
  apiKey: string | undefined,
  /** Started before this module loaded (it may have answered `initialize` already); a fresh one otherwise. */
  transport: EarlyStdioTransport = new EarlyStdioTransport(),
): Promise<StdioServing<T>> {
  let start!: () => void;
  const loaded = new Promise<void>((resolve) => (start = resolve)).then(load);
  const server = createMcpServer(
    loaded.then(({ tools, services }) => ({
      tools,
      services,
      apiKey,
      transport: 'mcp-stdio' as const,
      clientIp: '127.0.0.1',
    })),
  );
  const timer = setTimeout(start, LOAD_ANYWAY_MS);
  server.oninitialized = () => {
    clearTimeout(timer);
    start();
  };
  transport.validate = (value) => JSONRPCMessageSchema.parse(value);
  let done!: () => void;
  const closed = new Promise<void>((resolve) => (done = resolve));
  server.onclose = () => done();
  void transport.ended.then(done);
  // Until the service has loaded, the early transport keeps answering lists and pings itself: the Server would make
  // them wait for the load.
  void loaded.then(
    () => transport.loaded(),
    () => transport.loaded(),
  );
  await server.connect(transport);
  return {
    loaded,
    closed,
    async close() {
      clearTimeout(timer);
      await server.close().catch(() => undefined);
      // The requests under way were aborted; what their handlers still do (a write, a refund) ends before the caller
      // closes the store.
      await handlersSettled(server);
      done();
    },
  };
}

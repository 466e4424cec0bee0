// JSON-RPC errors for MCP requests that are not tool calls, as the SDK sends a thrown error: { code, message, data }.
// Without importing the SDK, so that the stdio start-up (src/mcp/early.ts) answers a refused list exactly as the
// Server does later (src/mcp/server.ts uses the same functions).
import type { ApiError } from '../core/errors.js';

/** JSON-RPC error code for a refused credential or a rate limit (server-defined range). */
export const RPC_UNAUTHORIZED = -32001;
/** The JSON-RPC codes the SDK's ErrorCode names (test/mcp/manifest.test.ts checks they match). */
export const RPC_INVALID_REQUEST = -32600;
export const RPC_INVALID_PARAMS = -32602;
export const RPC_INTERNAL_ERROR = -32603;

/** A JSON-RPC error as the SDK sends it (code, message, data), without McpError's "MCP error <code>:" prefix. */
export function rpcError(code: number, message: string, data?: unknown): Error {
  return Object.assign(new Error(message), { code, ...(data !== undefined ? { data } : {}) });
}

/** The JSON-RPC code of an admission or lookup failure on a non-tool request. */
export function rpcCodeOf(err: ApiError): number {
  return err.status === 401 || err.status === 403 || err.status === 429
    ? RPC_UNAUTHORIZED
    : err.status >= 500
      ? RPC_INTERNAL_ERROR
      : RPC_INVALID_REQUEST;
}

/** The `error` member of the JSON-RPC answer the SDK gives when a handler throws `protocolError(err)`. */
export function rpcErrorBody(err: ApiError): { code: number; message: string; data: unknown } {
  return { code: rpcCodeOf(err), message: err.message, data: err.toBody() };
}

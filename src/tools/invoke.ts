import type { z } from 'zod';
import { ApiError, type ErrorDetail } from '../core/errors.js';
import { authenticate } from '../keys/keys.js';
import { hasScope } from '../keys/scopes.js';
import type { AnyTool, Services, ToolContext } from './define.js';

/** What a transport knows about one call. */
export interface CallInfo {
  /** The key as presented (Bearer, X-API-Key, api_key, or the stdio configuration). */
  apiKey: string | undefined;
  requestId: string;
  transport: 'rest' | 'mcp-stdio' | 'mcp-http';
}

/** zod issues as `details` entries: dotted field path and a readable reason. */
export function zodDetails(error: z.ZodError): ErrorDetail[] {
  return error.issues.flatMap((issue) => {
    const path = issue.path.map(String);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((k) => ({ field: [...path, k].join('.'), reason: 'unknown field' }));
    }
    return [{ field: path.join('.'), reason: issue.message }];
  });
}

/**
 * The one way any transport runs a tool: authentication, scope check,
 * input validation, the handler, output check, and error mapping.
 * Resolves with the tool's output or rejects with an ApiError.
 */
export async function invokeTool(tool: AnyTool, rawInput: unknown, services: Services, call: CallInfo): Promise<Record<string, unknown>> {
  try {
    const { principal } = await authenticate(services.store, call.apiKey, services.clock);
    if (!hasScope(principal.scopes, tool.scope)) {
      throw new ApiError('INSUFFICIENT_SCOPE', `This operation needs the "${tool.scope}" scope, which this API key does not have.`);
    }
    const parsed = tool.input.safeParse(rawInput ?? {});
    if (!parsed.success) {
      throw ApiError.validation(`Invalid input for ${tool.name}`, zodDetails(parsed.error));
    }
    const ctx: ToolContext = { ...services, principal, requestId: call.requestId };
    const result = await tool.handler(parsed.data, ctx);
    const checked = tool.output.safeParse(result);
    if (!checked.success) {
      services.log.error({ tool: tool.name, requestId: call.requestId, issues: checked.error.issues.length }, 'tool output does not match its schema');
      throw ApiError.internal();
    }
    return checked.data as Record<string, unknown>;
  } catch (err) {
    if (err instanceof ApiError) throw err;
    services.log.error({ err, tool: tool.name, requestId: call.requestId }, 'tool failed');
    throw ApiError.internal();
  }
}

/**
 * The wizard's calls as an MCP App (SEP-1865): `tools/call` through
 * the host's bridge, which forwards them to svc over the user's existing MCP
 * connection. The page holds no key or token; the host's session decides what
 * may be called, and svc checks it like any other call.
 */
import type { App } from '@modelcontextprotocol/ext-apps';
import { problemOf, type ApiResult, type WizardApi, type WizardTool } from '../ui/api.js';

interface ToolResult {
  isError?: boolean;
  content?: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
}

export class BridgeApi implements WizardApi {
  constructor(private readonly app: Pick<App, 'callServerTool'>) {}

  async tool<T>(name: WizardTool, input: Record<string, unknown>): Promise<ApiResult<T>> {
    let result: ToolResult;
    try {
      result = (await this.app.callServerTool({ name, arguments: input })) as ToolResult;
    } catch (err) {
      // The host refused or could not forward the call (no connection, not allowed).
      const message = err instanceof Error ? err.message : String(err);
      return {
        ok: false,
        error: { status: 0, code: 'HOST_ERROR', message: `The assistant could not call svc: ${message}`, details: [] },
      };
    }
    const text = result.content?.find((c) => c.type === 'text')?.text;
    if (result.isError) {
      // svc's error result carries its envelope {success:false, error:{code,message,details}} as text.
      try {
        return { ok: false, error: problemOf(0, (JSON.parse(text ?? '') as { error?: unknown }).error) };
      } catch {
        return {
          ok: false,
          error: { status: 0, code: 'INTERNAL_ERROR', message: text ?? 'The call failed.', details: [] },
        };
      }
    }
    if (result.structuredContent) return { ok: true, data: result.structuredContent as T };
    try {
      return { ok: true, data: JSON.parse(text ?? '') as T };
    } catch {
      return {
        ok: false,
        error: { status: 0, code: 'INTERNAL_ERROR', message: 'The answer had no structured content.', details: [] },
      };
    }
  }
}

import type { AnyTool } from '../../src/tools/define.js';

/** The REST request (method, URL, body) that carries a tool input, per the tool's REST mapping. */
export function restRequest(tool: AnyTool, input: Record<string, unknown>): { method: AnyTool['rest']['method']; url: string; payload?: Record<string, unknown> } {
  let url = '/api/v1' + tool.rest.path;
  const rest = { ...input };
  for (const m of tool.rest.path.matchAll(/:([A-Za-z_]+)/g)) {
    url = url.replace(`:${m[1]}`, encodeURIComponent(String(rest[m[1]!])));
    delete rest[m[1]!];
  }
  const query = tool.rest.method === 'GET' || tool.rest.method === 'DELETE';
  if (query && Object.keys(rest).length) url += '?' + new URLSearchParams(Object.entries(rest).map(([k, v]) => [k, String(v)])).toString();
  return { method: tool.rest.method, url, ...(query ? {} : { payload: rest }) };
}

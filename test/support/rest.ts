import type { FastifyInstance } from 'fastify';
import type { AnyTool } from '../../src/tools/define.js';

/** encodeURIComponent, but a lone surrogate (which it cannot encode) goes as the invalid UTF-8 bytes of one. */
function encodePathValue(text: string): string {
  // The whole string at once when it is well formed (encodeURIComponent throws on a lone surrogate): the fuzzer sends
  // strings of megabytes, and a character at a time was a tenth of its run.
  try {
    return encodeURIComponent(text);
  } catch {
    // a lone surrogate: below
  }
  let out = '';
  // The string iterator keeps surrogate pairs together and yields a lone surrogate on its own.
  for (const ch of text)
    out += ch.length === 1 && ch >= '\ud800' && ch <= '\udfff' ? '%ED%A0%80' : encodeURIComponent(ch);
  return out;
}

/**
 * The REST request (method, URL, body) that carries a tool input, per the tool's REST mapping. `urlValueCut` cuts
 * each value the URL carries (a path parameter, a GET's or DELETE's query field) to that many characters; the body
 * keeps its values whole.
 */
export function restRequest(
  tool: AnyTool,
  input: Record<string, unknown>,
  { urlValueCut = Infinity }: { urlValueCut?: number } = {},
): { method: AnyTool['rest']['method']; url: string; payload?: Record<string, unknown> } {
  const inUrl = (v: unknown) => String(v).slice(0, urlValueCut);
  let url = '/api/v1' + tool.rest.path;
  const rest = { ...input };
  for (const m of tool.rest.path.matchAll(/:([A-Za-z_]+)/g)) {
    url = url.replace(`:${m[1]}`, encodePathValue(inUrl(rest[m[1]!])));
    delete rest[m[1]!];
  }
  const query = tool.rest.method === 'GET' || tool.rest.method === 'DELETE';
  if (query && Object.keys(rest).length)
    url += '?' + new URLSearchParams(Object.entries(rest).map(([k, v]) => [k, inUrl(v)])).toString();
  return { method: tool.rest.method, url, ...(query ? {} : { payload: rest }) };
}

/** A REST request through `app.inject` with a Bearer key (none: no credentials); the status, JSON body and headers. */
export async function keyCall(
  app: FastifyInstance,
  method: string,
  url: string,
  key: string | undefined,
  payload?: unknown,
): Promise<{
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: the JSON body as inject's json() gives it; the key tests read each answer's own fields
  body: any;
  headers: Record<string, unknown>;
}> {
  const res = await app.inject({
    method: method as 'GET',
    url,
    headers: key ? { authorization: `Bearer ${key}` } : {},
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

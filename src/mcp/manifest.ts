// The build-time manifest of what `svc mcp` lists (tools/list, resources/list, resources/templates/list,
// prompts/list), and the early answers made from it. `npm run build` (scripts/build.mjs, through
// scripts/write-manifest.mjs) writes it next to this module as manifest.txt (its format: `encodeManifest`), from the
// live registry (./manifest-source.ts); test/mcp/manifest.test.ts checks it equals what the live server lists.
//
// This module is loaded by the stdio start-up before the MCP SDK, the tools or the store: it imports neither, only the
// access rules (mayCall, requireAccess) applied to the principal the light key check found (src/access/light-key.ts).
// Run from the sources (tsx) there is no manifest.txt: the lists then wait for the service like every other
// request. docs/architecture.md ("The first lists of svc mcp") has the design.
import { ApiError } from '../core/errors.js';
import type { Principal } from '../accounts/principal.js';
import type { Scope, Tier } from '../accounts/scopes.js';
import type { LightVerdict } from '../access/light-key.js';
import { mayCall, requireAccess } from '../access/permissions.js';
import type { AccessRule, PrincipalKind } from '../access/rule.js';
import { SERVICE_VERSION } from '../version.js';
import { rpcErrorBody } from './rpc-errors.js';

/**
 * One tool: who may see it (its access rule) and its tools/list entry exactly as the server gives it, as JSON text
 * (`Text`: a string when built, bytes of the manifest's file when read: the answer is joined from these texts, with no
 * parsing, printing or encoding of some 400 kB at start-up).
 */
export interface ManifestTool<Text = string> {
  name: string;
  access: { principals?: PrincipalKind[]; scope: Scope | null; tiers?: Tier[]; bucket: AccessRule['bucket'] };
  listing: Text;
}

export interface Manifest<Text = string> {
  /** The service version that wrote it; a manifest of another version is not used. */
  version: string;
  tools: ManifestTool<Text>[];
  /** The results of the other lists as the server gives them to a key with contracts:read, as JSON text. */
  results: Record<ResourceListMethod, Text>;
}

/** The lists that need a key with contracts:read (src/mcp/server.ts, `authorize`). */
export const RESOURCE_LIST_METHODS = ['resources/list', 'resources/templates/list', 'prompts/list'] as const;
export type ResourceListMethod = (typeof RESOURCE_LIST_METHODS)[number];
export type ListMethod = 'tools/list' | ResourceListMethod;

export function isListMethod(method: unknown): method is ListMethod {
  return method === 'tools/list' || RESOURCE_LIST_METHODS.includes(method as ResourceListMethod);
}

/** Where a text is in the manifest file's body: its first byte and its length. */
type Span = [start: number, length: number];

/**
 * The manifest as its file holds it: one line of JSON, the index (the manifest with every text replaced by its span),
 * then the texts one after the other, as UTF-8. JSON text has no raw line break, so the first one ends the index.
 * Reading it parses the index alone (some 15 kB); the texts stay bytes until they are written to the client.
 */
export function encodeManifest(manifest: Manifest): Buffer {
  const texts: Buffer[] = [];
  let at = 0;
  const place = (text: string): Span => {
    const bytes = Buffer.from(text);
    texts.push(bytes);
    at += bytes.length;
    return [at - bytes.length, bytes.length];
  };
  const index: Manifest<Span> = {
    version: manifest.version,
    tools: manifest.tools.map((t) => ({ ...t, listing: place(t.listing) })),
    results: mapResults(manifest.results, place),
  };
  return Buffer.concat([Buffer.from(`${JSON.stringify(index)}\n`), ...texts]);
}

/**
 * The manifest in `file` (the file's content), its texts as views of it; undefined when it is another version's.
 * Throws when the file is not a manifest.
 */
export function decodeManifest(file: Buffer): Manifest<Buffer> | undefined {
  const end = file.indexOf(0x0a);
  if (end < 0) throw new Error('the MCP manifest has no index line');
  const index = JSON.parse(file.toString('utf8', 0, end)) as Manifest<Span>;
  if (index.version !== SERVICE_VERSION) return undefined;
  const body = file.subarray(end + 1);
  const text = ([start, length]: Span): Buffer => {
    if (start + length > body.length) throw new Error('the MCP manifest is cut short');
    return body.subarray(start, start + length);
  };
  return {
    version: index.version,
    tools: index.tools.map((t) => ({ ...t, listing: text(t.listing) })),
    results: mapResults(index.results, text),
  };
}

function mapResults<A, B>(results: Record<ResourceListMethod, A>, f: (a: A) => B): Record<ResourceListMethod, B> {
  return Object.fromEntries(RESOURCE_LIST_METHODS.map((m) => [m, f(results[m])])) as Record<ResourceListMethod, B>;
}

/** A list answered before the service loaded: the JSON-RPC result as JSON text (UTF-8), or the error the server would send. */
export type EarlyAnswer = { result: Buffer } | { error: { code: number; message: string; data: unknown } };

/** What the early stdio transport (./early.ts) asks about each list request, in the order they arrive. */
export interface EarlyLists {
  /** The answer to a list request, or undefined to leave it (and every later request) to the server. */
  answer(method: ListMethod): Promise<EarlyAnswer | undefined>;
}

const TOOLS_OPEN = Buffer.from('{"tools":[');
const TOOLS_CLOSE = Buffer.from(']}');
const COMMA = Buffer.from(',');
const EMPTY = Buffer.alloc(0);

/** The list `method` for `principal`, or the error the server gives it. */
export function listFor(manifest: Manifest<Buffer>, method: ListMethod, principal: Principal): EarlyAnswer {
  if (method === 'tools/list') {
    const parts: Buffer[] = [TOOLS_OPEN];
    for (const t of manifest.tools)
      if (mayCall(t.access, principal)) parts.push(parts.length > 1 ? COMMA : EMPTY, t.listing);
    parts.push(TOOLS_CLOSE);
    return { result: Buffer.concat(parts) };
  }
  try {
    requireAccess(principal, 'contracts:read');
  } catch (err) {
    if (err instanceof ApiError) return { error: rpcErrorBody(err) };
    throw err;
  }
  return { result: manifest.results[method] };
}

/**
 * Early answers from `manifest` for a connection whose key got `verdict`. Each answer stands for one request the
 * server will count when it loads, so answers stop once the counter the verdict names would be full (the server then
 * answers, with its 429). A verdict that is undefined or failed leaves every list to the server.
 */
export function manifestLists(manifest: Manifest<Buffer>, verdict: Promise<LightVerdict | undefined>): EarlyLists {
  let counted = 0;
  return {
    async answer(method) {
      const v = await verdict.catch(() => undefined);
      if (!v || counted >= v.limit) return undefined;
      counted++;
      if (v.error) return { error: rpcErrorBody(v.error) };
      return listFor(manifest, method, v.principal);
    },
  };
}

// The build-time manifest of what `svc mcp` lists (tools/list, resources/list, resources/templates/list,
// prompts/list), and the early answers made from it. `npm run build` (scripts/build.mjs, through
// scripts/write-manifest.mjs) writes it next to this module as manifest.json, from the live registry
// (./manifest-source.ts); test/mcp/manifest.test.ts checks it equals what the live server lists.
//
// This module is loaded by the stdio start-up before the MCP SDK, the tools or the store: it imports neither, only the
// access rules (mayCall, requireAccess) applied to the principal the light key check found (src/access/light-key.ts).
// Run from the sources (tsx) there is no manifest.json: the lists then wait for the service like every other
// request. docs/architecture.md ("The first lists of svc mcp") has the design.
import { readFile } from 'node:fs/promises';
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
 * (the answer is joined from these texts: no parsing and printing of some 400 kB at start-up).
 */
export interface ManifestTool {
  name: string;
  access: { principals?: PrincipalKind[]; scope: Scope | null; tiers?: Tier[]; bucket: AccessRule['bucket'] };
  listing: string;
}

export interface Manifest {
  /** The service version that wrote it; a manifest of another version is not used. */
  version: string;
  tools: ManifestTool[];
  /** The results of the other lists as the server gives them to a key with contracts:read, as JSON text. */
  results: Record<ResourceListMethod, string>;
}

/** The lists that need a key with contracts:read (src/mcp/server.ts, `authorize`). */
export const RESOURCE_LIST_METHODS = ['resources/list', 'resources/templates/list', 'prompts/list'] as const;
export type ResourceListMethod = (typeof RESOURCE_LIST_METHODS)[number];
export type ListMethod = 'tools/list' | ResourceListMethod;

export function isListMethod(method: unknown): method is ListMethod {
  return method === 'tools/list' || RESOURCE_LIST_METHODS.includes(method as ResourceListMethod);
}

/** Where the build writes the manifest: beside this module. */
export const MANIFEST_URL = new URL('./manifest.json', import.meta.url);

/** The manifest in `text` (the file's content), or undefined when there is none or it is another version's. */
export function parseManifest(text: string | undefined): Manifest | undefined {
  if (text === undefined) return undefined;
  const manifest = JSON.parse(text) as Manifest;
  return manifest.version === SERVICE_VERSION ? manifest : undefined;
}

/** The manifest at `url` (default: beside this module), or undefined when there is none (run from the sources). */
export async function readManifest(url: URL = MANIFEST_URL): Promise<Manifest | undefined> {
  return parseManifest(await readFile(url, 'utf8').catch(() => undefined));
}

/** A list answered before the service loaded: the JSON-RPC result as JSON text, or the error the server would send. */
export type EarlyAnswer = { result: string } | { error: { code: number; message: string; data: unknown } };

/** What the early stdio transport (./early.ts) asks about each list request, in the order they arrive. */
export interface EarlyLists {
  /** The answer to a list request, or undefined to leave it (and every later request) to the server. */
  answer(method: ListMethod): Promise<EarlyAnswer | undefined>;
}

/** The list `method` for `principal`, or the error the server gives it. */
export function listFor(manifest: Manifest, method: ListMethod, principal: Principal): EarlyAnswer {
  if (method === 'tools/list') {
    const tools = manifest.tools.filter((t) => mayCall(t.access, principal)).map((t) => t.listing);
    return { result: `{"tools":[${tools.join(',')}]}` };
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
export function manifestLists(manifest: Manifest, verdict: Promise<LightVerdict | undefined>): EarlyLists {
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

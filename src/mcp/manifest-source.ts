// Makes the manifest of ./manifest.ts from the live registry, with the same functions the server lists with
// (./server.ts). Loaded at build time (scripts/write-manifest.mjs) and by the test that keeps the manifest honest,
// never by the service.
import type { Scope, Tier } from '../accounts/scopes.js';
import { DocsIndex } from '../docs/search.js';
import { defaultJurisdictions } from '../law/jurisdictions.js';
import type { AnyTool } from '../tools/define.js';
import { TOOLS } from '../tools/index.js';
import { SERVICE_VERSION } from '../version.js';
import type { Manifest, ManifestTool } from './manifest.js';
import { describeTool, listPrompts, listResources, listResourceTemplates } from './server.js';

function manifestTool(tool: AnyTool): ManifestTool {
  return {
    name: tool.name,
    access: {
      ...(tool.principals ? { principals: [...tool.principals] } : {}),
      scope: tool.scope as Scope | null,
      ...(tool.tiers ? { tiers: [...tool.tiers] as Tier[] } : {}),
      bucket: tool.bucket,
    },
    listing: JSON.stringify(describeTool(tool)),
  };
}

/** The manifest of `tools` (the registry by default), as JSON-ready data. */
export function buildManifest(tools: readonly AnyTool[] = TOOLS): Manifest {
  const services = { docs: DocsIndex.load(tools), jurisdictions: defaultJurisdictions() };
  return {
    version: SERVICE_VERSION,
    // The server lists only the tools served over MCP (src/mcp/server.ts, `prepare`).
    tools: tools.filter((t) => t.mcp !== false).map(manifestTool),
    results: {
      'resources/list': JSON.stringify(listResources(services)),
      'resources/templates/list': JSON.stringify(listResourceTemplates()),
      'prompts/list': JSON.stringify(listPrompts()),
    },
  };
}

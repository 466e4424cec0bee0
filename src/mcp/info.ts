// What the MCP server says about itself in `initialize`, without importing the
// SDK: the stdio start-up answers `initialize` from this (src/mcp/early.ts)
// before the SDK has loaded, and src/mcp/server.ts gives the SDK the same.
import { SERVICE_NAME, SERVICE_VERSION } from '../version.js';

export const MCP_INSTRUCTIONS = [
  'svc plans inheritance: it generates inheritance smart contracts for EVM (Solidity, compiled), Solana (Anchor) and TON (FunC)',
  "from an owner, beneficiaries with percentage shares (summing to 100), an inheritance template and an optional dead man's switch,",
  'and checks plans against the inheritance law of a jurisdiction.',
  'Start with list_templates to pick a template. Every tool answers with structured content;',
  'an error result carries the JSON envelope {success:false, error:{code, message, details}} — fix the fields named in details and call again.',
].join(' ');

export const SERVER_INFO = { name: SERVICE_NAME, title: 'svc inheritance planning', version: SERVICE_VERSION };

export const SERVER_CAPABILITIES = {
  tools: { listChanged: false },
  resources: { listChanged: false },
  prompts: { listChanged: false },
  completions: {},
  // logging/setLevel is accepted (the SDK keeps the level per session); the server sends no log notifications of its
  // own today. Clients and the MCP conformance suite call setLevel on servers that declare logging.
  logging: {},
};

/** The SDK's protocol versions (test/mcp/early.test.ts checks they match the installed SDK), newest first. */
export const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'];

/** The `initialize` result for a client asking for `requested`, as the SDK's Server builds it. */
export function initializeResult(requested: unknown): Record<string, unknown> {
  const protocolVersion =
    typeof requested === 'string' && PROTOCOL_VERSIONS.includes(requested) ? requested : PROTOCOL_VERSIONS[0];
  return {
    protocolVersion,
    capabilities: SERVER_CAPABILITIES,
    serverInfo: SERVER_INFO,
    instructions: MCP_INSTRUCTIONS,
  };
}

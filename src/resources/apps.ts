/**
 * MCP Apps resources (the MCP Apps extension, SEP-1865): HTML
 * documents a host renders in a sandboxed frame when a tool that names them in
 * `_meta.ui.resourceUri` is called. Listed and read through the MCP adapter
 * like the other resources (a valid key with contracts:read).
 */
import { wizardAssets } from '../embed/assets.js';

/** The MIME type of an MCP App document. */
export const MCP_APP_MIME_TYPE = 'text/html;profile=mcp-app';
/** The contract wizard as an MCP App (open_contract_wizard shows it). */
export const WIZARD_APP_URI = 'ui://svc/wizard';

export interface AppResourceDef {
  uri: string;
  name: string;
  title: string;
  description: string;
  mimeType: string;
  /** `_meta` of the listing and of the read content: `ui` (csp, permissions, prefersBorder). */
  meta: Record<string, unknown>;
  read(): Promise<string>;
}

export const WIZARD_APP: AppResourceDef = {
  uri: WIZARD_APP_URI,
  name: 'contract-wizard',
  title: 'Inheritance contract wizard',
  description:
    "svc's contract wizard as an MCP App: chain, template and jurisdiction, owner and beneficiaries, dead man's switch, review with law " +
    'findings and measured gas, then the generated contract. It calls svc through the host, with your own MCP connection.',
  mimeType: MCP_APP_MIME_TYPE,
  // Self-contained (inline script and style): it needs no network origin; the copy buttons use the clipboard.
  meta: {
    ui: { prefersBorder: true, csp: { connectDomains: [], resourceDomains: [] }, permissions: { clipboardWrite: {} } },
  },
  read: async () => (await wizardAssets())['app.html'].body.toString('utf8'),
};

/** Every MCP App resource. */
export const APP_RESOURCES: readonly AppResourceDef[] = [WIZARD_APP];

export function findAppResource(uri: string): AppResourceDef | undefined {
  return APP_RESOURCES.find((r) => r.uri === uri);
}

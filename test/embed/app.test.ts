import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_BUDGET_GZIP_BYTES, bundleWizard } from '../../scripts/build-wizard.mjs';
import { MCP_APP_MIME_TYPE, WIZARD_APP_URI } from '../../src/resources/apps.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { httpClient } from '../mcp-clients.js';

// The wizard as an MCP App, at the protocol level: the tool names
// its ui:// document, the document is listed and read as an MCP Apps
// resource, self-contained, and a host without the extension gets plain words.

let server: TestServer;
let client: Client;

beforeAll(async () => {
  server = await startTestServer();
  client = await httpClient(server.url, await server.key({ tier: 'public', scopes: ['contracts'] }));
}, 30_000);
afterAll(async () => {
  await client?.close();
  await server?.close();
});

describe('open_contract_wizard and ui://svc/wizard', () => {
  it('the tool carries _meta.ui.resourceUri (and the flat legacy key)', async () => {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'open_contract_wizard')!;
    expect(tool._meta).toEqual({ ui: { resourceUri: WIZARD_APP_URI }, 'ui/resourceUri': WIZARD_APP_URI });
    expect(tool.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    // No other tool claims a document.
    expect(tools.filter((t) => t._meta).map((t) => t.name)).toEqual(['open_contract_wizard']);
  });

  it('the resource is listed and read as a self-contained text/html;profile=mcp-app document', async () => {
    const { resources } = await client.listResources();
    expect(resources.find((r) => r.uri === WIZARD_APP_URI)).toMatchObject({
      mimeType: MCP_APP_MIME_TYPE,
      name: 'contract-wizard',
    });
    const read = await client.readResource({ uri: WIZARD_APP_URI });
    const content = read.contents[0] as {
      uri: string;
      mimeType: string;
      text: string;
      _meta: { ui: { csp: unknown } };
    };
    expect(content).toMatchObject({ uri: WIZARD_APP_URI, mimeType: 'text/html;profile=mcp-app' });
    expect(content._meta.ui.csp).toEqual({ connectDomains: [], resourceDomains: [] });
    const html = content.text;
    expect(html.startsWith('<!doctype html>')).toBe(true);
    // Nothing loaded from elsewhere: one inline script, one inline style, no src or stylesheet link.
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toMatch(/<script[^>]*\ssrc=|<link[^>]*stylesheet/);
    expect(html.indexOf('</script>')).toBe(html.lastIndexOf('</script>'));
    expect(html).toContain('id="svc-wizard"');
    // The app is the bridge build: no REST route or bearer token in it.
    expect(html).not.toContain('/contracts/generate');
    expect(html).not.toContain('svc_et_');
  });

  it('answers in plain words for hosts without MCP Apps, and echoes a valid prefill', async () => {
    const args = { blockchain: 'ton', beneficiaries: [{ name: 'A', address: 'EQ-address', percentage: 100 }] };
    const result = await client.callTool({ name: 'open_contract_wizard', arguments: args });
    expect(result.isError).toBeFalsy();
    const out = result.structuredContent as { resourceUri: string; message: string; prefill: unknown };
    expect(out).toMatchObject({ resourceUri: WIZARD_APP_URI, mimeType: MCP_APP_MIME_TYPE, prefill: args });
    expect(out.message).toMatch(/prefilled with chain ton, 1 beneficiary/);
    expect(out.message).toMatch(/generate_contract/);
    const bad = await client.callTool({
      name: 'open_contract_wizard',
      arguments: { beneficiaries: [{ name: 'A', address: 'x', percentage: 150 }] },
    });
    expect(bad.isError).toBe(true);
    const envelope = JSON.parse((bad.content as Array<{ text: string }>)[0]!.text);
    expect(envelope.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: [expect.objectContaining({ field: 'beneficiaries.0.percentage' })],
    });
  });

  it('the resource needs a key that may read contracts', async () => {
    const other = await httpClient(server.url, await server.key({ tier: 'public', scopes: ['webhooks'] }));
    try {
      await expect(other.readResource({ uri: WIZARD_APP_URI })).rejects.toThrow(/contracts:read/);
    } finally {
      await other.close();
    }
  });

  it(`the app document stays within its budget of ${APP_BUDGET_GZIP_BYTES} bytes gzipped`, async () => {
    const files = await bundleWizard();
    const app = files['app.html']!;
    expect(app.gzipBytes).toBeLessThanOrEqual(APP_BUDGET_GZIP_BYTES);
    // zod's message locales are left out (the English ones stay).
    const text = Buffer.from(app.contents).toString('utf8');
    expect(text).not.toMatch(/Ungültige Eingabe|Entrada inválida/);
  }, 60_000);
});

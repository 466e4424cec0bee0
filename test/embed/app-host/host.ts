/**
 * A minimal MCP Apps host, run in Chromium by test/embed/app.browser.test.ts:
 * the ext-apps host-side bridge (AppBridge) over a real MCP client. The client
 * talks to svc through the host site's own /mcp (which adds the user's key on
 * the host's server side, as a real host keeps its connection's credentials),
 * so neither this page nor the app's frame ever holds a key.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { AppBridge, PostMessageTransport, getToolUiResourceUri } from '@modelcontextprotocol/ext-apps/app-bridge';

type Events = Array<[string, unknown]>;
const w = window as unknown as { events: Events; toolArgs: Record<string, unknown>; hostError?: string };
w.events = [];

async function main(): Promise<void> {
  const client = new Client({ name: 'svc-test-host', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', location.href)));
  const { tools } = await client.listTools();
  const tool = tools.find((t) => t.name === 'open_contract_wizard');
  if (!tool) throw new Error('open_contract_wizard is not listed');
  const uri = getToolUiResourceUri(tool);
  w.events.push(['tool', { uri, meta: tool._meta }]);
  if (!uri) throw new Error('the tool names no UI resource');
  const read = await client.readResource({ uri });
  const content = read.contents[0] as { mimeType?: string; text?: string; _meta?: unknown };
  w.events.push(['resource', { mimeType: content.mimeType, bytes: content.text?.length ?? 0, meta: content._meta }]);

  const iframe = document.createElement('iframe');
  iframe.title = 'svc contract wizard';
  iframe.setAttribute('sandbox', 'allow-scripts allow-forms');
  iframe.style.width = '860px';
  iframe.style.height = '1400px';
  document.body.appendChild(iframe);

  const bridge = new AppBridge(
    client,
    { name: 'svc-test-host', version: '1.0.0' },
    { serverTools: {}, logging: {}, updateModelContext: { text: {} } },
    { hostContext: { theme: 'dark' } },
  );
  bridge.onupdatemodelcontext = async (params) => {
    w.events.push(['context', params]);
    return {};
  };
  bridge.onloggingmessage = (params) => {
    w.events.push(['log', params]);
  };
  bridge.oninitialized = () => {
    w.events.push(['initialized', bridge.getAppVersion()]);
    void (async () => {
      // What a host does when the model calls the tool: the input to the app, the call to the server, its result to the app.
      await bridge.sendToolInput({ arguments: w.toolArgs });
      const result = await client.callTool({ name: 'open_contract_wizard', arguments: w.toolArgs });
      w.events.push(['result', result]);
      await bridge.sendToolResult(result as Parameters<typeof bridge.sendToolResult>[0]);
    })().catch((err: unknown) => (w.hostError = String(err)));
  };
  await bridge.connect(new PostMessageTransport(iframe.contentWindow!, iframe.contentWindow!));
  iframe.srcdoc = content.text ?? '';
}

main().catch((err: unknown) => {
  w.hostError = String(err instanceof Error ? (err.stack ?? err.message) : err);
});

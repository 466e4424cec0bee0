/**
 * The contract wizard as an MCP App (MCP Apps extension, SEP-1865):
 * the same Preact wizard as the embeddable page (src/embed/ui/), built by
 * src/embed/bundle.mjs into one HTML document served as the resource
 * `ui://svc/wizard` (src/resources/apps.ts), which the host renders when
 * open_contract_wizard is called. Its svc calls go through the host
 * (BridgeApi); the tool's input (chain, owner, beneficiaries) prefills it;
 * the host's theme applies; a generated contract is summed up to the model.
 */
import { App, PostMessageTransport, type McpUiHostContext } from '@modelcontextprotocol/ext-apps';
import { h, render } from 'preact';
import { parseIncoming, type Incoming } from '../ui/protocol.js';
import { applyTheme, setVariable } from '../ui/theme.js';
import { Wizard, type WizardChannel, type WizardConfig } from '../ui/wizard.js';
import { BridgeApi } from './bridge.js';

export const APP_VERSION = '1';

/** Wizard events go to the host as the app API allows; commands come from the tool's input. */
class HostChannel implements WizardChannel {
  #handle: ((message: Incoming) => void) | undefined;
  #pending: Incoming[] = [];

  constructor(private readonly app: App) {}

  post(type: string, payload: unknown): void {
    if (type === 'svc:wizard:complete') {
      const p = payload as { contractInfo?: Record<string, unknown> };
      const info = p.contractInfo ?? {};
      const text =
        `The user generated an inheritance contract with the svc wizard: ${String(info.blockchain ?? '')} ${String(info.template ?? '')} ` +
        `(contract info: ${JSON.stringify(info)}). The source code, ABI and bytecode are shown in the wizard.`;
      this.app
        .updateModelContext({ content: [{ type: 'text', text }], structuredContent: { contractInfo: info } })
        .catch(() => undefined);
    } else if (type === 'svc:wizard:error') {
      this.app.sendLog({ level: 'warning', logger: 'svc-wizard', data: payload }).catch(() => undefined);
    }
    // ready, step and resize: the host sizes the frame itself (autoResize).
  }

  listen(handle: (message: Incoming) => void): void {
    this.#handle = handle;
    for (const m of this.#pending.splice(0)) handle(m);
  }

  deliver(message: Incoming): void {
    if (this.#handle) this.#handle(message);
    else this.#pending.push(message);
  }
}

function hostTheme(context: McpUiHostContext | undefined): 'light' | 'dark' | 'auto' {
  return context?.theme === 'light' || context?.theme === 'dark' ? context.theme : 'auto';
}

async function start(): Promise<void> {
  const root = document.getElementById('svc-wizard');
  if (!root) return;
  const app = new App({ name: 'svc contract wizard', version: APP_VERSION }, {}, { autoResize: true });
  const channel = new HostChannel(app);
  // Handlers first: the host may send the tool's input right after the handshake.
  app.ontoolinput = (params) => {
    const args = (params.arguments ?? {}) as Record<string, unknown>;
    const payload = Object.fromEntries(
      ['blockchain', 'ownerAddress', 'beneficiaries'].filter((k) => args[k] !== undefined).map((k) => [k, args[k]]),
    );
    const message = parseIncoming({ type: 'svc:wizard:setData', payload });
    if (message) channel.deliver(message);
  };
  app.onhostcontextchanged = (context) => {
    if (context.theme) applyTheme(hostTheme(context));
  };
  try {
    await app.connect(new PostMessageTransport(window.parent, window.parent));
  } catch {
    root.textContent = 'This wizard runs inside an assistant that supports MCP Apps; it could not reach its host.';
    return;
  }
  const theme = hostTheme(app.getHostContext());
  applyTheme(theme);
  const config: WizardConfig = {
    version: APP_VERSION,
    apiBase: '',
    token: null,
    origins: [],
    options: {
      theme,
      steps: ['chain', 'template', 'beneficiaries', 'switch', 'review', 'generate', 'result'],
      hideHeader: false,
      hideFooter: true,
    },
    error: null,
  };
  root.textContent = '';
  render(h(Wizard, { config, channel, applyTheme, setVariable, api: new BridgeApi(app) }), root);
}

void start();

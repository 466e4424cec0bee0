/**
 * The embeddable contract wizard: Preact, no JSX (the
 * project's tsconfig has none), bundled by src/embed/bundle.mjs.
 */
import { h, render } from 'preact';
import { RestApi } from './api.js';
import { Channel, parentOrigin } from './protocol.js';
import { applyTheme, setVariable } from './theme.js';
import { Wizard, type WizardConfig } from './wizard.js';

function readConfig(): WizardConfig | undefined {
  const el = document.getElementById('svc-wizard-config');
  try {
    return el?.textContent ? (JSON.parse(el.textContent) as WizardConfig) : undefined;
  } catch {
    return undefined;
  }
}

function start(): void {
  const config = readConfig();
  const root = document.getElementById('svc-wizard');
  if (!config || !root) return;
  const channel = new Channel(parentOrigin(config.origins));
  // The frame's height follows its content.
  let lastHeight = -1;
  const resize = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height !== lastHeight) {
      lastHeight = height;
      channel.post('svc:wizard:resize', { height });
    }
  };
  new ResizeObserver(resize).observe(document.body);
  applyTheme(config.options?.theme ?? 'auto', config.options?.primaryColor);
  if (config.error || !config.options || !config.token) {
    // The server explained the problem in the page; the parent hears it too.
    const error = config.error ?? { code: 'INTERNAL_ERROR', message: 'The wizard has no configuration.' };
    channel.post('svc:wizard:error', { code: error.code, message: error.message });
    resize();
    return;
  }
  root.textContent = '';
  render(h(Wizard, { config, channel, applyTheme, setVariable, api: new RestApi(config.apiBase, config.token) }), root);
}

start();

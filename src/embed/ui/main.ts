/**
 * The embeddable contract wizard (issue 17, spec 4.4): Preact, no JSX (the
 * project's tsconfig has none), bundled by scripts/build-wizard.mjs.
 */
import { h, render } from 'preact';
import { Channel, parentOrigin } from './protocol.js';
import { Wizard, type WizardConfig } from './wizard.js';

function readConfig(): WizardConfig | undefined {
  const el = document.getElementById('svc-wizard-config');
  try {
    return el?.textContent ? (JSON.parse(el.textContent) as WizardConfig) : undefined;
  } catch {
    return undefined;
  }
}

/** Sets a --svc-* variable; for the primary colour also the text colour on it (black or white, whichever contrasts more). */
export function setVariable(name: string, value: string): void {
  const root = document.documentElement;
  root.style.setProperty(name, value);
  if (name !== '--svc-primary') return;
  const probe = document.createElement('span');
  probe.style.color = value;
  document.body.appendChild(probe);
  const rgb = (getComputedStyle(probe).color.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
  probe.remove();
  if (rgb.length < 3) return;
  const [r, g, b] = rgb.map((c) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [number, number, number];
  const lum = 0.2126 * r + 0.7152 * g + 0.0722 * b;
  root.style.setProperty('--svc-on-primary', (lum + 0.05) / 0.05 > 1.05 / (lum + 0.05) ? '#000000' : '#ffffff');
}

function applyTheme(theme: string, primaryColor?: string): void {
  document.documentElement.dataset.theme = theme;
  if (primaryColor) setVariable('--svc-primary', `#${primaryColor}`);
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
  render(h(Wizard, { config, channel, applyTheme, setVariable }), root);
}

start();

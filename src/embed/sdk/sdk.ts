/**
 * SvcWizard: puts the contract wizard in an iframe inside
 * `container`, sizes it to the wizard's content, and relays the wizard's
 * events. Messages are taken only from that iframe's window and the svc
 * origin, and sent only to that origin. Budget: 5 kB gzipped.
 */

import { type Eip1193Provider, fromWizard, relayEth } from './eth-relay.js';

type Handler = (payload: unknown) => void;

interface Options {
  container: string | HTMLElement;
  token?: string;
  apiKey?: string;
  theme?: 'light' | 'dark' | 'auto';
  /** Language of the wizard (en, ar, es, fr; other tags fall back to English); default the browser's. */
  locale?: string;
  blockchain?: string;
  template?: string;
  steps?: string[] | string;
  logo?: string;
  primaryColor?: string;
  hideHeader?: boolean;
  hideFooter?: boolean;
  callback?: string;
  /** The host page's EIP-1193 wallet: the wizard deploys with it; only deployment's methods are relayed. */
  ethereum?: Eip1193Provider;
  /** With `ethereum`: the one EVM chain id to deploy to (the service must read it); else any chain it reads. */
  chainId?: number;
  /** Where svc is served; defaults to the origin this script was loaded from. */
  baseUrl?: string;
  onReady?: Handler;
  onStep?: Handler;
  onComplete?: Handler;
  onError?: Handler;
}

const script = document.currentScript as HTMLScriptElement | null;
const scriptOrigin = script?.src ? new URL(script.src).origin : location.origin;
const PREFIX = 'svc:wizard:';
const VARS = {
  primary: '--svc-primary',
  background: '--svc-background',
  text: '--svc-text',
  borderRadius: '--svc-border-radius',
};

class SvcWizard {
  private frame: HTMLIFrameElement;
  private origin: string;
  private ready = false;
  private queue: Array<[string, unknown]> = [];
  private listener: (e: MessageEvent) => void;
  private theme: string;

  constructor(private opts: Options) {
    const container =
      typeof opts.container === 'string' ? document.querySelector<HTMLElement>(opts.container) : opts.container;
    if (!container) throw new Error('SvcWizard: container not found');
    if (!opts.token === !opts.apiKey) throw new Error('SvcWizard: give either token (recommended) or apiKey');
    const base = new URL(opts.baseUrl || scriptOrigin);
    this.origin = base.origin;
    this.theme = opts.theme || 'auto';
    const q = new URLSearchParams();
    const add = (k: string, v: unknown) => v !== undefined && v !== null && v !== '' && q.set(k, String(v));
    add(opts.token ? 'token' : 'key', opts.token || opts.apiKey);
    add('origin', location.origin);
    add('theme', this.theme);
    add('locale', opts.locale || navigator.language);
    add('blockchain', opts.blockchain);
    add('template', opts.template);
    add('steps', Array.isArray(opts.steps) ? opts.steps.join(',') : opts.steps);
    add('logo', opts.logo);
    add('primaryColor', opts.primaryColor?.replace(/^#/, ''));
    if (opts.hideHeader) add('hideHeader', true);
    if (opts.hideFooter) add('hideFooter', true);
    if (opts.ethereum) add('wallet', 1);
    add('chainId', opts.chainId);
    add('callback', opts.callback);
    const frame = (this.frame = document.createElement('iframe'));
    frame.src = `${this.origin}/api/v1/embed/wizard?${q}`;
    frame.title = 'Inheritance contract wizard';
    frame.setAttribute('allow', 'clipboard-write');
    frame.referrerPolicy = 'origin';
    frame.style.cssText = 'width:100%;border:0;display:block;height:480px';
    this.listener = (e) => this.receive(e);
    addEventListener('message', this.listener);
    container.appendChild(frame);
  }

  private receive(e: MessageEvent): void {
    const d = e.data;
    if (
      !fromWizard(e, this.frame.contentWindow, this.origin) ||
      !d ||
      typeof d.type !== 'string' ||
      d.type.indexOf(PREFIX) !== 0
    )
      return;
    const p = d.payload || {};
    const o = this.opts;
    switch (d.type.slice(PREFIX.length)) {
      case 'ready':
        this.ready = true;
        this.send('setTheme', { theme: this.theme, variables: this.variables() });
        this.queue.splice(0).forEach(([t, v]) => this.send(t, v));
        o.onReady?.(p);
        break;
      case 'resize':
        if (typeof p.height === 'number' && p.height > 0)
          this.frame.style.height = `${Math.min(Math.ceil(p.height), 20000)}px`;
        break;
      case 'step':
        o.onStep?.(p);
        break;
      case 'complete':
        o.onComplete?.(p);
        break;
      case 'error':
        o.onError?.(p);
        break;
      case 'eth-request':
        void relayEth(o.ethereum, p).then((r) => r && this.send('eth-response', r));
    }
  }

  /** The --svc-* variables set on the container, passed on to the wizard. */
  private variables(): Record<string, string> {
    const style = getComputedStyle(this.frame.parentElement || document.body);
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(VARS)) {
      const value = style.getPropertyValue(v).trim();
      if (value) out[k] = value;
    }
    return out;
  }

  private send(type: string, payload?: unknown): void {
    if (!this.ready) {
      this.queue.push([type, payload]);
      return;
    }
    this.frame.contentWindow?.postMessage(
      payload === undefined ? { type: PREFIX + type } : { type: PREFIX + type, payload },
      this.origin,
    );
  }

  /** Prefills the owner and beneficiaries: `{ownerAddress, beneficiaries: [{name, address, percentage, relationship?}]}`. */
  setData(data: { blockchain?: 'evm' | 'solana' | 'ton'; ownerAddress?: string; beneficiaries?: unknown[] }): void {
    this.send('setData', data);
  }

  setTheme(theme: 'light' | 'dark' | 'auto'): void {
    this.theme = theme;
    this.send('setTheme', { theme, variables: this.variables() });
  }

  reset(): void {
    this.send('reset');
  }

  destroy(): void {
    removeEventListener('message', this.listener);
    this.frame.remove();
  }
}

(window as unknown as { SvcWizard: typeof SvcWizard }).SvcWizard = SvcWizard;

/**
 * The wizard's side of the postMessage protocol: messages
 * go to the exact parent origin only; incoming ones are taken only from
 * window.parent, from that origin, with a payload that validates.
 */

export type Theme = 'light' | 'dark' | 'auto';

export interface PrefillBeneficiary {
  name: string;
  address: string;
  percentage: number;
  relationship?: string;
}

export interface Prefill {
  /** Preselects the chain (the MCP App takes it from the tool's input). */
  blockchain?: 'evm' | 'solana' | 'ton';
  ownerAddress?: string;
  beneficiaries?: PrefillBeneficiary[];
}

export interface ThemeMessage {
  theme: Theme;
  variables?: Partial<Record<'primary' | 'background' | 'text' | 'borderRadius', string>>;
}

export type Incoming =
  | { type: 'svc:wizard:setData'; payload: Prefill }
  | { type: 'svc:wizard:setTheme'; payload: ThemeMessage }
  | { type: 'svc:wizard:reset' }
  | { type: 'svc:wizard:eth-response'; payload: EthResponse };

/** The SDK's answer to an eth request: a result or the wallet's error, with the request's id. */
export interface EthResponse {
  id: string;
  result?: unknown;
  error?: { code: number; message: string };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const shortString = (v: unknown, max: number): v is string => typeof v === 'string' && v.length <= max;
const onlyKeys = (o: Record<string, unknown>, keys: string[]) => Object.keys(o).every((k) => keys.includes(k));

// Colours and lengths a CSS custom property may take from the host: nothing that could load a URL or break out.
const CSS_COLOR = /^(#[0-9a-f]{3,8}|(rgb|rgba|hsl|hsla)\([0-9.,%\s/]+\)|[a-z]{3,20})$/i;
const CSS_LENGTH = /^\d{1,3}(\.\d+)?(px|rem|em|%)?$/;

function prefill(p: unknown): Prefill | undefined {
  if (!isObject(p) || !onlyKeys(p, ['blockchain', 'ownerAddress', 'beneficiaries'])) return undefined;
  const out: Prefill = {};
  if (p.blockchain !== undefined) {
    if (p.blockchain !== 'evm' && p.blockchain !== 'solana' && p.blockchain !== 'ton') return undefined;
    out.blockchain = p.blockchain;
  }
  if (p.ownerAddress !== undefined) {
    if (!shortString(p.ownerAddress, 100)) return undefined;
    out.ownerAddress = p.ownerAddress;
  }
  if (p.beneficiaries !== undefined) {
    if (!Array.isArray(p.beneficiaries) || p.beneficiaries.length > 50) return undefined;
    const list: PrefillBeneficiary[] = [];
    for (const b of p.beneficiaries) {
      if (!isObject(b) || !onlyKeys(b, ['name', 'address', 'percentage', 'relationship', 'email'])) return undefined;
      if (!shortString(b.name, 200) || !shortString(b.address, 100)) return undefined;
      if (typeof b.percentage !== 'number' || !Number.isFinite(b.percentage) || b.percentage < 0 || b.percentage > 100)
        return undefined;
      if (b.relationship !== undefined && !shortString(b.relationship, 60)) return undefined;
      list.push({
        name: b.name,
        address: b.address,
        percentage: b.percentage,
        ...(b.relationship !== undefined ? { relationship: b.relationship } : {}),
      });
    }
    out.beneficiaries = list;
  }
  return out;
}

function themeMessage(p: unknown): ThemeMessage | undefined {
  if (!isObject(p) || !onlyKeys(p, ['theme', 'variables'])) return undefined;
  if (p.theme !== 'light' && p.theme !== 'dark' && p.theme !== 'auto') return undefined;
  const out: ThemeMessage = { theme: p.theme };
  if (p.variables !== undefined) {
    if (!isObject(p.variables) || !onlyKeys(p.variables, ['primary', 'background', 'text', 'borderRadius']))
      return undefined;
    const vars: ThemeMessage['variables'] = {};
    for (const [name, value] of Object.entries(p.variables)) {
      if (value === '' || value === undefined) continue;
      if (typeof value !== 'string' || !(name === 'borderRadius' ? CSS_LENGTH : CSS_COLOR).test(value.trim()))
        return undefined;
      vars[name as keyof typeof vars] = value.trim();
    }
    out.variables = vars;
  }
  return out;
}

function ethResponse(p: unknown): EthResponse | undefined {
  if (!isObject(p) || !onlyKeys(p, ['id', 'result', 'error']) || !shortString(p.id, 64)) return undefined;
  if (p.error === undefined) return { id: p.id, result: p.result };
  const e = p.error;
  if (!isObject(e) || typeof e.code !== 'number' || !shortString(e.message, 300)) return undefined;
  return { id: p.id, error: { code: e.code, message: e.message } };
}

/** The message, if it is one the wizard accepts; undefined for anything else. */
export function parseIncoming(data: unknown): Incoming | undefined {
  if (!isObject(data) || typeof data.type !== 'string') return undefined;
  switch (data.type) {
    case 'svc:wizard:setData': {
      const payload = prefill(data.payload);
      return payload ? { type: data.type, payload } : undefined;
    }
    case 'svc:wizard:setTheme': {
      const payload = themeMessage(data.payload);
      return payload ? { type: data.type, payload } : undefined;
    }
    case 'svc:wizard:eth-response': {
      const payload = ethResponse(data.payload);
      return payload ? { type: data.type, payload } : undefined;
    }
    case 'svc:wizard:reset':
      return data.payload === undefined || (isObject(data.payload) && Object.keys(data.payload).length === 0)
        ? { type: data.type }
        : undefined;
    default:
      return undefined;
  }
}

/** The parent's origin, when it is one of the allowed origins; otherwise null and nothing is ever posted. */
export function parentOrigin(allowed: readonly string[]): string | null {
  if (window.parent === window) return null;
  const candidates: string[] = [];
  const ancestors = (window.location as Location & { ancestorOrigins?: DOMStringList }).ancestorOrigins;
  if (ancestors && ancestors.length > 0) candidates.push(ancestors[0]!);
  else if (allowed.length === 1) candidates.push(allowed[0]!);
  else if (document.referrer) {
    try {
      candidates.push(new URL(document.referrer).origin);
    } catch {
      /* no usable referrer */
    }
  }
  return candidates.find((c) => allowed.includes(c)) ?? null;
}

export class Channel {
  constructor(private readonly target: string | null) {}

  post(type: string, payload: unknown): void {
    if (this.target) window.parent.postMessage({ type, payload }, this.target);
  }

  /** Calls `handle` for each valid message from the parent, from its origin. */
  listen(handle: (message: Incoming) => void): void {
    window.addEventListener('message', (event) => {
      if (!this.target || event.source !== window.parent || event.origin !== this.target) return;
      const message = parseIncoming(event.data);
      if (message) handle(message);
    });
  }
}

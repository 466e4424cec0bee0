/**
 * The wizard page: its query parameters, its security headers and
 * its HTML. Transport-free: src/http/embed.ts serves it.
 */
import { z } from 'zod';
import type { ErrorDetail } from '../core/errors.js';
import { type Locale, LOCALES, matchLocale, RTL_LOCALES } from '../core/messages/index.js';
import { BLOCKCHAINS } from '../contracts/plan.js';
import { TEMPLATE_TYPES } from '../law/templates.js';
import { parseOrigin } from '../keys/origins.js';

/** The wizard's steps, in order. `generate` and `result` are always shown. */
export const STEP_IDS = ['chain', 'template', 'beneficiaries', 'switch', 'review', 'generate', 'result'] as const;
export type StepId = (typeof STEP_IDS)[number];
const REQUIRED_STEPS: readonly StepId[] = ['generate', 'result'];

export const THEMES = ['light', 'dark', 'auto'] as const;
export type Theme = (typeof THEMES)[number];

/** Version of the postMessage protocol and page (svc:wizard:ready {version}). */
export const WIZARD_VERSION = '1.0.0';

const bool = z
  .enum(['true', 'false', '1', '0', ''])
  .transform((v) => v === 'true' || v === '1' || v === '')
  .describe('true or false.');

const httpsUrl = (what: string) =>
  z
    .string()
    .max(2048)
    .refine((v) => {
      try {
        return new URL(v).protocol === 'https:';
      } catch {
        return false;
      }
    }, `must be an absolute https:// URL (${what})`);

/** The wizard's query parameters. */
export const WizardQuery = z
  .strictObject({
    key: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('Partner or internal API key (spec-compatible; prefer `token`).'),
    token: z.string().min(1).max(200).optional().describe('Embed token from POST /api/v1/embed/sessions.'),
    theme: z.enum(THEMES).default('auto').describe('light, dark or auto (follows prefers-color-scheme).'),
    locale: z
      .string()
      .max(35)
      .regex(/^[A-Za-z]{1,8}([-_][A-Za-z0-9]{1,8})*$/, 'must be a language tag such as en, ar, es-MX or fr')
      .optional()
      .describe(
        `Language of the wizard, a language tag: ${LOCALES.join(', ')} are available (fr-CA means fr), any other falls back to English. Default: the browser's language (the SDK sends it).`,
      ),
    blockchain: z.enum(BLOCKCHAINS).optional().describe('Preselected chain.'),
    template: z.enum(TEMPLATE_TYPES).optional().describe('Preselected inheritance template.'),
    steps: z
      .string()
      .max(200)
      .optional()
      .describe(`Comma-separated steps to show, of ${STEP_IDS.join(', ')}; generate and result are always shown.`),
    logo: httpsUrl('logo').optional().describe('Logo URL, https only.'),
    primaryColor: z
      .string()
      .regex(/^(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, 'must be a hex colour without #, e.g. 2563eb')
      .optional()
      .describe('Primary colour, hex without #.'),
    hideHeader: bool.default(false),
    hideFooter: bool.default(false),
    wallet: bool
      .default(false)
      .describe('The host page gave the SDK a wallet (its `ethereum` option): the wizard offers to deploy with it.'),
    chainId: z
      .string()
      .regex(/^[1-9]\d{0,15}$/, 'must be an EVM chain id, a whole number such as 1 or 11155111')
      .transform(Number)
      .optional()
      .describe('With a wallet: the one EVM chain the wizard deploys to (one the service reads).'),
    callback: z.string().max(2048).optional().describe('HTTPS URL the result is POSTed to (on an allowed origin).'),
    origin: z
      .string()
      .max(200)
      .optional()
      .describe("The embedding page's origin (the SDK sends it): frames and messages are limited to it."),
  })
  .describe('Wizard query parameters.');
export type WizardQuery = z.output<typeof WizardQuery>;

export interface WizardOptions {
  theme: Theme;
  /** The supported locale the page is written in; undefined lets the browser's language decide. */
  locale: Locale | undefined;
  blockchain: (typeof BLOCKCHAINS)[number] | undefined;
  template: (typeof TEMPLATE_TYPES)[number] | undefined;
  steps: StepId[];
  logo: string | undefined;
  primaryColor: string | undefined;
  hideHeader: boolean;
  hideFooter: boolean;
  /** The host page has a wallet for the wizard to deploy with. */
  wallet: boolean;
  /** The EVM chain ids the service reads (the operator's endpoints): the wizard deploys only there. */
  networks?: number[];
  /** The one chain the host page asked for (SDK `chainId`), checked against `networks` when the page is served. */
  chainId?: number | undefined;
}

/** Reads the raw query; repeated parameters are an error. Returns the parsed query or the problems, one per field. */
export function parseWizardQuery(raw: Record<string, unknown>): { query: WizardQuery } | { details: ErrorDetail[] } {
  const details: ErrorDetail[] = [];
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) details.push({ field: name, reason: 'given more than once' });
  }
  if (details.length) return { details };
  const parsed = WizardQuery.safeParse(raw);
  if (!parsed.success) {
    return {
      details: parsed.error.issues.flatMap((i) =>
        i.code === 'unrecognized_keys'
          ? i.keys.map((k) => ({
              field: k,
              reason:
                k === 'api_key'
                  ? 'unknown parameter: the wizard takes `token` (recommended) or `key`'
                  : 'unknown parameter',
            }))
          : [{ field: i.path.join('.'), reason: i.message }],
      ),
    };
  }
  const query = parsed.data;
  if (query.origin !== undefined) {
    const o = parseOrigin(query.origin);
    if ('reason' in o) details.push({ field: 'origin', reason: o.reason });
    else query.origin = o.origin;
  }
  return details.length ? { details } : { query };
}

/** The page options from a parsed query, or the problems (steps that cannot be skipped without a preselection). */
export function wizardOptions(query: WizardQuery): { options: WizardOptions } | { details: ErrorDetail[] } {
  const details: ErrorDetail[] = [];
  let steps: StepId[] = [...STEP_IDS];
  if (query.steps !== undefined) {
    const asked = query.steps
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const unknown = asked.filter((s) => !(STEP_IDS as readonly string[]).includes(s));
    if (asked.length === 0)
      details.push({ field: 'steps', reason: `list at least one step of ${STEP_IDS.join(', ')}` });
    if (unknown.length)
      details.push({
        field: 'steps',
        reason: `unknown step(s) ${unknown.join(', ')}; the steps are ${STEP_IDS.join(', ')}`,
      });
    if (new Set(asked).size !== asked.length) details.push({ field: 'steps', reason: 'a step is listed twice' });
    steps = STEP_IDS.filter((s) => asked.includes(s) || REQUIRED_STEPS.includes(s));
    if (!steps.includes('chain') && !query.blockchain)
      details.push({ field: 'steps', reason: 'the chain step is skipped, so blockchain must preselect the chain' });
    if (!steps.includes('beneficiaries'))
      details.push({
        field: 'steps',
        reason:
          'the beneficiaries step cannot be skipped (owner and beneficiaries are needed; setData can prefill them)',
      });
  }
  if (query.chainId !== undefined && !query.wallet)
    details.push({ field: 'chainId', reason: "a chain to deploy to needs a wallet (the SDK's `ethereum` option)" });
  if (details.length) return { details };
  return {
    options: {
      theme: query.theme,
      locale: query.locale === undefined ? undefined : (matchLocale(query.locale) ?? 'en'),
      blockchain: query.blockchain,
      template: query.template,
      steps,
      logo: query.logo,
      primaryColor: query.primaryColor,
      hideHeader: query.hideHeader,
      hideFooter: query.hideFooter,
      wallet: query.wallet,
      ...(query.chainId !== undefined ? { chainId: query.chainId } : {}),
    },
  };
}

/** What the page's script reads (a JSON block, never code). */
export interface WizardConfig {
  version: string;
  apiBase: string;
  token: string | null;
  /** Origins allowed to frame the page and receive its messages. */
  origins: string[];
  options: WizardOptions | null;
  error: { code: string; message: string; details?: ErrorDetail[] | undefined } | null;
}

/** Content-Security-Policy of the page: scripts and styles from svc only, framed only by `frameAncestors` ('none' when empty). */
export function wizardCsp(frameAncestors: readonly string[]): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' https: data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestors.length ? frameAncestors.join(' ') : "'none'"}`,
  ].join('; ');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON safe inside a <script> element: no `<`, `>`, `&` or line separators left to end it early. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * The page: a server-rendered message (what is wrong, or that the wizard is
 * loading), the configuration as JSON, and the bundled wizard. The API key is
 * never in it: a `?key=` page carries an embed token minted for it.
 */
export function renderWizardPage(config: WizardConfig, assets: { js: string; css: string }): string {
  // The shell carries the wizard's language and direction (ar is right to left); the script confirms them.
  const lang: Locale = config.options?.locale ?? 'en';
  const message = config.error
    ? `<h1>The contract wizard cannot start</h1><p><strong>${escapeHtml(config.error.code)}</strong>: ${escapeHtml(config.error.message)}</p>` +
      (config.error.details?.length
        ? `<ul>${config.error.details.map((d) => `<li><code>${escapeHtml(d.field || '(request)')}</code>: ${escapeHtml(d.reason)}</li>`).join('')}</ul>`
        : '')
    : '<p>Loading the contract wizard…</p><noscript>The contract wizard needs JavaScript.</noscript>';
  return (
    `<!doctype html><html lang="${lang}" dir="${RTL_LOCALES.includes(lang) ? 'rtl' : 'ltr'}"><head><meta charset="utf-8">` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<meta name="referrer" content="no-referrer">' +
    `<title>Contract wizard</title><link rel="stylesheet" href="${escapeHtml(assets.css)}"></head>` +
    `<body><main id="svc-wizard" class="svc-wizard">${message}</main>` +
    `<script type="application/json" id="svc-wizard-config">${scriptJson(config)}</script>` +
    `<script src="${escapeHtml(assets.js)}"></script></body></html>`
  );
}

/**
 * Renders a queued message into its subject, plain-text part and HTML part, in the record's language. Every value
 * from the data is HTML-escaped in the HTML part; the HTML is plain (no external images, no scripts, no tracking),
 * readable by screen readers and right to left in Arabic.
 *
 * A guard refuses data that looks like an API key: mail never carries credentials, and a value with the key prefix
 * means a caller put the wrong thing in a message. The sender records such a message as failed, never sends it.
 */
import type { MailLocale, MailTemplate, MailTemplates } from '../../events/mail.js';
import { AR, AR_FRAME } from './ar.js';
import { EN, EN_FRAME } from './en.js';
import { ES, ES_FRAME } from './es.js';
import { FR, FR_FRAME } from './fr.js';
import type { LanguageFrame, TemplateTexts, Wording } from './types.js';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const LANGUAGES: Record<MailLocale, { texts: TemplateTexts; frame: LanguageFrame; dir: 'ltr' | 'rtl' }> = {
  en: { texts: EN, frame: EN_FRAME, dir: 'ltr' },
  ar: { texts: AR, frame: AR_FRAME, dir: 'rtl' },
  es: { texts: ES, frame: ES_FRAME, dir: 'ltr' },
  fr: { texts: FR, frame: FR_FRAME, dir: 'ltr' },
};

/** Thrown when a message cannot be rendered; the sender fails the message for good (no retry can help). */
export class MailRenderError extends Error {
  override name = 'MailRenderError';
}

/** API keys start with this prefix (src/keys); no mail data value may contain one. */
const API_KEY_LIKE = /\bsvc_[A-Za-z0-9_-]{8,}/;
/** Data fields holding an instant, shown as a readable date in the message's language. */
const DATE_FIELDS = new Set(['deadline', 'endsAt']);

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** Refuses values that look like credentials, and makes dates readable. */
function prepare(data: Record<string, string>, locale: MailLocale): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(data)) {
    if (typeof value !== 'string') throw new MailRenderError(`mail data field "${key}" is not a string`);
    if (API_KEY_LIKE.test(value)) throw new MailRenderError(`mail data field "${key}" looks like an API key`);
    out[key] = DATE_FIELDS.has(key) ? readableDate(value, locale) : value;
  }
  return out;
}

/** The Intl locale each language's dates are written in. */
const DATE_TAGS: Record<MailLocale, string> = { en: 'en-GB', ar: 'ar', es: 'es-ES', fr: 'fr-FR' };

function readableDate(iso: string, locale: MailLocale): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  const shown = new Intl.DateTimeFormat(DATE_TAGS[locale] ?? DATE_TAGS.en, {
    dateStyle: 'long',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(at);
  return `${shown} UTC`;
}

function escapeAll(data: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(data).map(([k, v]) => [k, escapeHtml(v)]));
}

/** Renders one message. `unsubscribeUrl` is given for non-essential mail. */
export function renderMail(
  template: MailTemplate,
  locale: MailLocale,
  data: Record<string, string>,
  unsubscribeUrl?: string,
): RenderedMail {
  const lang = LANGUAGES[locale] ?? LANGUAGES.en;
  const fill = lang.texts[template] as ((d: MailTemplates[MailTemplate]) => Wording) | undefined;
  if (!fill) throw new MailRenderError(`unknown mail template "${template}"`);
  const values = prepare(data, locale);
  const plain = fill(values as unknown as MailTemplates[MailTemplate]);
  const escaped = fill(escapeAll(values) as unknown as MailTemplates[MailTemplate]);
  return {
    subject: plain.subject,
    text: textPart(plain, lang.frame, unsubscribeUrl),
    html: htmlPart(escaped, lang.frame, lang.dir, locale, unsubscribeUrl),
  };
}

function textPart(w: Wording, frame: LanguageFrame, unsubscribeUrl: string | undefined): string {
  const lines = [...w.paragraphs.flatMap((p) => [p, ''])];
  if (w.action) lines.push(`${w.action.label}${frame.colon}`, w.action.href, '');
  lines.push('--', frame.footer);
  if (unsubscribeUrl) lines.push(`${frame.unsubscribe} ${unsubscribeUrl}`);
  return `${lines.join('\n')}\n`;
}

/** The HTML part; `w` holds escaped values already (the wording itself is ours). */
function htmlPart(
  w: Wording,
  frame: LanguageFrame,
  dir: 'ltr' | 'rtl',
  locale: MailLocale,
  unsubscribeUrl: string | undefined,
): string {
  const body = w.paragraphs.map((p) => `<p>${p}</p>`);
  if (w.action) body.push(`<p><a href="${w.action.href}">${w.action.label}</a></p>`);
  const foot = [`<p style="color:#555;font-size:small">${escapeHtml(frame.footer)}</p>`];
  if (unsubscribeUrl) {
    const href = escapeHtml(unsubscribeUrl);
    foot.push(
      `<p style="color:#555;font-size:small">${escapeHtml(frame.unsubscribe)} <a href="${href}">${href}</a></p>`,
    );
  }
  return [
    '<!DOCTYPE html>',
    `<html lang="${locale}" dir="${dir}">`,
    `<head><meta charset="utf-8"><title>${w.subject}</title></head>`,
    `<body style="font-family:sans-serif;line-height:1.5;max-width:40em">`,
    ...body,
    '<hr>',
    ...foot,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

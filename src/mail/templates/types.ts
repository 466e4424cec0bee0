/**
 * The shape every language's texts share. A template is written once per language as a function of the message's
 * data; the renderer calls it twice: once with the raw values (plain text, subject) and once with HTML-escaped values
 * (the HTML part), so no value can ever add markup.
 */
import type { MailTemplate, MailTemplates } from '../../events/mail.js';

/** One message's wording: a subject, paragraphs, an optional button-like link, and a closing line. */
export interface Wording {
  subject: string;
  paragraphs: string[];
  /** The main action, when there is one (the href is a value from the data, escaped like the rest). */
  action?: { label: string; href: string } | undefined;
}

export type TemplateTexts = {
  [T in MailTemplate]: (data: MailTemplates[T]) => Wording;
};

/** Words around every message in one language. */
export interface LanguageFrame {
  /** Shown under every message: why it was sent and that it is automatic. */
  footer: string;
  /** Shown on non-essential mail, before the unsubscribe link. */
  unsubscribe: string;
  /** Shown when the action link must be copied by hand (plain text). */
  linkLabel: string;
  /** What follows a label before what it names: ':' in most languages, a no-break space and ':' in French. */
  colon: string;
}

/**
 * Names people type (a user's display name, an account's, a beneficiary's) are shown to others: in the To header and
 * the subject of mail, in greetings, on pages. A name must read as what it is, so the characters that break a line
 * or silently reorder what a reader sees are refused where a name is accepted (the input schemas, with
 * NAME_CHARS), and removed again by `headerText` wherever a header is built, for names stored before this rule.
 *
 * Refused: the C0 and C1 control characters and DEL (CR, LF and tab included), the line and paragraph separators
 * (U+2028, U+2029), and the bidirectional controls: the embeddings and overrides U+202A-U+202E (U+202E, the
 * right-to-left override, makes "Evil\u202eRTL" show as "EvilLTR"), the isolates U+2066-U+2069, the marks U+200E and
 * U+200F, and the Arabic letter mark U+061C. Joiners (U+200C, U+200D), which some scripts and emoji need, are kept.
 */

/** A character no name may hold (see above). */
const UNSAFE = '\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069';
/** Those of them that separate words (line breaks, tabs and other controls): a space when removed. */
const BREAKING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
/** The bidirectional controls: removed outright. */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** Matches a name without any of those characters (for a schema's `.regex`). */
export const NAME_CHARS = new RegExp(`^[^${UNSAFE}]*$`);

/** Why a name holding one of those characters is refused (the detail's reason in a 400 VALIDATION_ERROR). */
export const NAME_CHARS_REASON =
  'must not hold line breaks, control characters or bidirectional controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069)';

/** Whether `s` holds a character no name may hold. */
export const hasUnsafeNameChars = (s: string): boolean => !NAME_CHARS.test(s);

/** Runs of whitespace other than the no-break spaces (U+00A0, U+202F), which French puts before : ; ! ? and ». */
const SPACES = /[^\S\u00a0\u202f]+/g;

/**
 * A name or subject as it goes into a mail header: bidirectional controls removed, line breaks and other controls
 * made spaces, other whitespace collapsed, on one line. Clean text comes out unchanged, no-break spaces included.
 */
export function headerText(s: string): string {
  return s.replace(BREAKING, ' ').replace(BIDI, '').replace(SPACES, ' ').trim();
}

/**
 * Text that no store can keep the same way: the NUL character (U+0000) and unpaired UTF-16 surrogates (a lone
 * U+D800-U+DFFF, which a JSON body can carry as a `\ud800` escape). PostgreSQL's jsonb refuses both, lowdb would keep
 * them, and neither is text a person writes. Refused once, for every tool's input on every transport and engine,
 * right after the input is validated: 400 VALIDATION_ERROR with one detail per offending field (its path, as in the
 * schema errors), before any handler runs, so nothing is stored.
 */
import { ApiError, type ErrorDetail } from '../core/errors.js';

/**
 * Names are held to more than storable text: no line breaks, control characters or bidirectional controls, since
 * they are shown to other people, in mail headers among other places. The rule is in src/core/names.ts, so that the
 * domains' own schemas (a user's display name, an account's name, a plan's beneficiaries) apply it too; tools'
 * schemas take it from here.
 */
export { NAME_CHARS, NAME_CHARS_REASON, hasUnsafeNameChars } from '../core/names.js';

/** At most this many details are listed (the first ones in input order); the input is refused either way. */
export const MAX_TEXT_DETAILS = 20;

const NUL_REASON = 'must not contain the NUL character (U+0000)';
const SURROGATE_REASON = 'must not contain an unpaired UTF-16 surrogate (a lone character in U+D800-U+DFFF)';

/** String.prototype.isWellFormed (ES2024, Node 20), not in this project's ES2022 library typings. */
const isWellFormed = (s: string): boolean => (s as unknown as { isWellFormed(): boolean }).isWellFormed();

/** Why a string cannot be stored, or undefined when it can. */
export function unstorableReason(s: string): string | undefined {
  if (s.includes('\u0000')) return NUL_REASON;
  if (!isWellFormed(s)) return SURROGATE_REASON;
  return undefined;
}

/** A key shown in a field path: its unstorable characters replaced by U+FFFD, so the error itself is clean text. */
const printable = (key: string): string =>
  key.replace(/\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

interface Frame {
  value: unknown;
  path: string;
  /** Set for a frame standing for an object key that cannot be stored. */
  keyReason?: string;
}

const join = (path: string, key: string | number): string => (path === '' ? String(key) : `${path}.${key}`);

const isPlainObject = (value: object): boolean => {
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
};

/**
 * Whether any string (value or object key) in `input` cannot be stored. The usual input, an object of plain values,
 * is read without allocating: only nested arrays and objects go on a stack (made when the first one is met).
 */
function holdsUnstorable(input: unknown): boolean {
  let stack: unknown[] | undefined;
  let value = input;
  for (;;) {
    if (typeof value === 'string') {
      if (unstorableReason(value)) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) (stack ??= []).push(item);
    } else if (value !== null && typeof value === 'object' && isPlainObject(value)) {
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        if (unstorableReason(key)) return true;
        const field = (value as Record<string, unknown>)[key];
        if (typeof field === 'string') {
          if (unstorableReason(field)) return true;
        } else if (field !== null && typeof field === 'object') (stack ??= []).push(field);
      }
    }
    if (stack === undefined || stack.length === 0) return false;
    value = stack.pop();
  }
}

/**
 * The strings (values and object keys) in `input` that cannot be stored, as error details with their paths
 * (`content`, `answers.0.answer`), in input order, at most `max`. Walks arrays and plain objects without recursion,
 * so no nesting depth can overflow the stack; other objects (dates, buffers) are not text and are skipped.
 */
export function unstorableText(input: unknown, max = MAX_TEXT_DETAILS): ErrorDetail[] {
  // The usual case, clean input, costs one pass without building any path; the paths are worked out only for a refusal.
  if (!holdsUnstorable(input)) return [];
  const details: ErrorDetail[] = [];
  const stack: Frame[] = [{ value: input, path: '' }];
  while (stack.length > 0 && details.length < max) {
    const { value, path, keyReason } = stack.pop()!;
    if (keyReason !== undefined) {
      details.push({ field: path, reason: `the field name ${keyReason}` });
    } else if (typeof value === 'string') {
      const reason = unstorableReason(value);
      if (reason) details.push({ field: path, reason });
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: join(path, i) });
    } else if (value !== null && typeof value === 'object' && isPlainObject(value)) {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        const reason = unstorableReason(key);
        const at = join(path, reason ? printable(key) : key);
        stack.push({ value: (value as Record<string, unknown>)[key], path: at });
        // Popped first: the name is reported before whatever its value holds.
        if (reason) stack.push({ value: undefined, path: at, keyReason: reason });
      }
    }
  }
  return details;
}

/** Throws 400 VALIDATION_ERROR naming every field (up to MAX_TEXT_DETAILS) whose text cannot be stored. */
export function refuseUnstorableText(toolName: string, input: unknown): void {
  const details = unstorableText(input);
  if (details.length > 0) {
    throw ApiError.validation(
      `Invalid input for ${toolName}: text with characters that cannot be stored (NUL or an unpaired surrogate)`,
      details,
    );
  }
}

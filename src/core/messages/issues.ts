/**
 * Validation problems as data, and the checks that find them: what the wizard shows next to each field and
 * what the API puts in `details[].reason`. A problem is a code and its values; `humanMessage` (./index.ts) turns
 * it into a sentence for a person, in their language. Free of any service import, so the browser bundle of the
 * wizard uses the very same checks and words.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';

export const ISSUE_CODES = [
  'name_required',
  'address_required',
  'percentage_format',
  'percentage_positive',
  'percentage_max',
  'percentage_decimals',
  'percentage_sum',
  'evm_address',
  'address_checksum',
  'zero_address',
  'zero_owner',
  'zero_guardian',
  'owner_is_beneficiary',
  'duplicate_beneficiary',
  'whole_number',
  'number_min',
  'number_max',
  'threshold_exceeds',
  'guardian_is_owner',
  'guardian_duplicate',
  'no_release',
  'too_long',
  'too_many',
  'choose_option',
  'value_required',
  'too_few',
  'too_short',
  'number_format',
  'boolean_format',
] as const;
export type IssueCode = (typeof ISSUE_CODES)[number];

/** One problem: its code and the values its message names. */
export type Issue =
  | {
      code: Exclude<
        IssueCode,
        | 'percentage_sum'
        | 'address_checksum'
        | 'duplicate_beneficiary'
        | 'number_min'
        | 'number_max'
        | 'threshold_exceeds'
        | 'too_long'
        | 'too_many'
        | 'too_few'
        | 'too_short'
        | 'choose_option'
      >;
    }
  | { code: 'percentage_sum'; total: number }
  | { code: 'address_checksum'; suggestion: string }
  /** `other` is the 0-based index of the beneficiary that has the address first. */
  | { code: 'duplicate_beneficiary'; other: number }
  | { code: 'number_min'; min: number }
  | { code: 'number_max'; max: number }
  | { code: 'threshold_exceeds'; count: number }
  | { code: 'too_long'; max: number }
  | { code: 'too_many'; max: number }
  | { code: 'too_few'; min: number }
  | { code: 'too_short'; min: number }
  | { code: 'choose_option'; options: string[] };

/**
 * The EIP-55 form of an EVM address (`0x` and 40 hexadecimal digits, any case): each letter is upper case when the
 * matching nibble of keccak-256 over the lower-case digits (as ASCII) is 8 or more.
 */
export function checksumAddress(address: string): string {
  const hex = address.slice(2).toLowerCase();
  const hash = keccak_256(new TextEncoder().encode(hex));
  let out = '0x';
  for (let i = 0; i < hex.length; i++) {
    const nibble = i % 2 === 0 ? hash[i >> 1]! >> 4 : hash[i >> 1]! & 0x0f;
    out += nibble >= 8 ? hex[i]!.toUpperCase() : hex[i]!;
  }
  return out;
}

/** What is wrong with an EVM address, if anything: its shape, or a mixed case that is not its checksum. */
export function evmAddressIssue(address: string): Issue | undefined {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) return { code: 'evm_address' };
  const digits = address.slice(2);
  const mixed = digits !== digits.toLowerCase() && digits !== digits.toUpperCase();
  const good = mixed ? checksumAddress(address) : address;
  return good === address ? undefined : { code: 'address_checksum', suggestion: good };
}

/**
 * A decimal number as a person types it: `30`, `30.5`, `30,5` (a decimal comma), `30 %`. Returns undefined for
 * anything else (two separators, letters, an empty text).
 */
export function parseDecimal(text: string): number | undefined {
  const t = text.trim().replace(/\s*%$/, '');
  if (!/^\d{1,6}([.,]\d+)?$|^[.,]\d+$/.test(t)) return undefined;
  return Number(t.replace(',', '.'));
}

/**
 * Whether a number has more than two decimals (a share is kept in hundredths of a percent). The tolerance absorbs
 * floating-point noise near a hundredth; a value that is not 0 but rounds to 0 hundredths (0.000000001) is not
 * noise: it would be a share of 0 basis points, which no contract accepts.
 */
export function hasMoreThanTwoDecimals(value: number): boolean {
  const bp = value * 100;
  if (value !== 0 && Math.round(bp) === 0) return true;
  return Math.abs(bp - Math.round(bp)) > 1e-6;
}

/** A share as typed: its value, or the problem with it. */
export function percentageIssue(text: string): { value: number } | { issue: Issue } {
  const value = parseDecimal(text);
  if (value === undefined) return { issue: { code: 'percentage_format' } };
  if (value <= 0) return { issue: { code: 'percentage_positive' } };
  if (value > 100) return { issue: { code: 'percentage_max' } };
  if (hasMoreThanTwoDecimals(value)) return { issue: { code: 'percentage_decimals' } };
  return { value };
}

/** The problem with shares that do not add up to 100 (counted in hundredths, so 33.33 + 33.33 + 33.34 is exact). */
export function sumIssue(values: readonly number[]): Issue | undefined {
  const basisPoints = values.reduce((sum, v) => sum + Math.round(v * 100), 0);
  return basisPoints === 10000 ? undefined : { code: 'percentage_sum', total: basisPoints / 100 };
}

/** The parts of a zod issue this mapping reads (structural, so the browser bundle needs no zod). */
export interface ZodIssueLike {
  code: string;
  path: ReadonlyArray<PropertyKey>;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  /** Whether the bound itself is allowed (false for zod's gt and lt). */
  inclusive?: boolean;
  expected?: string;
  values?: ReadonlyArray<unknown>;
}

/** What kind of value a field holds, from the last name in its path (an array index counts as its array). */
function role(path: ReadonlyArray<PropertyKey>): string {
  const names = path.filter((p) => typeof p === 'string') as string[];
  const last = names[names.length - 1] ?? '';
  if (last === 'address' || last === 'ownerAddress' || last === 'addresses') return 'address';
  if (last === 'intervalDays' || last === 'gracePeriodDays' || last === 'threshold') return 'count';
  return last;
}

/**
 * The problem a zod issue stands for, for the fields people fill in (names, addresses, shares, days, guardian
 * counts, choices) and for any field left out (`leftOut`: the input has no value at the issue's path); undefined for
 * the rest, whose zod message is kept. `people: false` for a protocol's own fields (an MCP request's `name` is a
 * tool's, not a person's): only the rules for any field apply.
 */
export function issueFromZod(issue: ZodIssueLike, leftOut = false, people = true): Issue | undefined {
  const kind = people ? role(issue.path) : '';
  if (issue.code === 'invalid_value') return { code: 'choose_option', options: (issue.values ?? []).map(String) };
  if (issue.code === 'too_big' && issue.origin === 'array') return { code: 'too_many', max: Number(issue.maximum) };
  if (issue.code === 'too_big' && issue.origin === 'string') return { code: 'too_long', max: Number(issue.maximum) };
  if (issue.code === 'too_small' && issue.origin === 'array') return { code: 'too_few', min: Number(issue.minimum) };
  // zod leaves the input out of its issues: a wrong type in a text field is as good as nothing typed.
  const wrongType = issue.code === 'invalid_type';
  const emptyText = issue.code === 'too_small' && issue.origin === 'string';
  switch (kind) {
    case 'name':
      return wrongType || emptyText ? { code: 'name_required' } : undefined;
    case 'address':
      return wrongType || emptyText ? { code: 'address_required' } : undefined;
    case 'percentage':
      if (issue.code === 'invalid_type') return { code: 'percentage_format' };
      if (issue.code === 'too_small') return { code: 'percentage_positive' };
      if (issue.code === 'too_big') return { code: 'percentage_max' };
      return undefined;
    case 'count':
      if (wrongType) return { code: 'whole_number' };
      break; // its bounds are any number's, below
  }
  // Any other field. One left out fails its type, or every choice of a union ("a number, or one of these names").
  if (leftOut && (wrongType || issue.code === 'invalid_union')) return { code: 'value_required' };
  // A number or a yes/no given as something else (a query's "abc"; JSON's "yes"): what to write instead.
  if (wrongType) return WRONG_TYPE.get(issue.expected ?? '');
  // An empty text is as good as none; a longer minimum is said as such.
  if (emptyText)
    return Number(issue.minimum) <= 1 ? { code: 'value_required' } : { code: 'too_short', min: Number(issue.minimum) };
  // A number's bounds when the bound itself is allowed ("Enter 1 or more."); zod's words for gt and lt.
  if (issue.origin === 'number' && issue.inclusive !== false) {
    if (issue.code === 'too_small') return { code: 'number_min', min: Number(issue.minimum) };
    if (issue.code === 'too_big') return { code: 'number_max', max: Number(issue.maximum) };
  }
  return undefined;
}

/** What to write instead of a value of the wrong type, by the type zod expected; other types keep zod's words. */
const WRONG_TYPE = new Map<string, Issue>([
  ['number', { code: 'number_format' }],
  ['int', { code: 'whole_number' }],
  ['boolean', { code: 'boolean_format' }],
]);

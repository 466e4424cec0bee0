/** The result of one check of an Anchor program, and the helpers the checks share (./checks.ts, ./idl-checks.ts). */
import type { ParsedField } from './parser.js';

export interface Check {
  name: string;
  passed: boolean;
  detail?: string;
}

const WRITABLE_KEYS = new Set(['mut', 'init', 'init_if_needed', 'realloc', 'close']);

export const has = (f: ParsedField, key: string): boolean => f.constraints.some((c) => c.key === key);
export const value = (f: ParsedField, key: string): string | undefined =>
  f.constraints.find((c) => c.key === key)?.value;
export const isWritable = (f: ParsedField): boolean => f.constraints.some((c) => WRITABLE_KEYS.has(c.key));

export function result(name: string, problems: string[], ok?: string): Check {
  if (problems.length === 0) return ok ? { name, passed: true, detail: ok } : { name, passed: true };
  const shown = problems.slice(0, 5).join('; ');
  return { name, passed: false, detail: problems.length > 5 ? `${shown}; and ${problems.length - 5} more` : shown };
}

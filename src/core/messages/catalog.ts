import type { Issue, IssueCode } from './issues.js';

/** Numbers in the reader's conventions (digits, decimal sign, percent sign). */
export interface NumberFormats {
  number(value: number): string;
  /** A percentage given in percent (30.5 → "30.5%"). */
  percent(value: number): string;
  /** A list of words joined as the language does ("a, b or c"). */
  or(items: string[]): string;
}

/** One sentence per problem code: a locale's validation messages. Every code must have one (the type says so). */
export type MessageCatalog = {
  [C in IssueCode]: (issue: Extract<Issue, { code: C }>, f: NumberFormats) => string;
};

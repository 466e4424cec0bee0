import type { FuncFunction, Stmt } from './func-model.js';

export const hex = (n: number) => `0x${n.toString(16)}`;

export function snake(s: string): string {
  return s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** A FunC function; `doc` becomes its comment. */
export const fn = (
  name: string,
  returnType: string,
  params: Array<[string, string]>,
  specifiers: FuncFunction['specifiers'],
  body: Stmt[],
  doc?: string,
): FuncFunction => ({
  name,
  returnType,
  params: params.map(([type, n]) => ({ type, name: n })),
  specifiers,
  body,
  ...(doc ? { doc } : {}),
});

/** An `if` statement, with an optional `else`. */
export const iff = (cond: string, then: Stmt[], els?: Stmt[]): Stmt => ({
  kind: 'if',
  cond,
  then,
  ...(els ? { else: els } : {}),
});

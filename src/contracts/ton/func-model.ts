/**
 * A small model of a FunC source file and its printer. The TON contract is
 * assembled from these parts (constants, asm declarations, globals, functions
 * made of statements) and printed, so that each shape's source is derived
 * from one model rather than pasted together from text blocks.
 */

/** A statement: a plain line (without its trailing semicolon for expressions), or a block. */
export type Stmt =
  | string
  | { kind: 'if'; cond: string; then: Stmt[]; else?: Stmt[] }
  | { kind: 'while'; cond: string; body: Stmt[] }
  | { kind: 'repeat'; count: string; body: Stmt[] }
  | { kind: 'comment'; text: string };

export interface FuncParam {
  type: string;
  name: string;
}

/** An `asm` declaration (a standard-library primitive). */
export interface AsmDecl {
  /** e.g. `forall X ->`; omitted when not generic. */
  forall?: string;
  returnType: string;
  name: string;
  params: FuncParam[];
  specifiers?: Array<'impure' | 'inline' | 'method_id'>;
  /** The asm body, e.g. `"NOW"`, or `(x y) "SWAP"`-style arrangements. */
  asm: string;
}

export interface FuncFunction {
  doc?: string;
  returnType: string;
  name: string;
  params: FuncParam[];
  specifiers: Array<'impure' | 'inline' | 'inline_ref' | 'method_id'>;
  body: Stmt[];
}

export interface FuncConst {
  name: string;
  /** An integer literal or an expression of other constants. */
  value: string;
  comment?: string;
}

export interface FuncModule {
  header: string[];
  pragmas: string[];
  asm: AsmDecl[];
  consts: FuncConst[];
  globals: FuncParam[];
  functions: FuncFunction[];
}

export function emptyModule(header: string[]): FuncModule {
  return { header, pragmas: [], asm: [], consts: [], globals: [], functions: [] };
}

const INDENT = '    ';

function params(ps: FuncParam[]): string {
  return ps.map((p) => `${p.type} ${p.name}`).join(', ');
}

function printStmts(stmts: Stmt[], depth: number, out: string[]): void {
  const pad = INDENT.repeat(depth);
  for (const s of stmts) {
    if (typeof s === 'string') {
      out.push(`${pad}${s};`);
      continue;
    }
    switch (s.kind) {
      case 'comment':
        out.push(`${pad};; ${s.text}`);
        break;
      case 'if':
        out.push(`${pad}if (${s.cond}) {`);
        printStmts(s.then, depth + 1, out);
        if (s.else && s.else.length > 0) {
          out.push(`${pad}} else {`);
          printStmts(s.else, depth + 1, out);
        }
        out.push(`${pad}}`);
        break;
      case 'while':
        out.push(`${pad}while (${s.cond}) {`);
        printStmts(s.body, depth + 1, out);
        out.push(`${pad}}`);
        break;
      case 'repeat':
        out.push(`${pad}repeat (${s.count}) {`);
        printStmts(s.body, depth + 1, out);
        out.push(`${pad}}`);
        break;
    }
  }
}

/** Prints the module as FunC source. Deterministic: the same model prints the same text. */
export function printModule(m: FuncModule): string {
  const out: string[] = [];
  for (const h of m.header) out.push(h === '' ? ';;' : `;; ${h}`);
  out.push('');
  for (const p of m.pragmas) out.push(`#pragma ${p};`);
  if (m.pragmas.length > 0) out.push('');
  if (m.asm.length > 0) {
    out.push(';; ---- standard-library primitives used by this contract (FunC 0.4.6) ----');
    for (const a of m.asm) {
      const spec = a.specifiers && a.specifiers.length > 0 ? ` ${a.specifiers.join(' ')}` : '';
      const forall = a.forall ? `${a.forall} ` : '';
      out.push(`${forall}${a.returnType} ${a.name}(${params(a.params)})${spec} asm ${a.asm};`);
    }
    out.push('');
  }
  if (m.consts.length > 0) {
    for (const c of m.consts) out.push(`const int ${c.name} = ${c.value};${c.comment ? ` ;; ${c.comment}` : ''}`);
    out.push('');
  }
  if (m.globals.length > 0) {
    for (const g of m.globals) out.push(`global ${g.type} ${g.name};`);
    out.push('');
  }
  for (const f of m.functions) {
    if (f.doc) for (const line of f.doc.split('\n')) out.push(`;; ${line}`);
    const spec = f.specifiers.length > 0 ? ` ${f.specifiers.join(' ')}` : '';
    out.push(`${f.returnType} ${f.name}(${params(f.params)})${spec} {`);
    printStmts(f.body, 1, out);
    out.push('}');
    out.push('');
  }
  return out.join('\n');
}

/**
 * A small model of an Anchor program (items, instructions, account
 * constraints) and the printer that turns it into Rust source. The generator
 * builds a model; the source, the IDL and the size figures are all derived
 * from it, never by concatenating whole files.
 */

export type Primitive = 'u8' | 'u16' | 'u32' | 'u64' | 'u128' | 'i64' | 'bool' | 'Pubkey' | 'String';

export type RustType =
  | { kind: 'prim'; name: Primitive }
  | { kind: 'vec'; of: RustType }
  | { kind: 'option'; of: RustType }
  | { kind: 'defined'; name: string };

export const T = {
  u8: { kind: 'prim', name: 'u8' },
  u16: { kind: 'prim', name: 'u16' },
  u32: { kind: 'prim', name: 'u32' },
  u64: { kind: 'prim', name: 'u64' },
  i64: { kind: 'prim', name: 'i64' },
  bool: { kind: 'prim', name: 'bool' },
  pubkey: { kind: 'prim', name: 'Pubkey' },
  vec: (of: RustType): RustType => ({ kind: 'vec', of }),
  option: (of: RustType): RustType => ({ kind: 'option', of }),
  defined: (name: string): RustType => ({ kind: 'defined', name }),
} as const satisfies Record<string, RustType | ((x: never) => RustType)>;

export interface Field {
  name: string;
  type: RustType;
  doc?: string[];
}

export interface StructItem {
  name: string;
  doc: string[];
  /** Outer attributes other than doc, printed one per line, e.g. `#[account]`. */
  attrs: string[];
  fields: Field[];
}

export interface EnumItem {
  name: string;
  doc: string[];
  attrs: string[];
  variants: string[];
}

export interface ErrorItem {
  name: string;
  variants: Array<{ name: string; msg: string }>;
}

export interface ConstItem {
  name: string;
  type: string;
  value: string;
  doc?: string[];
}

/** A statement list; a nested block prints as `head {`, its body indented, then `}` + tail. */
export type Block = Array<string | { head: string; body: Block; tail?: string }>;

export interface FnItem {
  name: string;
  doc: string[];
  pub: boolean;
  /** Raw parameter list, e.g. `&self, wallet: &Pubkey`. */
  params: string;
  ret?: string;
  body: Block;
}

export interface ImplItem {
  target: string;
  consts: ConstItem[];
  fns: FnItem[];
}

/** A seed of a PDA: a byte-string constant, the key of an account in the context, or a Pubkey field of an account's data. */
export type Seed =
  | { kind: 'const'; value: string }
  | { kind: 'key'; account: string }
  | { kind: 'field'; account: string; field: string; accountType: string };

export type Constraint =
  | { k: 'init'; ifNeeded: boolean; payer: string; space?: string }
  | { k: 'mut' }
  | { k: 'seeds'; seeds: Seed[]; bump: string | null }
  | { k: 'has_one'; target: string; error: string }
  | { k: 'constraint'; expr: string; error: string }
  | { k: 'realloc'; space: string; payer: string; zero: boolean }
  | { k: 'close'; to: string }
  | { k: 'associated_token'; mint: string; authority: string }
  | { k: 'token'; mint: string; authority: string };

export type AccountType =
  | { kind: 'signer' }
  | { kind: 'account'; of: string; boxed?: boolean }
  | { kind: 'program'; of: 'System' | 'Token' | 'AssociatedToken' };

export interface AccountField {
  name: string;
  doc: string[];
  type: AccountType;
  constraints: Constraint[];
}

export interface AccountsStruct {
  name: string;
  doc: string[];
  /** `#[instruction(...)]` arguments the constraints refer to. */
  instructionArgs: Array<{ name: string; type: RustType }>;
  fields: AccountField[];
}

export interface Instruction {
  name: string;
  doc: string[];
  accounts: string;
  args: Array<{ name: string; type: RustType }>;
  body: Block;
}

export interface ProgramModel {
  crateName: string;
  programId: string;
  headerDoc: string[];
  uses: string[];
  consts: ConstItem[];
  moduleDoc: string[];
  instructions: Instruction[];
  helpers: FnItem[];
  accountsStructs: AccountsStruct[];
  /** `#[account]` data structs (state), with their impls. */
  state: StructItem[];
  impls: ImplItem[];
  types: Array<StructItem | EnumItem>;
  events: StructItem[];
  errors: ErrorItem;
}

// ---------------------------------------------------------------- printing

export function rustType(t: RustType): string {
  switch (t.kind) {
    case 'prim':
      return t.name;
    case 'vec':
      return `Vec<${rustType(t.of)}>`;
    case 'option':
      return `Option<${rustType(t.of)}>`;
    case 'defined':
      return t.name;
  }
}

export function accountType(t: AccountType): string {
  switch (t.kind) {
    case 'signer':
      return "Signer<'info>";
    case 'account':
      return t.boxed ? `Box<Account<'info, ${t.of}>>` : `Account<'info, ${t.of}>`;
    case 'program':
      return `Program<'info, ${t.of}>`;
  }
}

export function seedExpr(s: Seed): string {
  switch (s.kind) {
    case 'const':
      return `b"${s.value}"`;
    case 'key':
      return `${s.account}.key().as_ref()`;
    case 'field':
      return `${s.account}.${s.field}.as_ref()`;
  }
}

/** The `#[account(...)]` arguments of a field, in the order Anchor documents them. */
export function constraintArgs(cs: Constraint[]): string[] {
  const order: Constraint['k'][] = [
    'init',
    'mut',
    'seeds',
    'has_one',
    'constraint',
    'associated_token',
    'token',
    'realloc',
    'close',
  ];
  const sorted = [...cs].sort((a, b) => order.indexOf(a.k) - order.indexOf(b.k));
  const out: string[] = [];
  for (const c of sorted) {
    switch (c.k) {
      case 'init':
        out.push(c.ifNeeded ? 'init_if_needed' : 'init', `payer = ${c.payer}`);
        if (c.space) out.push(`space = ${c.space}`);
        break;
      case 'mut':
        out.push('mut');
        break;
      case 'seeds':
        out.push(`seeds = [${c.seeds.map(seedExpr).join(', ')}]`);
        out.push(c.bump === null ? 'bump' : `bump = ${c.bump}`);
        break;
      case 'has_one':
        out.push(`has_one = ${c.target} @ ${c.error}`);
        break;
      case 'constraint':
        out.push(`constraint = ${c.expr} @ ${c.error}`);
        break;
      case 'associated_token':
        out.push(`associated_token::mint = ${c.mint}`, `associated_token::authority = ${c.authority}`);
        break;
      case 'token':
        out.push(`token::mint = ${c.mint}`, `token::authority = ${c.authority}`);
        break;
      case 'realloc':
        out.push(`realloc = ${c.space}`, `realloc::payer = ${c.payer}`, `realloc::zero = ${c.zero}`);
        break;
      case 'close':
        out.push(`close = ${c.to}`);
        break;
    }
  }
  return out;
}

class Printer {
  private lines: string[] = [];
  private depth = 0;
  line(text = ''): void {
    this.lines.push(text === '' ? '' : '    '.repeat(this.depth) + text);
  }
  doc(doc: string[] | undefined, marker = '///'): void {
    for (const d of doc ?? []) this.line(d === '' ? marker : `${marker} ${d}`);
  }
  open(head: string): void {
    this.line(`${head} {`);
    this.depth++;
  }
  close(tail = ''): void {
    this.depth--;
    this.line(`}${tail}`);
  }
  block(b: Block): void {
    for (const s of b) {
      if (typeof s === 'string') this.line(s);
      else {
        this.open(s.head);
        this.block(s.body);
        this.close(s.tail ?? '');
      }
    }
  }
  toString(): string {
    return this.lines.join('\n') + '\n';
  }
}

function printFn(p: Printer, f: FnItem): void {
  p.doc(f.doc);
  p.open(`${f.pub ? 'pub ' : ''}fn ${f.name}(${f.params})${f.ret ? ` -> ${f.ret}` : ''}`);
  p.block(f.body);
  p.close();
}

function printStruct(p: Printer, s: StructItem): void {
  p.doc(s.doc);
  for (const a of s.attrs) p.line(a);
  p.open(`pub struct ${s.name}`);
  for (const f of s.fields) {
    p.doc(f.doc);
    p.line(`pub ${f.name}: ${rustType(f.type)},`);
  }
  p.close();
}

function printEnum(p: Printer, e: EnumItem): void {
  p.doc(e.doc);
  for (const a of e.attrs) p.line(a);
  p.open(`pub enum ${e.name}`);
  for (const v of e.variants) p.line(`${v},`);
  p.close();
}

function printAccountsStruct(p: Printer, s: AccountsStruct): void {
  p.doc(s.doc);
  p.line('#[derive(Accounts)]');
  if (s.instructionArgs.length > 0) {
    p.line(`#[instruction(${s.instructionArgs.map((a) => `${a.name}: ${rustType(a.type)}`).join(', ')})]`);
  }
  p.open(`pub struct ${s.name}<'info>`);
  for (const f of s.fields) {
    p.doc(f.doc);
    const args = constraintArgs(f.constraints);
    if (args.length > 0) {
      const one = `#[account(${args.join(', ')})]`;
      if (one.length <= 96) p.line(one);
      else {
        p.line('#[account(');
        for (const a of args) p.line(`    ${a},`);
        p.line(')]');
      }
    }
    p.line(`pub ${f.name}: ${accountType(f.type)},`);
  }
  p.close();
}

/** Prints the whole program: header, uses, id, constants, the #[program] module, helpers, accounts, state, types, events, errors. */
export function printProgram(m: ProgramModel): string {
  const p = new Printer();
  p.doc(m.headerDoc, '//!');
  p.line();
  for (const u of m.uses) p.line(`use ${u};`);
  p.line();
  p.line(`declare_id!("${m.programId}");`);
  p.line();
  for (const c of m.consts) {
    p.doc(c.doc);
    p.line(`pub const ${c.name}: ${c.type} = ${c.value};`);
  }
  p.line();
  p.doc(m.moduleDoc);
  p.line('#[program]');
  p.open(`pub mod ${m.crateName}`);
  p.line('use super::*;');
  for (const ix of m.instructions) {
    p.line();
    const params = [`ctx: Context<${ix.accounts}>`, ...ix.args.map((a) => `${a.name}: ${rustType(a.type)}`)].join(', ');
    printFn(p, { name: ix.name, doc: ix.doc, pub: true, params, ret: 'Result<()>', body: ix.body });
  }
  p.close();
  for (const f of m.helpers) {
    p.line();
    printFn(p, f);
  }
  for (const s of m.accountsStructs) {
    p.line();
    printAccountsStruct(p, s);
  }
  for (const s of m.state) {
    p.line();
    printStruct(p, s);
    const impl = m.impls.find((i) => i.target === s.name);
    if (impl) {
      p.line();
      p.open(`impl ${impl.target}`);
      for (const c of impl.consts) {
        p.doc(c.doc);
        p.line(`pub const ${c.name}: ${c.type} = ${c.value};`);
      }
      for (const f of impl.fns) {
        p.line();
        printFn(p, f);
      }
      p.close();
    }
  }
  for (const t of m.types) {
    p.line();
    if ('fields' in t) printStruct(p, t);
    else printEnum(p, t);
    const impl = m.impls.find((i) => i.target === t.name);
    if (impl) {
      p.line();
      p.open(`impl ${impl.target}`);
      for (const c of impl.consts) {
        p.doc(c.doc);
        p.line(`pub const ${c.name}: ${c.type} = ${c.value};`);
      }
      for (const f of impl.fns) printFn(p, f);
      p.close();
    }
  }
  for (const e of m.events) {
    p.line();
    printStruct(p, e);
  }
  p.line();
  p.line('#[error_code]');
  p.open(`pub enum ${m.errors.name}`);
  for (const v of m.errors.variants) {
    p.line(`#[msg("${v.msg}")]`);
    p.line(`${v.name},`);
  }
  p.close();
  return p.toString();
}

// ------------------------------------------------------------ Borsh sizes

/** Borsh-serialised byte size of a fixed-size type; `vecLen` gives the element count of each Vec by field name. */
export function borshSize(
  t: RustType,
  lookup: (name: string) => StructItem | EnumItem | undefined,
  vecLen: (field: string) => number = () => 0,
  field = '',
): number {
  switch (t.kind) {
    case 'prim':
      return { u8: 1, u16: 2, u32: 4, u64: 8, u128: 16, i64: 8, bool: 1, Pubkey: 32, String: 4 }[t.name];
    case 'option':
      return 1 + borshSize(t.of, lookup, vecLen, field);
    case 'vec':
      return 4 + vecLen(field) * borshSize(t.of, lookup, vecLen, field);
    case 'defined': {
      const d = lookup(t.name);
      if (!d) throw new Error(`unknown type ${t.name}`);
      if ('variants' in d) return 1; // unit-only enums
      return d.fields.reduce((n, f) => n + borshSize(f.type, lookup, vecLen, f.name), 0);
    }
  }
}

/**
 * A small model of a Solidity source unit (interfaces, a contract with its
 * state variables, errors, events, modifiers, constructor and functions) and
 * a printer for it. Generated contracts are assembled as data and printed
 * here; no whole file is built by string concatenation.
 */

export type Visibility = 'external' | 'public' | 'internal' | 'private';
export type Mutability = 'view' | 'pure' | 'payable';
export type DataLocation = 'memory' | 'calldata' | 'storage';

export interface SolParam {
  type: string;
  name?: string;
  location?: DataLocation;
  indexed?: boolean;
}

export interface NatSpec {
  notice?: string;
  dev?: string;
  params?: Record<string, string>;
  returns?: string[];
}

/** A statement: a line (without its trailing semicolon for plain statements), or a block. */
export type Stmt = string | Block;

export interface Block {
  /** e.g. `if (x)`, `for (uint256 i; i < n; ++i)`, `unchecked`. */
  head: string;
  body: Stmt[];
  /** Statements of an `else` branch. */
  else?: Stmt[];
  /** Statements of the `catch` clause of a `try` block. */
  catch?: Stmt[];
}

export interface StateVariable {
  type: string;
  name: string;
  visibility: 'public' | 'internal' | 'private';
  mutability?: 'constant' | 'immutable';
  value?: string;
  doc?: string;
}

export interface EventDef {
  name: string;
  params: SolParam[];
  doc: string;
}

export interface ErrorDef {
  name: string;
  params: SolParam[];
  doc: string;
}

export interface ModifierDef {
  name: string;
  params: SolParam[];
  /** Statements; `_;` marks where the function body runs. */
  body: Stmt[];
  doc: string;
}

export interface StructDef {
  name: string;
  fields: Array<{ type: string; name: string }>;
  doc: string;
}

export interface FunctionDef {
  kind: 'function' | 'constructor' | 'receive';
  name?: string;
  params: SolParam[];
  returns?: SolParam[];
  visibility: Visibility;
  mutability?: Mutability;
  modifiers?: string[];
  body: Stmt[];
  natspec?: NatSpec;
}

export interface InterfaceDef {
  name: string;
  doc: string;
  functions: FunctionDef[];
}

export interface ContractDef {
  name: string;
  natspec: NatSpec & { title?: string };
  structs: StructDef[];
  constants: StateVariable[];
  state: StateVariable[];
  errors: ErrorDef[];
  events: EventDef[];
  modifiers: ModifierDef[];
  ctor?: FunctionDef;
  functions: FunctionDef[];
}

export interface SourceUnit {
  license: string;
  /** Exact compiler version, e.g. `0.8.37`: the pragma is pinned. */
  solidityVersion: string;
  interfaces: InterfaceDef[];
  contract: ContractDef;
}

const IND = '    ';

function param(p: SolParam): string {
  const parts = [p.type];
  if (p.indexed) parts.push('indexed');
  if (p.location) parts.push(p.location);
  if (p.name) parts.push(p.name);
  return parts.join(' ');
}

function params(ps: SolParam[]): string {
  return ps.map(param).join(', ');
}

function docLines(indent: string, natspec: NatSpec & { title?: string }): string[] {
  const out: string[] = [];
  if ('title' in natspec && natspec.title) out.push(`${indent}/// @title ${natspec.title}`);
  if (natspec.notice) out.push(`${indent}/// @notice ${natspec.notice}`);
  if (natspec.dev) out.push(`${indent}/// @dev ${natspec.dev}`);
  for (const [name, text] of Object.entries(natspec.params ?? {})) out.push(`${indent}/// @param ${name} ${text}`);
  for (const text of natspec.returns ?? []) out.push(`${indent}/// @return ${text}`);
  return out;
}

function stmts(indent: string, body: Stmt[]): string[] {
  const out: string[] = [];
  for (const s of body) {
    if (typeof s === 'string') {
      const plain = s === '_' ? '_;' : /[;}]$/.test(s) ? s : `${s};`;
      out.push(`${indent}${plain}`);
      continue;
    }
    out.push(`${indent}${s.head} {`);
    out.push(...stmts(indent + IND, s.body));
    if (s.else) {
      out.push(`${indent}} else {`);
      out.push(...stmts(indent + IND, s.else));
    }
    if (s.catch) {
      out.push(`${indent}} catch {`);
      out.push(...stmts(indent + IND, s.catch));
    }
    out.push(`${indent}}`);
  }
  return out;
}

function signature(f: FunctionDef): string {
  const head = f.kind === 'constructor' ? 'constructor' : f.kind === 'receive' ? 'receive' : `function ${f.name ?? ''}`;
  const parts = [`${head}(${params(f.params)})`];
  if (f.kind !== 'constructor') parts.push(f.visibility);
  if (f.mutability) parts.push(f.mutability);
  for (const m of f.modifiers ?? []) parts.push(m);
  if (f.returns && f.returns.length > 0) parts.push(`returns (${params(f.returns)})`);
  return parts.join(' ');
}

/** Checks the rules every generated contract follows; throws on a violation (a generator bug). */
export function checkModel(unit: SourceUnit): void {
  if (!/^\d+\.\d+\.\d+$/.test(unit.solidityVersion))
    throw new Error(`pragma must be pinned, got ${unit.solidityVersion}`);
  const c = unit.contract;
  const names = new Set<string>();
  for (const f of c.functions) {
    if (f.kind !== 'function') continue;
    if ((f.visibility === 'external' || f.visibility === 'public') && !f.natspec?.notice) {
      throw new Error(`external function ${f.name} lacks NatSpec`);
    }
    const key = `${f.name}(${f.params.map((p) => p.type).join(',')})`;
    if (names.has(key)) throw new Error(`duplicate function ${key}`);
    names.add(key);
  }
}

function printFunction(f: FunctionDef, indent: string): string[] {
  const out: string[] = [];
  if (f.natspec) out.push(...docLines(indent, f.natspec));
  out.push(`${indent}${signature(f)} {`);
  out.push(...stmts(indent + IND, f.body));
  out.push(`${indent}}`);
  return out;
}

function printInterface(i: InterfaceDef): string[] {
  const out = [`/// @notice ${i.doc}`, `interface ${i.name} {`];
  for (const f of i.functions) out.push(`${IND}${signature(f)};`);
  out.push('}');
  return out;
}

function stateVar(v: StateVariable): string {
  const parts = [v.type, v.visibility];
  if (v.mutability) parts.push(v.mutability);
  parts.push(v.name);
  return `${parts.join(' ')}${v.value !== undefined ? ` = ${v.value}` : ''};`;
}

function section(out: string[], lines: string[]): void {
  if (lines.length === 0) return;
  if (out.length > 0 && out[out.length - 1] !== '') out.push('');
  out.push(...lines);
}

/** Prints a source unit as Solidity. */
export function printSource(unit: SourceUnit): string {
  checkModel(unit);
  const c = unit.contract;
  const out: string[] = [`// SPDX-License-Identifier: ${unit.license}`, `pragma solidity ${unit.solidityVersion};`, ''];
  for (const i of unit.interfaces) {
    out.push(...printInterface(i), '');
  }
  out.push(...docLines('', c.natspec), `contract ${c.name} {`);
  const body: string[] = [];
  for (const s of c.structs) {
    section(body, [
      `${IND}/// @notice ${s.doc}`,
      `${IND}struct ${s.name} {`,
      ...s.fields.map((f) => `${IND}${IND}${f.type} ${f.name};`),
      `${IND}}`,
    ]);
  }
  const vars = (vs: StateVariable[]) =>
    vs.flatMap((v) => [...(v.doc ? [`${IND}/// @notice ${v.doc}`] : []), `${IND}${stateVar(v)}`]);
  section(body, vars(c.constants));
  section(body, vars(c.state));
  section(
    body,
    c.errors.flatMap((e) => [`${IND}/// @notice ${e.doc}`, `${IND}error ${e.name}(${params(e.params)});`]),
  );
  section(
    body,
    c.events.flatMap((e) => [`${IND}/// @notice ${e.doc}`, `${IND}event ${e.name}(${params(e.params)});`]),
  );
  for (const m of c.modifiers) {
    section(body, [
      `${IND}/// @notice ${m.doc}`,
      `${IND}modifier ${m.name}(${params(m.params)}) {`,
      ...stmts(IND + IND, m.body),
      `${IND}}`,
    ]);
  }
  if (c.ctor) section(body, printFunction(c.ctor, IND));
  for (const f of c.functions) section(body, printFunction(f, IND));
  out.push(...body, '}', '');
  return out.join('\n');
}

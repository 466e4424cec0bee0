/**
 * Parses Rust with tree-sitter (web-tree-sitter + the tree-sitter-rust
 * grammar, loaded once from node_modules; nothing is downloaded) and extracts
 * what the Anchor checks need: the #[program] module's instructions, the
 * #[derive(Accounts)] structs with their #[account(...)] constraints, data
 * structs and enums, and declare_id!.
 */
import { createRequire } from 'node:module';
import type { Node, Parser } from 'web-tree-sitter';
import { ApiError } from '../../core/errors.js';

/** Longest Rust source read from a client (the generated programs are about 33 kB). */
export const MAX_RUST_SOURCE = 200_000;
/** Deepest nesting of brackets, or of generic angle brackets, accepted in a client's Rust source. */
export const MAX_RUST_NESTING = 64;

/**
 * Refuses Rust source that is too long or nested too deeply, before any
 * parser or regular expression sees it. One linear pass over the text:
 * `( [ {` and generic `<` (one that follows a name or `::`) open a level,
 * their closers close it; text in comments and string literals is skipped.
 * A generic level cannot outlive a `;`, `{` or `}`, so comparisons written
 * without spaces (`a<b`) cannot pile up across statements.
 */
export function assertRustShape(
  source: string,
  field = 'contractCode',
  limits: { maxLength?: number; maxNesting?: number } = {},
): void {
  const maxLength = limits.maxLength ?? MAX_RUST_SOURCE;
  const maxNesting = limits.maxNesting ?? MAX_RUST_NESTING;
  if (source.length > maxLength) {
    throw ApiError.validation('Rust source too large', [
      { field, reason: `at most ${maxLength} characters (got ${source.length})` },
    ]);
  }
  let brackets = 0;
  let angles = 0;
  const tooDeep = (i: number): never => {
    const { line, column } = positionOf(source, i);
    throw ApiError.validation('Rust source nested too deeply', [
      { field, reason: `brackets or generic types nested deeper than ${maxNesting} levels`, line, column },
    ]);
  };
  const n = source.length;
  for (let i = 0; i < n; i++) {
    const skip = rustTriviaEnd(source, i);
    if (skip > i) {
      i = skip - 1;
      continue;
    }
    const c = source.charCodeAt(i);
    if (c === 40 || c === 91 || c === 123 /* ( [ { */) {
      if (c === 123) angles = 0;
      if (++brackets > maxNesting) tooDeep(i);
    } else if (c === 41 || c === 93 || c === 125 /* ) ] } */) {
      if (c === 125) angles = 0;
      if (brackets > 0) brackets--;
    } else if (c === 59 /* ; */) {
      angles = 0;
    } else if (c === 60 /* < */) {
      const next = source.charCodeAt(i + 1);
      if (next === 61 || next === 60) {
        i++; // <= and <<
        continue;
      }
      const prev = i > 0 ? source.charCodeAt(i - 1) : 0;
      if ((isNameChar(prev) || prev === 58) /* a name or :: before it */ && ++angles > maxNesting) tooDeep(i);
    } else if (c === 62 /* > */) {
      const prev = i > 0 ? source.charCodeAt(i - 1) : 0;
      if (prev !== 45 && prev !== 61 && angles > 0) angles--; // not -> or =>
    }
  }
}

/** 1-based line and column of offset `i`. */
function positionOf(source: string, i: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let j = source.indexOf('\n'); j >= 0 && j < i; j = source.indexOf('\n', j + 1)) {
    line++;
    start = j + 1;
  }
  return { line, column: i - start + 1 };
}

/**
 * If a comment, a string literal or a char literal starts at `i`, the offset
 * just after it (to the end of the text when it is not closed); else `i`.
 * Lifetimes (`'info`) are not literals. Shared by every scanner of client
 * Rust so that they all skip the same text.
 */
export function rustTriviaEnd(source: string, i: number): number {
  const c = source.charCodeAt(i);
  const n = source.length;
  if (c === 47 /* / */) {
    const d = source.charCodeAt(i + 1);
    if (d === 47) {
      const end = source.indexOf('\n', i + 2);
      return end < 0 ? n : end;
    }
    if (d === 42 /* * */) {
      const end = source.indexOf('*/', i + 2);
      return end < 0 ? n : end + 2;
    }
    return i;
  }
  if (c === 34 /* " */) {
    for (let j = i + 1; j < n; j++) {
      const d = source.charCodeAt(j);
      if (d === 92 /* backslash */) j++;
      else if (d === 34) return j + 1;
    }
    return n;
  }
  if (c === 39 /* ' */) {
    if (source.charCodeAt(i + 1) === 92) {
      // '\n', '\'', '\u{1F600}': up to the next quote, a few characters on
      const end = source.indexOf("'", i + 3);
      return end > 0 && end - i <= 12 ? end + 1 : i;
    }
    if (source.charCodeAt(i + 2) === 39) return i + 3; // 'a'
    const cp = source.codePointAt(i + 1) ?? 0;
    if (cp > 0xffff && source.charCodeAt(i + 3) === 39) return i + 4; // an astral char
  }
  return i;
}

function isNameChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

let parserPromise: Promise<Parser> | undefined;

/** The shared parser, initialised on first use. */
export function rustParser(): Promise<Parser> {
  parserPromise ??= (async () => {
    const require = createRequire(import.meta.url);
    const { Language, Parser } = await import('web-tree-sitter');
    await Parser.init();
    const language = await Language.load(require.resolve('tree-sitter-rust/tree-sitter-rust.wasm'));
    const parser = new Parser();
    parser.setLanguage(language);
    return parser;
  })();
  parserPromise.catch(() => {
    parserPromise = undefined;
  });
  return parserPromise;
}

export interface SyntaxProblem {
  kind: 'error' | 'missing';
  line: number;
  column: number;
  text: string;
}

export interface ConstraintArg {
  key: string;
  value?: string;
}

export interface ParsedField {
  name: string;
  typeText: string;
  /** For `Account<'info, X>` and the like: X. */
  inner?: string;
  wrapper: string;
  constraints: ConstraintArg[];
  docs: string[];
  line: number;
}

export interface ParsedAccountsStruct {
  name: string;
  instructionAttr?: string;
  fields: ParsedField[];
  line: number;
}

export interface ParsedInstruction {
  name: string;
  context?: string;
  args: Array<{ name: string; typeText: string }>;
  line: number;
}

export interface ParsedDataStruct {
  name: string;
  attrs: string[];
  fields: Array<{ name: string; typeText: string }>;
  line: number;
}

export interface ParsedProgram {
  syntax: SyntaxProblem[];
  programModules: Array<{ name: string; instructions: ParsedInstruction[]; line: number }>;
  accountsStructs: ParsedAccountsStruct[];
  dataStructs: ParsedDataStruct[];
  enums: Array<{ name: string; attrs: string[]; variants: string[] }>;
  declareIds: string[];
  /** `const NAME: T = value;` items of `impl X` blocks, by X. */
  implConsts: Map<string, Array<{ name: string; value: string; line: number }>>;
}

/** Splits on commas that are not nested in brackets, parentheses, braces or strings. */
export function splitTopLevel(text: string, angles = false): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = false;
  let cur = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      cur += ch;
      if (ch === '\\') cur += text[++i] ?? '';
      else if (ch === '"') quote = false;
      continue;
    }
    if (ch === '"') quote = true;
    else if ('([{'.includes(ch) || (angles && ch === '<')) depth++;
    else if (')]}'.includes(ch) || (angles && ch === '>')) depth--;
    if (ch === ',' && depth === 0) {
      if (cur.trim()) out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/** `#[name(args)]` → { name, args } (args without the parentheses). */
export function attributeParts(text: string): { name: string; args: string } {
  const inner = text
    .replace(/^#!?\[/, '')
    .replace(/\]$/, '')
    .trim();
  const open = inner.indexOf('(');
  if (open < 0) return { name: inner.trim(), args: '' };
  return { name: inner.slice(0, open).trim(), args: inner.slice(open + 1, inner.lastIndexOf(')')).trim() };
}

export function parseConstraintArgs(args: string): ConstraintArg[] {
  return splitTopLevel(args).map((part) => {
    const eq = part.search(/(?<![=!<>])=(?!=)/);
    if (eq < 0) return { key: part.replace(/\s+/g, '') };
    return { key: part.slice(0, eq).replace(/\s+/g, ''), value: part.slice(eq + 1).trim() };
  });
}

function syntaxProblems(root: Node): SyntaxProblem[] {
  const out: SyntaxProblem[] = [];
  if (!root.hasError) return out;
  // Depth-first, in source order, with an explicit stack (no recursion on the tree's depth).
  const stack: Node[] = [root];
  while (stack.length > 0 && out.length < 20) {
    const n = stack.pop()!;
    if (n.isError || n.isMissing) {
      out.push({
        kind: n.isMissing ? 'missing' : 'error',
        line: n.startPosition.row + 1,
        column: n.startPosition.column + 1,
        text: n.isMissing ? n.type : n.text.slice(0, 60),
      });
      if (n.isError) continue;
    }
    if (!n.hasError && !n.isMissing) continue;
    const children = n.children;
    for (let k = children.length - 1; k >= 0; k--) if (children[k]) stack.push(children[k]!);
  }
  return out;
}

/** `Name<params>` → { head: 'Name', params: 'params' }; undefined when the text is not of that form. */
function genericParts(compact: string): { head: string; params: string } | undefined {
  const open = compact.indexOf('<');
  if (open <= 0 || !compact.endsWith('>')) return undefined;
  const head = compact.slice(0, open);
  for (let i = 0; i < head.length; i++) {
    const c = head.charCodeAt(i);
    if (!(isNameChar(c) || c === 58) || (i === 0 && c >= 48 && c <= 57) || (i === 0 && c === 58)) return undefined;
  }
  return { head, params: compact.slice(open + 1, -1) };
}

function fieldType(typeText: string): { wrapper: string; inner?: string } {
  let compact = typeText.replace(/\s+/g, '');
  if (compact.startsWith('Box<') && compact.endsWith('>')) compact = compact.slice(4, -1);
  const m = genericParts(compact);
  if (!m) return { wrapper: compact };
  const wrapper = m.head.split('::').pop()!;
  const params = splitTopLevel(m.params, true).filter((p) => !p.startsWith("'"));
  const inner = params[0]?.replace(/<.*$/, '').split('::').pop();
  return inner ? { wrapper, inner } : { wrapper };
}

/** Walks items, attaching preceding attributes and doc comments to each. */
function itemsWithAttrs(list: Node): Array<{ node: Node; attrs: string[]; docs: string[] }> {
  const out: Array<{ node: Node; attrs: string[]; docs: string[] }> = [];
  let attrs: string[] = [];
  let docs: string[] = [];
  for (const n of list.namedChildren) {
    if (!n) continue;
    if (n.type === 'attribute_item') attrs.push(n.text);
    else if (n.type === 'line_comment' || n.type === 'block_comment') {
      if (n.text.startsWith('///')) docs.push(n.text.replace(/^\/\/\/\s?/, ''));
    } else {
      out.push({ node: n, attrs, docs });
      attrs = [];
      docs = [];
    }
  }
  return out;
}

function parseInstruction(fn: Node): ParsedInstruction {
  const params = fn.childForFieldName('parameters');
  const args: Array<{ name: string; typeText: string }> = [];
  let context: string | undefined;
  for (const p of params?.namedChildren ?? []) {
    if (p?.type !== 'parameter') continue;
    const name = p.childForFieldName('pattern')?.text ?? '';
    const typeText = p.childForFieldName('type')?.text ?? '';
    const ctx = genericParts(typeText.replace(/\s+/g, ''));
    if (ctx?.head === 'Context' && context === undefined) {
      const parts = splitTopLevel(ctx.params, true).filter((x) => !x.startsWith("'"));
      context = parts[0]?.replace(/<.*$/, '');
    } else args.push({ name, typeText: typeText.replace(/\s+/g, '') });
  }
  return {
    name: fn.childForFieldName('name')?.text ?? '',
    ...(context ? { context } : {}),
    args,
    line: fn.startPosition.row + 1,
  };
}

/** Parses an Anchor program; source that is too long or nested too deeply is refused first (ApiError VALIDATION_ERROR). */
export async function parseAnchorProgram(source: string): Promise<ParsedProgram> {
  assertRustShape(source, 'source');
  const parser = await rustParser();
  const tree = parser.parse(source);
  if (!tree) throw new Error('tree-sitter returned no tree');
  try {
    const root = tree.rootNode;
    const result: ParsedProgram = {
      syntax: syntaxProblems(root),
      programModules: [],
      accountsStructs: [],
      dataStructs: [],
      enums: [],
      declareIds: [],
      implConsts: new Map(),
    };
    for (const m of root.descendantsOfType('macro_invocation')) {
      if (m?.childForFieldName('macro')?.text !== 'declare_id') continue;
      const lit = /"([^"]*)"/.exec(m.text);
      result.declareIds.push(lit ? lit[1]! : '');
    }
    for (const { node, attrs } of itemsWithAttrs(root)) {
      const attrNames = attrs.map((a) => attributeParts(a));
      if (node.type === 'mod_item' && attrNames.some((a) => a.name === 'program')) {
        const body = node.childForFieldName('body');
        const instructions: ParsedInstruction[] = [];
        for (const { node: fn } of body ? itemsWithAttrs(body) : []) {
          if (fn.type !== 'function_item') continue;
          if (!fn.namedChildren.some((c) => c?.type === 'visibility_modifier')) continue;
          instructions.push(parseInstruction(fn));
        }
        result.programModules.push({
          name: node.childForFieldName('name')?.text ?? '',
          instructions,
          line: node.startPosition.row + 1,
        });
      } else if (node.type === 'struct_item') {
        const name = node.childForFieldName('name')?.text ?? '';
        const body = node.childForFieldName('body');
        const isAccounts = attrNames.some((a) => a.name === 'derive' && /\bAccounts\b/.test(a.args));
        if (isAccounts) {
          const fields: ParsedField[] = [];
          for (const { node: f, attrs: fa, docs: fd } of body ? itemsWithAttrs(body) : []) {
            if (f.type !== 'field_declaration') continue;
            const typeText = f.childForFieldName('type')?.text ?? '';
            const constraints = fa
              .map(attributeParts)
              .filter((a) => a.name === 'account')
              .flatMap((a) => parseConstraintArgs(a.args));
            fields.push({
              name: f.childForFieldName('name')?.text ?? '',
              typeText,
              ...fieldType(typeText),
              constraints,
              docs: fd,
              line: f.startPosition.row + 1,
            });
          }
          const ia = attrNames.find((a) => a.name === 'instruction');
          result.accountsStructs.push({
            name,
            ...(ia ? { instructionAttr: ia.args } : {}),
            fields,
            line: node.startPosition.row + 1,
          });
        } else {
          const fields: Array<{ name: string; typeText: string }> = [];
          for (const { node: f } of body ? itemsWithAttrs(body) : []) {
            if (f.type !== 'field_declaration') continue;
            fields.push({
              name: f.childForFieldName('name')?.text ?? '',
              typeText: (f.childForFieldName('type')?.text ?? '').replace(/\s+/g, ''),
            });
          }
          result.dataStructs.push({
            name,
            attrs: attrNames.map((a) => a.name + (a.args ? `(${a.args})` : '')),
            fields,
            line: node.startPosition.row + 1,
          });
        }
      } else if (node.type === 'impl_item' && !node.childForFieldName('trait')) {
        const target = node.childForFieldName('type')?.text ?? '';
        const body = node.childForFieldName('body');
        const consts = result.implConsts.get(target) ?? [];
        for (const c of body?.namedChildren ?? []) {
          if (c?.type !== 'const_item') continue;
          consts.push({
            name: c.childForFieldName('name')?.text ?? '',
            value: c.childForFieldName('value')?.text ?? '',
            line: c.startPosition.row + 1,
          });
        }
        result.implConsts.set(target, consts);
      } else if (node.type === 'enum_item') {
        const body = node.childForFieldName('body');
        const variants = (body?.namedChildren ?? [])
          .filter((c) => c?.type === 'enum_variant')
          .map((c) => c!.childForFieldName('name')?.text ?? '');
        result.enums.push({
          name: node.childForFieldName('name')?.text ?? '',
          attrs: attrNames.map((a) => a.name),
          variants,
        });
      }
    }
    return result;
  } finally {
    tree.delete();
  }
}

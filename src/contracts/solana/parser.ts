/**
 * Parses Rust with tree-sitter (web-tree-sitter + the tree-sitter-rust
 * grammar, loaded once from node_modules; nothing is downloaded) and extracts
 * what the Anchor checks need: the #[program] module's instructions, the
 * #[derive(Accounts)] structs with their #[account(...)] constraints, data
 * structs and enums, and declare_id!.
 */
import { createRequire } from 'node:module';
import { Language, Parser, type Node } from 'web-tree-sitter';

let parserPromise: Promise<Parser> | undefined;

/** The shared parser, initialised on first use. */
export function rustParser(): Promise<Parser> {
  parserPromise ??= (async () => {
    const require = createRequire(import.meta.url);
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
  const inner = text.replace(/^#!?\[/, '').replace(/\]$/, '').trim();
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
  const visit = (n: Node): void => {
    if (out.length >= 20) return;
    if (n.isError || n.isMissing) {
      out.push({
        kind: n.isMissing ? 'missing' : 'error',
        line: n.startPosition.row + 1,
        column: n.startPosition.column + 1,
        text: n.isMissing ? n.type : n.text.slice(0, 60),
      });
      if (n.isError) return;
    }
    if (!n.hasError && !n.isMissing) return;
    for (const c of n.children) if (c) visit(c);
  };
  visit(root);
  return out;
}

function fieldType(typeText: string): { wrapper: string; inner?: string } {
  let compact = typeText.replace(/\s+/g, '');
  if (compact.startsWith('Box<') && compact.endsWith('>')) compact = compact.slice(4, -1);
  const m = /^([A-Za-z_][\w:]*)<(.*)>$/.exec(compact);
  if (!m) return { wrapper: compact };
  const wrapper = m[1]!.split('::').pop()!;
  const params = splitTopLevel(m[2]!, true).filter((p) => !p.startsWith("'"));
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
    if (!p || p.type !== 'parameter') continue;
    const name = p.childForFieldName('pattern')?.text ?? '';
    const typeText = p.childForFieldName('type')?.text ?? '';
    const ctx = /^Context<(.*)>$/.exec(typeText.replace(/\s+/g, ''));
    if (ctx && context === undefined) {
      const parts = splitTopLevel(ctx[1]!, true).filter((x) => !x.startsWith("'"));
      context = parts[0]?.replace(/<.*$/, '');
    } else args.push({ name, typeText: typeText.replace(/\s+/g, '') });
  }
  return { name: fn.childForFieldName('name')?.text ?? '', ...(context ? { context } : {}), args, line: fn.startPosition.row + 1 };
}

export async function parseAnchorProgram(source: string): Promise<ParsedProgram> {
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
        result.programModules.push({ name: node.childForFieldName('name')?.text ?? '', instructions, line: node.startPosition.row + 1 });
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
          result.accountsStructs.push({ name, ...(ia ? { instructionAttr: ia.args } : {}), fields, line: node.startPosition.row + 1 });
        } else {
          const fields: Array<{ name: string; typeText: string }> = [];
          for (const { node: f } of body ? itemsWithAttrs(body) : []) {
            if (f.type !== 'field_declaration') continue;
            fields.push({ name: f.childForFieldName('name')?.text ?? '', typeText: (f.childForFieldName('type')?.text ?? '').replace(/\s+/g, '') });
          }
          result.dataStructs.push({ name, attrs: attrNames.map((a) => a.name + (a.args ? `(${a.args})` : '')), fields, line: node.startPosition.row + 1 });
        }
      } else if (node.type === 'impl_item' && !node.childForFieldName('trait')) {
        const target = node.childForFieldName('type')?.text ?? '';
        const body = node.childForFieldName('body');
        const consts = result.implConsts.get(target) ?? [];
        for (const c of body?.namedChildren ?? []) {
          if (c?.type !== 'const_item') continue;
          consts.push({ name: c.childForFieldName('name')?.text ?? '', value: c.childForFieldName('value')?.text ?? '', line: c.startPosition.row + 1 });
        }
        result.implConsts.set(target, consts);
      } else if (node.type === 'enum_item') {
        const body = node.childForFieldName('body');
        const variants = (body?.namedChildren ?? []).filter((c) => c?.type === 'enum_variant').map((c) => c!.childForFieldName('name')?.text ?? '');
        result.enums.push({ name: node.childForFieldName('name')?.text ?? '', attrs: attrNames.map((a) => a.name), variants });
      }
    }
    return result;
  } finally {
    tree.delete();
  }
}

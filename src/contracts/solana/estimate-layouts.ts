/**
 * The account layouts a Solana estimate (./estimate.ts) sizes, read from the
 * program's Rust source: state structs, the types they use, the instruction
 * names, and whether SPL tokens appear. A linear token scan, no regexes.
 */
import { createHash } from 'node:crypto';
import type { EnumItem, RustType, StructItem } from './model.js';
import { rustTriviaEnd } from './parser.js';

export interface Layouts {
  state: StructItem[];
  types: Array<StructItem | EnumItem>;
  instructions: string[];
  spl: boolean;
}

/** `Vec<Option<u64>>` → the RustType; iterative, so no input can exhaust the stack (depth is bounded by assertRustShape anyway). */
function typeOfText(text: string): RustType {
  let t = text.replace(/\s+/g, '');
  const wrappers: Array<'vec' | 'option'> = [];
  for (;;) {
    const kind = t.startsWith('Vec<') ? 'vec' : t.startsWith('Option<') ? 'option' : undefined;
    if (!kind || !t.endsWith('>')) break;
    wrappers.push(kind);
    t = t.slice(kind === 'vec' ? 4 : 7, -1);
  }
  let type: RustType = PRIMITIVES.has(t)
    ? { kind: 'prim', name: t as 'u8' }
    : { kind: 'defined', name: t.split('::').pop()! };
  for (let k = wrappers.length - 1; k >= 0; k--) type = { kind: wrappers[k]!, of: type };
  return type;
}

const PRIMITIVES = new Set(['u8', 'u16', 'u32', 'u64', 'u128', 'i64', 'bool', 'Pubkey', 'String']);

/** A token of Rust source: a name (or number) or one punctuation character; comments are dropped, literals kept whole. */
interface Token {
  text: string;
  start: number;
  end: number;
}

/** One linear pass over the source. */
function tokenize(code: string): Token[] {
  const out: Token[] = [];
  const n = code.length;
  let i = 0;
  while (i < n) {
    const c = code.charCodeAt(i);
    if (c === 32 || (c >= 9 && c <= 13)) {
      i++;
      continue;
    }
    const skip = rustTriviaEnd(code, i);
    if (skip > i) {
      const ch = code[i];
      if (ch === '"' || ch === "'") out.push({ text: code.slice(i, skip), start: i, end: skip });
      i = skip;
      continue;
    }
    if (isWordChar(c)) {
      let j = i + 1;
      while (j < n && isWordChar(code.charCodeAt(j))) j++;
      out.push({ text: code.slice(i, j), start: i, end: j });
      i = j;
      continue;
    }
    out.push({ text: code[i]!, start: i, end: i + 1 });
    i++;
  }
  return out;
}

function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

const isWord = (t: Token | undefined): boolean => !!t && isWordChar(t.text.charCodeAt(0));

/** For each `{` token, the index of its matching `}` (-1 when unclosed); one pass with a stack. */
function matchBraces(tokens: Token[]): Int32Array {
  const match = new Int32Array(tokens.length).fill(-1);
  const stack: number[] = [];
  tokens.forEach((t, k) => {
    if (t.text === '{') stack.push(k);
    else if (t.text === '}' && stack.length > 0) match[stack.pop()!] = k;
  });
  return match;
}

const OPENERS = new Set(['(', '[', '{', '<']);
const CLOSERS = new Set([')', ']', '}', '>']);

/** Index of the first comma in tokens [from, to) outside brackets and generic angles; `to` when there is none. */
function nextComma(tokens: Token[], from: number, to: number): number {
  let depth = 0;
  for (let k = from; k < to; k++) {
    const t = tokens[k]!.text;
    if (OPENERS.has(t)) depth++;
    else if (CLOSERS.has(t) && depth > 0) depth--;
    else if (t === ',' && depth === 0) return k;
  }
  return to;
}

const joined = (tokens: Token[], from: number, to: number): string =>
  tokens
    .slice(from, to)
    .map((t) => t.text)
    .join('');

const layoutCache = new Map<string, Layouts>();

/** readLayouts, remembering the last few sources (generated programs repeat) by their hash. */
export function layoutsOf(source: string): Layouts {
  const key = createHash('sha256').update(source).digest('base64');
  let l = layoutCache.get(key);
  if (!l) {
    l = readLayouts(source);
    if (layoutCache.size >= 64) layoutCache.delete(layoutCache.keys().next().value!);
    layoutCache.set(key, l);
  }
  return l;
}

/**
 * A light, synchronous reading of data structs and enums (the full parse is
 * async); enough for sizes. Linear in the source: one tokenizing pass, one
 * brace-matching pass, then one walk over the tokens in which each struct's
 * body is read once more (nested bodies are bounded by the nesting limit).
 * No regular expression runs on the client's text.
 */
function readLayouts(source: string): Layouts {
  const tokens = tokenize(source);
  const match = matchBraces(tokens);
  const state: StructItem[] = [];
  const types: Array<StructItem | EnumItem> = [];
  const instructions: string[] = [];
  let spl = false;
  let attrs: string[] = [];
  const text = (k: number): string | undefined => tokens[k]?.text;
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k]!.text;
    if (t === '#' && text(k + 1) === '[') {
      // An attribute runs to its first `]` (the data attributes read here hold no nested brackets).
      let e = k + 2;
      while (e < tokens.length && tokens[e]!.text !== ']') e++;
      if (e >= tokens.length) break; // unclosed: nothing after it can be an item
      attrs.push(joined(tokens, k, e + 1));
      k = e;
      continue;
    }
    if (t === 'anchor_spl' && text(k + 1) === ':' && text(k + 2) === ':') spl = true;
    if (
      t === 'pub' &&
      text(k + 1) === 'fn' &&
      isWord(tokens[k + 2]) &&
      text(k + 3) === '(' &&
      text(k + 4) === 'ctx' &&
      text(k + 5) === ':' &&
      text(k + 6) === 'Context' &&
      text(k + 7) === '<'
    ) {
      instructions.push(text(k + 2)!);
    }
    if (t === 'pub' && (text(k + 1) === 'struct' || text(k + 1) === 'enum') && isWord(tokens[k + 2])) {
      const isEnum = text(k + 1) === 'enum';
      const name = text(k + 2)!;
      const itemAttrs = attrs;
      attrs = [];
      let open = k + 3;
      const generic = text(open) === '<';
      if (generic) {
        while (open < tokens.length && text(open) !== '>' && text(open) !== '{') open++;
        if (text(open) === '>') open++;
      }
      k = open - 1; // the walk goes on from the body (items nested in it are read too)
      if (text(open) !== '{') continue;
      const close = match[open]!;
      // Generic structs are accounts contexts; an unclosed body is no item.
      if (close < 0 || generic) continue;
      if (isEnum) {
        const variants: string[] = [];
        for (let s = open + 1; s < close; ) {
          const e = nextComma(tokens, s, close);
          if (e > s) variants.push(source.slice(tokens[s]!.start, tokens[e - 1]!.end));
          s = e + 1;
        }
        types.push({ name, doc: [], attrs: [], variants });
        continue;
      }
      const fields: StructItem['fields'] = [];
      for (let f = open + 1; f < close; f++) {
        if (text(f) !== 'pub' || !isWord(tokens[f + 1]) || text(f + 2) !== ':' || text(f + 3) === ':') continue;
        const e = nextComma(tokens, f + 3, close);
        if (e > f + 3) fields.push({ name: text(f + 1)!, type: typeOfText(joined(tokens, f + 3, e)) });
        f = e;
      }
      const item: StructItem = { name, doc: [], attrs: [], fields };
      if (itemAttrs.includes('#[account]')) state.push(item);
      else types.push(item);
      continue;
    }
    attrs = [];
  }
  return { state, types, instructions, spl };
}

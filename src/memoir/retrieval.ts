/**
 * Retrieval for the memoir agent: finds the passages (windows of two sentences, not whole entries) that answer a
 * question, from journal entries, questionnaire answers, media transcripts and captions, and the profile.
 *
 * Score of a passage = BM25 over Porter stems of the question's own words
 *   + the same for WordNet synonyms and hypernyms of those words and the intent's topic words, at lower weights
 *   + a boost when the passage belongs to a questionnaire category the question's intent names.
 * A question is answered only when the best passage covers enough of the question's specific words (weighted by
 * how rare they are in the memoir) or its intent: below that the agent says it does not know, so a question nothing
 * answers does not get a loosely related passage as its answer.
 *
 * With a provider configured, searchMemoirWithEmbeddings adds the passages' embedding similarity to the question
 * (src/memoir/embeddings.ts) to that score.
 */
import { stemmer } from 'stemmer';
import { COLLOQUIAL, GRANDPARENTS, intentsOf, KINSHIP, type Intent } from './intents.js';
import { cosine } from './embeddings.js';
import { placeParts, relatedWords } from './lexicon.js';
import { holdNames } from './names.js';
import { holdInThread } from './reading-pool.js';
import { TextCache } from './text-cache.js';
import { isStopword } from './stop-words.js';
import { type Spouse, spouseOf, spouseTexts } from './spouse.js';
import { sentences, words } from './text.js';

export type SourceKind = 'journal' | 'answer' | 'transcript' | 'caption' | 'profile';

/** A record the memoir holds, as text to search. */
export interface SourceDoc {
  /** The record's id, what an answer cites (jrn_..., qa:<questionId>, med_..., profile). */
  id: string;
  kind: SourceKind;
  text: string;
  /** Words that describe the record without being quoted: a questionnaire question, a date. */
  context?: string;
  /** The questionnaire category (answers) or "profile". */
  category?: string;
  questionId?: string;
}

export interface Passage {
  id: string;
  kind: SourceKind;
  text: string;
  score: number;
}

interface Unit {
  doc: SourceDoc;
  text: string;
  terms: ReadonlyMap<string, number>;
  context: ReadonlySet<string>;
  length: number;
}

/** Words a question uses that say nothing about its subject. */
const GENERIC = new Set(
  'tell say said remember like think thought feel felt know go went come came ever life time thing things anything something everything lot much many kind sort way day days please us me nan nana gran granny grandma grandmother story stories talk mean why how what when where who which does doe do did become became becomes happen happened happens have has had get gets getting got make makes made want wants wanted year years really'.split(
    ' ',
  ),
);

const WEIGHT = { own: 1, intent: 0.6, kinship: 1, related: 0.35, context: 0.5 } as const;
const CATEGORY_BOOST = 1.2;
const QUESTION_BOOST = 1.5;
/** Share of the question's specific words (by rarity) one of the top passages must cover. */
const MIN_COVERAGE = 0.5;
/** A passage scoring below this share of the best one is not cited: it would mix unrelated sentences in. */
const RELATIVE_FLOOR = 0.4;
const K1 = 1.2;
const B = 0.75;

/** Irregular forms Porter stemming leaves apart from their base ("grew" and "grow"). */
const IRREGULAR: Record<string, string> = {
  grew: 'grow',
  grown: 'grow',
  met: 'meet',
  taught: 'teach',
  wrote: 'write',
  written: 'write',
  sang: 'sing',
  sung: 'sing',
  built: 'build',
  ate: 'eat',
  eaten: 'eat',
  swam: 'swim',
  kept: 'keep',
  left: 'leave',
  fought: 'fight',
  bought: 'buy',
  thought: 'think',
  died: 'die',
  children: 'child',
  wed: 'wedding',
  married: 'marry',
  // The commonest irregular verbs of a life story: "I sold the bakery" answers "Why did you sell it?".
  sold: 'sell',
  paid: 'pay',
  told: 'tell',
  found: 'find',
  lost: 'lose',
  gave: 'give',
  given: 'give',
  took: 'take',
  taken: 'take',
  brought: 'bring',
  caught: 'catch',
  began: 'begin',
  begun: 'begin',
  wore: 'wear',
  worn: 'wear',
  drove: 'drive',
  driven: 'drive',
  flew: 'fly',
  flown: 'fly',
  spoke: 'speak',
  spoken: 'speak',
  broke: 'break',
  broken: 'break',
  chose: 'choose',
  chosen: 'choose',
  fell: 'fall',
  fallen: 'fall',
  held: 'hold',
  heard: 'hear',
  lent: 'lend',
  sent: 'send',
  spent: 'spend',
  stood: 'stand',
  won: 'win',
  woke: 'wake',
  woken: 'wake',
  rode: 'ride',
  ridden: 'ride',
  stole: 'steal',
  stolen: 'steal',
  knew: 'know',
  known: 'know',
  drew: 'draw',
  drawn: 'draw',
  threw: 'throw',
  thrown: 'throw',
  led: 'lead',
  fed: 'feed',
  slept: 'sleep',
  wept: 'weep',
  sat: 'sit',
  hid: 'hide',
  hidden: 'hide',
  forgot: 'forget',
  forgotten: 'forget',
  forgave: 'forgive',
  forgiven: 'forgive',
  dug: 'dig',
  shook: 'shake',
  drank: 'drink',
  drunk: 'drink',
  sank: 'sink',
  rang: 'ring',
  understood: 'understand',
};

/**
 * A word's stem, its accents left out: a memoir writes "Vovó", "São Miguel", "Fátima", and a grandchild types "Vovo"
 * on an English keyboard.
 */
export const stemOf = (w: string): string => {
  const lower = w.toLowerCase().replace(/'/g, '').normalize('NFD').replace(/\p{M}/gu, '');
  return stemmer(IRREGULAR[lower] ?? lower);
};

function termsOf(text: string): string[] {
  return words(text)
    .filter((w) => w.length > 1 && !isStopword(w))
    .map(stemOf);
}

/** Two-sentence windows, one sentence apart; a short record is one passage. */
function windowsOf(text: string): string[] {
  const all = sentences(text);
  if (all.length <= 2) return [all.join(' ')];
  const out: string[] = [];
  for (let i = 0; i + 1 < all.length; i++) out.push(`${all[i]} ${all[i + 1]}`);
  return out;
}

/** A text's passages with their terms: what a search reads of it, whatever the question (never changed once made). */
export type Windows = ReadonlyArray<{ text: string; terms: ReadonlyMap<string, number>; length: number }>;

/**
 * Texts' passages and context terms, kept by text (./text-cache.ts): a chat searches every record of the memoir at
 * each question, and splitting and stemming them all again was most of a search (some 50 ms of the main thread for
 * 200 long entries, at every message). Contexts are short (a questionnaire's question, a date).
 */
export const keptPassages = new TextCache<Windows>(2_000_000);
const contexts = new TextCache<ReadonlySet<string>>(200_000);
let searchReadings = 0;

/** How many texts a search split and stemmed in this thread (not kept, not prepared): for tests of the cache. */
export function searchTextReadings(): number {
  return searchReadings;
}

/**
 * Before a search of `docs`: what it reads of their texts and not kept yet (passages and stems, and the names
 * `spouseName` reads), read in the memoir's reading thread (./reading-pool.ts) and held kept until the function it
 * resolves with is called (in a `finally`), so that the search itself, synchronous, holds this thread only for the
 * scoring.
 */
export async function holdSearch(docs: readonly SourceDoc[]): Promise<() => void> {
  const releaseNames = await holdNames(spouseTexts(docs));
  try {
    const releasePassages = await holdInThread<Windows>(
      'windows',
      keptPassages,
      docs.map((d) => d.text),
    );
    return () => {
      releaseNames();
      releasePassages();
    };
  } catch (err) {
    releaseNames();
    throw err;
  }
}

/** A text's passages with their terms: made by the reading thread for `holdSearch`, or here for a text not prepared. */
export function windowsWithTerms(text: string): Windows {
  return windowsOf(text).map((window) => {
    const terms = new Map<string, number>();
    const list = termsOf(window);
    for (const t of list) terms.set(t, (terms.get(t) ?? 0) + 1);
    return { text: window, terms, length: list.length };
  });
}

function unitsOf(docs: readonly SourceDoc[]): Unit[] {
  return docs.flatMap((doc) => {
    const context = contexts.remember(doc.context ?? '', () => new Set(termsOf(doc.context ?? '')));
    const windows = keptPassages.remember(doc.text, () => {
      searchReadings++;
      return windowsWithTerms(doc.text);
    });
    return windows.map((w) => ({ doc, ...w, context }));
  });
}

interface QueryTerm {
  stem: string;
  weight: number;
  own: boolean;
}

/** WordNet knows base forms: try the word, then without a plural or past ending. */
function baseForms(w: string): string[] {
  const out = [w];
  if (w.endsWith('ies')) out.push(`${w.slice(0, -3)}y`);
  else if (w.endsWith('s') && !w.endsWith('ss')) out.push(w.slice(0, -1));
  if (w.endsWith('ed')) out.push(w.slice(0, -2), w.slice(0, -1));
  return out;
}

/**
 * A question word's WordNet relations: a dozen synonyms and hypernyms at most, and every part of a named place (all of
 * Italy's some sixty regions, cities and rivers: a dozen of them would leave out Rome).
 */
function related(w: string, all: string[], at: number): { words: string[]; parts: string[] } {
  const lemmas = [...phrasalLemmas(w, all[at + 1]), ...baseForms(w)];
  const single = (x: string) => !x.includes('_');
  for (const lemma of lemmas) {
    const words = relatedWords(lemma).filter(single).slice(0, 12);
    const parts = placeParts(lemma).filter(single);
    if (words.length || parts.length) return { words, parts };
  }
  return { words: [], parts: [] };
}

/** Particles that make a phrasal verb with the verb before them ("split up", "pass away", "find out"). */
const PARTICLES = new Set(['up', 'out', 'off', 'back', 'away', 'down', 'over', 'along', 'on', 'in', 'around']);

/**
 * The phrasal verb a word makes with the particle after it, as WordNet writes it ("split_up", whose synonyms hold
 * "divorce"; "grew up", "growing up": "grow_up"), tried before the word alone: "Why did you split up?" is about a
 * divorce, not about splitting. None when the next word is no particle.
 */
function phrasalLemmas(w: string, next: string | undefined): string[] {
  if (!next || !PARTICLES.has(next)) return [];
  const bases = new Set([w, ...baseForms(w), IRREGULAR[w] ?? w]);
  if (w.endsWith('ing') && w.length > 5) bases.add(w.slice(0, -3)).add(`${w.slice(0, -3)}e`);
  return [...bases].map((b) => `${b}_${next}`);
}

export interface Query {
  terms: QueryTerm[];
  intents: Intent[];
  /** The stems of the question's specific words, for the coverage test. */
  own: string[];
  /** Stems of the question's words inside an intent's match ("for a living"). */
  intentStems: Set<string>;
  /**
   * Per own stem, the stems that stand for it: everyday equivalents (full credit), WordNet relations (half) and the
   * parts of a named place (half, but a place written of: Lisbon for Portugal).
   */
  alternatives: Map<string, { full: Set<string>; half: Set<string>; parts: Set<string> }>;
  /** A question about a price or a sum, answered only by a passage that names an amount. */
  amount: boolean;
}

/** Every place an intent's pattern matches the question ("Where are you from originally?" twice). */
function matchesOf(intent: Intent, question: string): string[] {
  const all = new RegExp(
    intent.pattern.source,
    intent.pattern.flags.includes('g') ? intent.pattern.flags : `${intent.pattern.flags}g`,
  );
  return Array.from(question.matchAll(all), (m) => m[0]);
}

/**
 * The question's terms and intents. A grandparent word ("Grandad", "Nana") is read as the heir's: the grandparent who
 * is not the owner is the owner's husband or wife (their name when the memoir makes it clear), and the one who is the
 * owner adds nothing to search for. Which is which follows the spouse's sex as the memoir writes it; when it does not
 * say, the owner is taken to be the grandmother.
 */
export function parseQuestion(question: string, spouse: Spouse = {}): Query {
  const all = words(question);
  const terms = new Map<string, QueryTerm>();
  const add = (w: string, weight: number, own: boolean) => {
    if (w.length < 2 || isStopword(w) || GENERIC.has(w)) return;
    const stem = stemOf(w);
    const prev = terms.get(stem);
    if (!prev || prev.weight < weight) terms.set(stem, { stem, weight, own: own || Boolean(prev?.own) });
  };
  const spouseIs = spouse.sex === 'female' ? 'grandmother' : 'grandfather';
  const intents = intentsOf(question);
  // The words of an intent's phrase ("living" in "for a living") name the topic more than they are searched for.
  const phrase = new Set(
    intents.flatMap((i) => matchesOf(i, question).flatMap((m) => (m.includes(' ') ? words(m) : []))),
  );
  // The question's words as written, one for one with `all`: a capital tells a name.
  const cased = question.match(/[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu) ?? [];
  const isKin = (x: string | undefined) => Boolean(x && (GRANDPARENTS[x] || KINSHIP[x]));
  // The particle of a phrasal verb WordNet knows ("away" in "pass away") is part of the verb, not a word to find.
  const particles = new Set(
    all.flatMap((w, i) => (phrasalLemmas(w, all[i + 1]).some((l) => relatedWords(l).length > 0) ? [i + 1] : [])),
  );
  for (const [i, w] of all.entries()) {
    if (particles.has(i)) continue;
    // "Grandpa Tony", "Uncle Paulo": before a name, a kinship word is a title and the name says who it is (an owner
    // married twice, or a child the heir calls uncle, is not the one the kinship word would guess).
    // It still helps rank ("Auntie Jean": the sister), but the passage need not say it.
    if (all[i - 1] !== 'your' && isKin(w) && /^\p{Lu}/u.test(cased[i + 1] ?? '') && !isKin(all[i + 1])) {
      const grandparent = GRANDPARENTS[w];
      if (grandparent === spouseIs)
        add(spouse.name?.toLowerCase() ?? (spouseIs === 'grandfather' ? 'husband' : 'wife'), WEIGHT.related, false);
      for (const k of KINSHIP[w] ?? []) add(k, WEIGHT.related, false);
      continue;
    }
    // "great-grandma": the heir's great-grandparent is the owner's parent; a great-aunt is an aunt a generation up.
    if (w === 'great' && isKin(all[i + 1])) continue;
    const grandparent = all[i - 1] === 'your' ? undefined : GRANDPARENTS[w];
    const kin = all[i - 1] === 'your' ? undefined : KINSHIP[w];
    if (grandparent && all[i - 1] === 'great') {
      add(grandparent === 'grandmother' ? 'mother' : 'father', WEIGHT.kinship, true);
    } else if (grandparent === spouseIs) {
      add(spouse.name?.toLowerCase() ?? (spouseIs === 'grandfather' ? 'husband' : 'wife'), WEIGHT.kinship, true);
    } else if (kin) {
      for (const k of kin) add(k, WEIGHT.kinship, true);
    } else if (!grandparent) {
      add(w, phrase.has(w) ? WEIGHT.intent : WEIGHT.own, true);
    }
  }
  const own = [...terms.values()].filter((t) => t.own).map((t) => t.stem);
  const alternatives = new Map<string, { full: Set<string>; half: Set<string>; parts: Set<string> }>();
  for (const [at, w] of all.entries()) {
    if (isStopword(w) || GENERIC.has(w) || w.length < 3 || particles.has(at)) continue;
    const alt = { full: new Set<string>(), half: new Set<string>(), parts: new Set<string>() };
    alternatives.set(stemOf(w), alt);
    for (const c of COLLOQUIAL[w] ?? []) {
      add(c, WEIGHT.kinship, false);
      alt.full.add(stemOf(c));
    }
    const { words: near, parts } = related(w, all, at);
    for (const r of near) {
      add(r, WEIGHT.related, false);
      alt.half.add(stemOf(r));
    }
    for (const r of parts) {
      add(r, WEIGHT.related, false);
      alt.parts.add(stemOf(r));
    }
  }
  const intentStems = new Set<string>();
  for (const i of intents) {
    for (const w of i.words) add(w, WEIGHT.intent, false);
    for (const w of matchesOf(i, question).flatMap(words)) intentStems.add(stemOf(w));
  }
  return { terms: [...terms.values()], intents, own, intentStems, alternatives, amount: ASKS_AMOUNT.test(question) };
}

function idfTable(units: readonly Unit[]): (stem: string) => number {
  const df = new Map<string, number>();
  for (const u of units) for (const t of u.terms.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const n = units.length;
  return (stem) => Math.log(1 + (n - (df.get(stem) ?? 0) + 0.5) / ((df.get(stem) ?? 0) + 0.5));
}

function boostOf(u: Unit, intents: readonly Intent[]): number {
  let boost = 0;
  for (const i of intents) {
    if (u.doc.questionId && i.questions?.includes(u.doc.questionId)) boost = Math.max(boost, QUESTION_BOOST);
    else if (u.doc.category && i.categories.includes(u.doc.category)) boost = Math.max(boost, CATEGORY_BOOST);
  }
  return boost;
}

interface Scored {
  unit: Unit;
  score: number;
  evidence: number;
}

function scoreUnits(units: readonly Unit[], q: Query): Scored[] {
  const idf = idfTable(units);
  const avg = units.reduce((s, u) => s + u.length, 0) / Math.max(1, units.length);
  return units.map((unit) => {
    let score = 0;
    for (const t of q.terms) {
      const tf = unit.terms.get(t.stem) ?? 0;
      if (tf > 0) score += t.weight * idf(t.stem) * ((tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * unit.length) / avg)));
      else if (unit.context.has(t.stem)) score += t.weight * WEIGHT.context * idf(t.stem);
    }
    const evidence = score;
    // A question that is all its intent ("Is there anything you still want to do?") is answered by the questionnaire's
    // answer to the question the intent names, whatever its words.
    const named =
      q.own.every((s) => q.intentStems.has(s)) &&
      q.intents.some((i) => unit.doc.questionId && i.questions?.includes(unit.doc.questionId));
    return { unit, score: score > 0 || named ? score + boostOf(unit, q.intents) : 0, evidence };
  });
}

/**
 * A question about a price or a sum ("How much did you sell the house for?", "What did the car cost?") is answered only
 * by a passage that names an amount of money: one that tells of the sale without the price does not answer it.
 */
const ASKS_AMOUNT =
  /\bhow much\b.*\b(cost|costs|pay|paid|sell|sold|buy|bought|charge|charged|price|worth|earn|earned|spend|spent|rent|owe|owed|for)\b|\bwhat did\b.*\bcost\b|\b(price|salary|wage|wages)\b.*\?/i;
const AMOUNT =
  /[$£€¥]\s?\d|\b(dollars?|bucks|cents|pounds|quid|euros?|shillings?|pence|francs?|marks|escudos?|lire|pesos?|rupees?|grand)\b|\b\d[\d,.]*\s?(k|m)\b/i;

/** The words of a question about a price that an amount in a passage answers. */
const PRICE_STEMS = new Set(
  ['cost', 'price', 'pay', 'paid', 'worth', 'charg', 'spend', 'spent', 'earn'].map((w) => stemOf(w)),
);

/** Whether a passage is of the question's intent: its questionnaire category, or one of the intent's words. */
function onTopicOf(u: Unit, q: Query): boolean {
  return boostOf(u, q.intents) > 0 || q.intents.some((i) => i.words.some((w) => u.terms.has(stemOf(w))));
}

/** Share of the question's own specific words, weighted by rarity, that the passage (or its context) holds. */
function coverage(u: Unit, q: Query, idf: (s: string) => number): number {
  // A question all of whose words are its intent's ("Where are you from?") is covered by a passage on that intent.
  if (q.own.length === 0) return q.intents.length > 0 && onTopicOf(u, q) ? 1 : 0;
  // "What did the car cost?" is covered by "we bought the car for $900": the amount is the cost.
  const priced = q.amount && AMOUNT.test(u.text);
  // A word that only names the intent ("living" in "for a living") is covered by a passage of that intent.
  const onTopic = onTopicOf(u, q);
  const has = (x: string) => u.terms.has(x) || u.context.has(x) || (priced && PRICE_STEMS.has(x));
  let total = 0;
  let hit = 0;
  let whole = false;
  for (const s of q.own) {
    total += idf(s);
    const alt = q.alternatives.get(s);
    if (has(s) || (onTopic && q.intentStems.has(s)) || (alt && [...alt.full].some(has))) {
      hit += idf(s);
      whole = true;
    } else if (alt && [...alt.parts].some(has)) {
      hit += idf(s) / 2;
      whole = true;
    } else if (alt && [...alt.half].some(has)) hit += idf(s) / 2;
  }
  // A related word alone does not answer a question of one word: "What is your password?" is not answered by "a man
  // who kept his word" (a place within the one asked of does: "Did you ever go to Portugal?", "Lisbon").
  return !whole && q.own.length === 1 ? 0 : hit / total;
}

export interface Retrieval {
  passages: Passage[];
  /** The best passage's score and whether it passed the threshold (false: the agent does not know). */
  answered: boolean;
}

/** The passages of the best-scored units, one per record, none below RELATIVE_FLOOR of the best, at most `limit`. */
function passagesOf(scored: ReadonlyArray<{ unit: Unit; score: number }>, limit: number): Passage[] {
  const best = scored[0];
  if (!best) return [];
  const seen = new Set<string>();
  const passages: Passage[] = [];
  for (const s of scored) {
    if (seen.has(s.unit.doc.id) || s.score < best.score * RELATIVE_FLOOR) continue;
    seen.add(s.unit.doc.id);
    passages.push({
      id: s.unit.doc.id,
      kind: s.unit.doc.kind,
      text: s.unit.text,
      score: Math.round(s.score * 1000) / 1000,
    });
    if (passages.length >= limit) break;
  }
  return passages;
}

/** The lexical scoring of every passage, best first, and whether one of the top ones covers the question. */
function lexical(docs: readonly SourceDoc[], question: string) {
  const units = unitsOf(docs);
  const q = parseQuestion(question, spouseOf(docs));
  const scored = scoreUnits(units, q).sort((a, b) => b.score - a.score);
  const idf = idfTable(units);
  const answered = scored
    .slice(0, 3)
    .some((s) => s.score > 0 && coverage(s.unit, q, idf) >= MIN_COVERAGE && (!q.amount || AMOUNT.test(s.unit.text)));
  return { units, scored, answered };
}

/** The passages that answer `question`, best first, one per record, at most `limit`; none below the threshold. */
export function searchMemoir(docs: readonly SourceDoc[], question: string, limit = 3): Retrieval {
  const { scored, answered } = lexical(docs, question);
  if (!answered) return { passages: [], answered: false };
  return {
    passages: passagesOf(
      scored.filter((s) => s.score > 0),
      limit,
    ),
    answered: true,
  };
}

/** How the lexical and the embedding scores are combined (each scaled to 0..1 first). */
export const SEMANTIC = {
  /** Share of the combined score that is lexical; the rest is the embedding similarity. */
  lexicalShare: 0.6,
  /** Cosine similarity at or below which a passage gets no semantic credit. */
  floor: 0.2,
  /**
   * Cosine similarity from which a passage answers the question even when its words do not cover it (a paraphrase).
   * High on purpose: below it, a question the lexical test finds unanswered stays unanswered.
   */
  answer: 0.8,
} as const;

/**
 * searchMemoir with embeddings: every passage and the question are embedded (`embed` caches them), and a passage's
 * score is its lexical score (scaled by the best one) combined with its cosine similarity to the question (above a
 * floor). The question counts as answered when the lexical test says so or a passage is very close in meaning.
 */
export async function searchMemoirWithEmbeddings(
  docs: readonly SourceDoc[],
  question: string,
  embed: (texts: readonly string[]) => Promise<number[][]>,
  limit = 3,
): Promise<Retrieval> {
  const { units, scored, answered } = lexical(docs, question);
  if (units.length === 0) return { passages: [], answered: false };
  const vectors = await embed([question, ...units.map((u) => u.text)]);
  const [qv, ...uv] = vectors as [number[], ...number[][]];
  const similarity = new Map(units.map((u, i) => [u, cosine(qv, uv[i]!)]));
  const bestLexical = scored[0]?.score ?? 0;
  const semantic = (u: Unit) => Math.max(0, (similarity.get(u)! - SEMANTIC.floor) / (1 - SEMANTIC.floor));
  const combined = scored
    .map((s) => ({
      unit: s.unit,
      score:
        SEMANTIC.lexicalShare * (bestLexical > 0 ? s.score / bestLexical : 0) +
        (1 - SEMANTIC.lexicalShare) * semantic(s.unit),
    }))
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score);
  const close = Math.max(...similarity.values()) >= SEMANTIC.answer;
  if (!answered && !close) return { passages: [], answered: false };
  return { passages: passagesOf(combined, limit), answered: true };
}

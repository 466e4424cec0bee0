/**
 * Deterministic reading of a person's own words: names of people and places
 * (read by a language library, src/memoir/names.ts), traits and values from
 * small lexicons, recurring phrases, themes and style. The lexicons are short
 * and domain-specific (a life story), so the rules stay predictable and testable.
 */
import { namesIn } from './names.js';
import { stopWords } from './stop-words.js';
import { contentWords, sentences, words } from './words.js';

export interface Mention {
  name: string;
  count: number;
  /** For a person: how the writer is related to them, when the text says ("sister"). */
  relation?: string;
}

function tally(map: Map<string, number>, key: string, by = 1): void {
  map.set(key, (map.get(key) ?? 0) + by);
}

/**
 * Names in the reader's order (localeCompare), and in code-unit order where it sees two different strings as equal
 * (canonically equivalent accents), so a ranking never depends on the order names were counted in.
 */
function byName(a: string, b: string): number {
  return a.localeCompare(b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** The `limit` most frequent names, most frequent first, ties by name. */
export function ranked(map: ReadonlyMap<string, number>, limit: number): Mention[] {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1] || byName(a[0], b[0]))
    .slice(0, limit)
    .map(([name, count]) => ({ name, count }));
}

/** Places named in one text (src/memoir/names.ts), as often as they are named. */
export function placesIn(text: string): string[] {
  return namesIn(text).places;
}

/** People named in one text: names, and kin without a name as "my mother". */
export function peopleIn(text: string): string[] {
  return namesIn(text).people;
}

/** Named kin of one text, counted per name and relation (key: name, "|", the relation). */
export function relationCountsOf(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const k of namesIn(text).kin) tally(counts, `${k.name}|${k.relation}`);
  return counts;
}

/** The ranked people with the relation each is named with most (ties: the first by name), where the texts give one. */
export function withRelations(people: Mention[], relations: ReadonlyMap<string, number>): Mention[] {
  const best = new Map<string, { relation: string; count: number }>();
  for (const [key, count] of relations) {
    const [name, relation] = key.split('|') as [string, string];
    const had = best.get(name);
    if (!had || count > had.count || (count === had.count && relation < had.relation))
      best.set(name, { relation, count });
  }
  return people.map((p) => {
    const r = best.get(p.name);
    return r ? { ...p, relation: r.relation } : p;
  });
}

/** How many entries each ranked list of the character model keeps. */
export const RANK_LIMITS = { traits: 8, values: 8, themes: 12, people: 10, places: 10, phrases: 10 } as const;

/** Counts already made of other texts (the stored character counts), that a ranking adds `texts` to. */
export interface CountedBefore {
  people?: ReadonlyMap<string, number>;
  relations?: ReadonlyMap<string, number>;
  places?: ReadonlyMap<string, number>;
  themes?: ReadonlyMap<string, number>;
}

export function topPeople(
  texts: readonly string[],
  limit: number = RANK_LIMITS.people,
  before: CountedBefore = {},
): Mention[] {
  const map = new Map(before.people);
  const relations = new Map(before.relations);
  for (const t of texts) {
    for (const p of peopleIn(t)) tally(map, p);
    for (const [k, n] of relationCountsOf(t)) tally(relations, k, n);
  }
  return withRelations(ranked(map, limit), relations);
}

export function topPlaces(
  texts: readonly string[],
  limit: number = RANK_LIMITS.places,
  before: CountedBefore = {},
): Mention[] {
  const map = new Map(before.places);
  for (const t of texts) for (const p of placesIn(t)) tally(map, p);
  return ranked(map, limit);
}

/** Trait → the word stems that show it. */
const TRAITS: Record<string, string[]> = {
  grateful: ['grateful', 'thankful', 'blessed', 'gratitude'],
  curious: ['curious', 'wonder', 'learn', 'learned', 'learning', 'question'],
  hardworking: ['worked hard', 'hard work', 'work hard', 'diligent', 'long hours'],
  generous: ['generous', 'gave', 'give', 'giving', 'share', 'shared', 'helped'],
  patient: ['patient', 'patience', 'waited', 'calm'],
  humorous: ['laugh', 'laughed', 'joke', 'funny', 'humor', 'humour'],
  adventurous: ['adventure', 'travel', 'travelled', 'traveled', 'explore', 'journey'],
  caring: ['care', 'cared', 'caring', 'looked after', 'love', 'loved'],
  resilient: ['survived', 'overcame', 'kept going', 'never gave up', 'hard times', 'struggle'],
  devout: ['pray', 'prayed', 'prayer', 'faith', 'church', 'mosque', 'temple', 'synagogue'],
  practical: ['fixed', 'built', 'repair', 'saved money', 'garden'],
  reflective: ['remember', 'think back', 'looking back', 'wonder', 'realise', 'realize'],
};

/** Value → the words that show it. */
const VALUES: Record<string, string[]> = {
  family: ['family', 'children', 'kids', 'grandchildren', 'parents'],
  faith: ['faith', 'god', 'prayer', 'church', 'belief'],
  honesty: ['honest', 'honesty', 'truth', 'lie', 'lied'],
  education: ['school', 'education', 'study', 'books', 'read', 'university', 'college'],
  'hard work': ['hard work', 'worked hard', 'work hard', 'effort'],
  kindness: ['kind', 'kindness', 'helped', 'help others'],
  community: ['community', 'neighbours', 'neighbors', 'village', 'volunteer'],
  tradition: ['tradition', 'traditions', 'heritage', 'customs'],
  freedom: ['freedom', 'free', 'independence'],
  health: ['health', 'healthy', 'exercise'],
  thrift: ['save', 'saved', 'savings', 'thrift', 'waste'],
};

/** Theme → words, for insights and topics. */
const THEMES: Record<string, string[]> = {
  family: [
    'mother',
    'father',
    'mom',
    'dad',
    'family',
    'children',
    'son',
    'daughter',
    'brother',
    'sister',
    'wife',
    'husband',
    'grandchildren',
  ],
  work: ['work', 'job', 'career', 'office', 'boss', 'business', 'farm', 'factory', 'colleagues'],
  childhood: ['childhood', 'child', 'kid', 'school', 'played', 'young', 'boy', 'girl'],
  faith: ['faith', 'god', 'pray', 'church', 'mosque', 'temple', 'believe'],
  travel: ['travel', 'trip', 'journey', 'abroad', 'flew', 'train', 'visited'],
  love: ['love', 'loved', 'married', 'wedding', 'romance'],
  loss: ['died', 'death', 'funeral', 'lost', 'grief', 'passed away', 'miss'],
  home: ['home', 'house', 'garden', 'kitchen', 'village', 'town'],
  food: ['cook', 'cooked', 'bread', 'meal', 'dinner', 'recipe', 'food'],
  health: ['health', 'hospital', 'doctor', 'ill', 'sick', 'recovered'],
  money: ['money', 'savings', 'paid', 'bought', 'debt', 'poor', 'rich'],
  nature: ['sea', 'river', 'mountain', 'forest', 'trees', 'fields', 'birds'],
};

/** A lexicon's cues of one word, counted from the text's word counts, and of several, searched for in its words. */
interface SplitLexicon {
  labels: Array<{ label: string; single: string[]; multi: string[] }>;
  hasMulti: boolean;
}
const splitLexicons = new WeakMap<Record<string, string[]>, SplitLexicon>();

function split(lexicon: Record<string, string[]>): SplitLexicon {
  let out = splitLexicons.get(lexicon);
  if (!out) {
    const labels = Object.entries(lexicon).map(([label, cues]) => ({
      label,
      single: cues.filter((c) => !c.includes(' ')),
      multi: cues.filter((c) => c.includes(' ')),
    }));
    out = { labels, hasMulti: labels.some((l) => l.multi.length > 0) };
    splitLexicons.set(lexicon, out);
  }
  return out;
}

/**
 * How often each label's cues occur in one text (labels with none left out): a cue of one word as often as the text
 * has that word, a cue of several as often as the words run in that order. (Each cue once searched for in the whole
 * text was most of an insights call.)
 */
function lexiconCountsOf(lexicon: Record<string, string[]>, text: string): Map<string, number> {
  const counts = new Map<string, number>();
  const { labels, hasMulti } = split(lexicon);
  const list = words(text);
  const freq = new Map<string, number>();
  for (const w of list) freq.set(w, (freq.get(w) ?? 0) + 1);
  const lower = hasMulti ? ` ${list.join(' ')} ` : '';
  for (const { label, single, multi } of labels) {
    let n = 0;
    for (const cue of single) n += freq.get(cue) ?? 0;
    for (const cue of multi) {
      let at = lower.indexOf(` ${cue} `);
      while (at !== -1) {
        n++;
        at = lower.indexOf(` ${cue} `, at + 1);
      }
    }
    if (n > 0) counts.set(label, n);
  }
  return counts;
}

function lexiconCounts(
  lexicon: Record<string, string[]>,
  texts: readonly string[],
  before?: ReadonlyMap<string, number>,
): Map<string, number> {
  const counts = new Map(before);
  for (const text of texts) for (const [label, n] of lexiconCountsOf(lexicon, text)) tally(counts, label, n);
  return counts;
}

export const traitsIn = (texts: readonly string[], limit: number = RANK_LIMITS.traits) =>
  ranked(lexiconCounts(TRAITS, texts), limit);
export const valuesIn = (texts: readonly string[], limit: number = RANK_LIMITS.values) =>
  ranked(lexiconCounts(VALUES, texts), limit);
export const themesIn = (texts: readonly string[], limit: number = RANK_LIMITS.themes, before: CountedBefore = {}) =>
  ranked(lexiconCounts(THEMES, texts, before.themes), limit);
/** The themes one text touches, ordered by weight. */
export const themesOf = (text: string) => themesIn([text]).map((t) => t.name);

/** The word sequences of 2 to 4 words within a sentence of one text that could be a phrase (each once). */
export function phrasesOf(text: string): Set<string> {
  const found = new Set<string>();
  const stops = stopWords();
  for (const s of sentences(text)) {
    const w = words(s);
    for (let n = 2; n <= 4; n++) {
      for (let i = 0; i + n <= w.length; i++) {
        const gram = w.slice(i, i + n);
        if (gram.every((g) => stops.has(g)) || (stops.has(gram[0]!) && stops.has(gram[n - 1]!))) continue;
        found.add(gram.join(' '));
      }
    }
  }
  return found;
}

/** Word sequences of 2 to 4 words, with at least one content word, found in at least two different texts. */
export function recurringPhrases(texts: readonly string[], limit: number = RANK_LIMITS.phrases): Mention[] {
  const seenIn = new Map<string, number>();
  for (const text of texts) for (const g of phrasesOf(text)) tally(seenIn, g);
  return rankPhrases(seenIn, limit);
}

/**
 * The recurring phrases, given how many texts hold each candidate phrase (see recurringPhrases): the most common
 * first, longer before shorter at equal counts, then by name; a phrase contained in one already kept with at least
 * its count is left out.
 */
export function rankPhrases(seenIn: ReadonlyMap<string, number>, limit: number = RANK_LIMITS.phrases): Mention[] {
  // The order is that of sorting every repeated phrase by (count, length, name), but only the groups of one count and
  // length that the selection reaches get sorted by name: with thousands of phrases seen twice, sorting them all by
  // name was most of the work.
  const groups = new Map<number, string[]>();
  for (const [g, c] of seenIn) {
    if (c < 2) continue;
    let n = 1;
    for (let i = g.indexOf(' '); i !== -1; i = g.indexOf(' ', i + 1)) n++;
    const key = c * 8 + n; // n is 2 to 4: descending keys are descending counts, then lengths
    const list = groups.get(key);
    if (list) list.push(g);
    else groups.set(key, [g]);
  }
  const kept: Mention[] = [];
  for (const key of [...groups.keys()].sort((a, b) => b - a)) {
    const count = Math.floor(key / 8);
    for (const g of groups.get(key)!.sort(byName)) {
      if (kept.some((k) => k.count >= count && k.name.includes(g))) continue;
      kept.push({ name: g, count });
      if (kept.length >= limit) return kept;
    }
  }
  return kept;
}

export interface Style {
  averageSentenceWords: number;
  exclamationRate: number;
  questionRate: number;
  firstPersonRate: number;
  favouriteWords: string[];
  descriptors: string[];
}

/** The counts a style is computed from; each adds up across texts. */
export interface StyleCounts {
  sentences: number;
  words: number;
  exclamations: number;
  questions: number;
  /** Words i, me, my, we, our. */
  firstPerson: number;
}

export const emptyStyleCounts = (): StyleCounts => ({
  sentences: 0,
  words: 0,
  exclamations: 0,
  questions: 0,
  firstPerson: 0,
});

const FIRST_PERSON = new Set(['i', 'me', 'my', 'we', 'our']);

/** The style counts of one text. */
export function styleCountsOf(text: string): StyleCounts {
  const all = sentences(text);
  const w = words(text);
  let firstPerson = 0;
  for (const x of w) if (FIRST_PERSON.has(x)) firstPerson++;
  return {
    sentences: all.length,
    words: w.length,
    exclamations: all.filter((s) => /[!！]$/.test(s)).length,
    questions: all.filter((s) => /[?？؟]$/.test(s)).length,
    firstPerson,
  };
}

/** How often each content word occurs in one text. */
export function wordCountsOf(text: string): Map<string, number> {
  const freq = new Map<string, number>();
  for (const w of contentWords(text)) tally(freq, w);
  return freq;
}

export function styleOf(texts: readonly string[]): Style {
  const sums = emptyStyleCounts();
  const freq = new Map<string, number>();
  for (const t of texts) {
    const c = styleCountsOf(t);
    sums.sentences += c.sentences;
    sums.words += c.words;
    sums.exclamations += c.exclamations;
    sums.questions += c.questions;
    sums.firstPerson += c.firstPerson;
    for (const [w, n] of wordCountsOf(t)) tally(freq, w, n);
  }
  return styleFrom(sums, freq);
}

/** The style, from the summed counts and content-word frequencies of every text. */
export function styleFrom(sums: StyleCounts, freq: ReadonlyMap<string, number>): Style {
  const n = Math.max(1, sums.sentences);
  const average = sums.words / n;
  const exclaim = sums.exclamations / n;
  const question = sums.questions / n;
  const first = sums.firstPerson / Math.max(1, sums.words);
  const descriptors: string[] = [];
  if (sums.sentences > 0) {
    descriptors.push(
      average < 10
        ? 'short, plain sentences'
        : average > 22
          ? 'long, flowing sentences'
          : 'sentences of moderate length',
    );
    if (exclaim > 0.15) descriptors.push('exclamatory and warm');
    if (question > 0.1) descriptors.push('asks questions');
    if (first > 0.06) descriptors.push('speaks from personal experience');
  }
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return {
    averageSentenceWords: round(average),
    exclamationRate: round(exclaim),
    questionRate: round(question),
    firstPersonRate: round(first),
    favouriteWords: ranked(freq, 10)
      .filter((m) => m.count >= 2)
      .map((m) => m.name),
    descriptors,
  };
}

/**
 * Everything one text adds to the character model, as counts that add up across texts: the model of many texts is
 * computed from the sums of theirs (src/memoir/character.ts keeps the sums, so a new entry costs its own reading,
 * not a reading of everything written before). Bump CHARACTER_COUNTS_VERSION there when any of this changes.
 */
export interface TextCounts {
  traits: Map<string, number>;
  values: Map<string, number>;
  themes: Map<string, number>;
  people: Map<string, number>;
  /** Named kin: name|relation → how often. */
  relations: Map<string, number>;
  places: Map<string, number>;
  /** Candidate phrases, each once: recurring phrases count the texts that hold them. */
  phrases: Set<string>;
  /** Content words and how often they occur (favourite words). */
  words: Map<string, number>;
  style: StyleCounts;
}

function mentionCounts(names: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const n of names) tally(counts, n);
  return counts;
}

export function textCounts(text: string): TextCounts {
  return {
    traits: lexiconCountsOf(TRAITS, text),
    values: lexiconCountsOf(VALUES, text),
    themes: lexiconCountsOf(THEMES, text),
    people: mentionCounts(peopleIn(text)),
    relations: relationCountsOf(text),
    places: mentionCounts(placesIn(text)),
    phrases: phrasesOf(text),
    words: wordCountsOf(text),
    style: styleCountsOf(text),
  };
}

/** How a mood word reads on a scale from -1 (low) to 1 (high); unknown moods are neutral. */
const MOOD_SCORES: Record<string, number> = {
  happy: 1,
  joyful: 1,
  grateful: 0.9,
  excited: 0.9,
  proud: 0.8,
  hopeful: 0.7,
  content: 0.6,
  calm: 0.5,
  peaceful: 0.5,
  nostalgic: 0.2,
  neutral: 0,
  reflective: 0.1,
  tired: -0.3,
  bored: -0.3,
  worried: -0.6,
  anxious: -0.7,
  lonely: -0.7,
  sad: -0.8,
  angry: -0.8,
  grieving: -0.9,
};

export function moodScore(mood: string | null): number | null {
  if (!mood) return null;
  const key = mood.trim().toLowerCase();
  // Own keys only: a mood named "constructor" is unknown, not Object.prototype's.
  return Object.hasOwn(MOOD_SCORES, key) ? MOOD_SCORES[key]! : 0;
}

/** A stable 32-bit hash (FNV-1a) for deterministic choices. */
export function stableHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

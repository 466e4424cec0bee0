/**
 * A memoir question, read: its own words (what a passage must hold), the words that stand for them (WordNet's synonyms
 * and hypernyms, a verb and its particle as one phrasal verb, everyday equivalents), its intents, and the family words
 * as the heir means them. src/memoir/retrieval.ts scores the memoir's passages against it.
 */
import { stemmer } from 'stemmer';
import { COLLOQUIAL, GRANDPARENTS, intentsOf, KINSHIP, type Intent } from './intents.js';
import { placesWithin, relatedWords } from './lexicon.js';
import { isStopword } from './stop-words.js';
import type { Spouse } from './spouse.js';
import { isUnspacedWord, words, wordsAsWritten } from './words.js';

/** Words a question uses that say nothing about its subject. */
const GENERIC = new Set(
  'tell say said remember like think thought feel felt know go went come came ever life time thing things anything something everything lot much many kind sort way day days please us me nan nana gran granny grandma grandmother story stories talk mean why how what when where who which does doe do did become became becomes happen happened happens have has had get gets getting got make makes made want wants wanted year years really not anymore again true'.split(
    ' ',
  ),
);

/** How much each kind of query term counts in a passage's score. */
export const WEIGHT = { own: 1, intent: 0.6, kinship: 1, related: 0.35, context: 0.5 } as const;

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
 * Not an abbreviation: WordNet lists the states of "America" with theirs ("ok", "me.", "pa", "hi"), which are
 * everyday words in a journal ("Ok ok", "Ma and Pa").
 */
const unabbreviated = (x: string): boolean => x.length > 2 && !x.includes('.');

/**
 * A question word's WordNet relations: a dozen synonyms and hypernyms at most, and every part of a named place (all of
 * Italy's some sixty regions, cities and rivers: a dozen of them would leave out Rome).
 */
function related(w: string, all: string[], at: number): { words: string[]; parts: string[] } {
  const single = (x: string) => !x.includes('_');
  for (const lemma of phrasalLemmas(w, all[at + 1])) {
    const words = relatedWords(lemma).filter(single).slice(0, 12);
    if (words.length) return { words, parts: [] };
  }
  // The word as written and its base forms together: "moved" is an adjective of feeling ("touched") as written and a
  // verb of going ("travel") as "move"; the first known form alone kept only the feeling.
  const words = new Set<string>();
  const parts = new Set<string>();
  for (const lemma of baseForms(w)) {
    for (const x of relatedWords(lemma).filter(single).slice(0, 12)) words.add(x);
    for (const x of placesWithin(lemma).filter(single).filter(unabbreviated)) parts.add(x);
  }
  return { words: [...words].slice(0, 16), parts: [...parts] };
}

/** An heir's words for their own mother or father, used as a name, and whom they may mean. */
const PARENT_NAMES: Record<string, readonly string[]> = {
  mom: ['daughter', 'mother'],
  mum: ['daughter', 'mother'],
  mommy: ['daughter', 'mother'],
  mummy: ['daughter', 'mother'],
  dad: ['son', 'father'],
  daddy: ['son', 'father'],
};
/** Words before a kinship word that say whose it is ("your dad", "her mom"): then it is that person's parent. */
const OWNERS = new Set(['your', 'my', 'his', 'her', 'their', 'our']);

const PERSONS = new Set(['you', 'i', 'he', 'she', 'we', 'they']);
/** The words of "when you were young" ("a kid", "little", "a boy"...). */
const YOUNG = new Set(['young', 'little', 'small', 'kid', 'child', 'boy', 'girl', 'teenager', 'youngster']);

/** The words after "back" that make it a time or a place already named ("back then", "back in Lisbon"), not a subject. */
const FRAMED_BY_BACK = new Set(['then', 'in', 'on', 'when', 'there']);

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
  /** A question about an age ("How old were you when ...?"), answered by a passage that gives one. */
  age: boolean;
  /** A question asking someone's trade ("What did Grandpa do for a living?"), which "he was a firefighter" answers. */
  trade: boolean;
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
    if ((w.length < 2 && !isUnspacedWord(w)) || isStopword(w) || GENERIC.has(w)) return;
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
  // An idiom's words ("die" in "before I die") are not searched for at all.
  const idiom = new Set(intents.filter((i) => i.idiom).flatMap((i) => matchesOf(i, question).flatMap(words)));
  // The question's words as written, one for one with `all`: a capital tells a name.
  const cased = wordsAsWritten(question);
  const isKin = (x: string | undefined) => Boolean(x && (GRANDPARENTS[x] || KINSHIP[x]));
  // The particle of a phrasal verb WordNet knows ("away" in "pass away") is part of the verb, not a word to find.
  const particles = new Set(
    all.flatMap((w, i) => (phrasalLemmas(w, all[i + 1]).some((l) => relatedWords(l).length > 0) ? [i + 1] : [])),
  );
  // Words that frame the question rather than say what it is about: "back then", "back on the island", and the verb
  // of "when did you find out (that) ...": what was found out is the subject.
  for (const [i, w] of all.entries()) {
    if (w === 'back' && FRAMED_BY_BACK.has(all[i + 1] ?? '') && !particles.has(i)) particles.add(i);
    // "when you were young", "when you were a kid": the time of life (the childhood intent), not a word to find.
    if (w === 'when' && PERSONS.has(all[i + 1] ?? '') && (all[i + 2] === 'were' || all[i + 2] === 'was')) {
      const rest = all[i + 3] === 'a' || all[i + 3] === 'little' ? i + 4 : i + 3;
      if (YOUNG.has(all[rest - 1] ?? '') || YOUNG.has(all[rest] ?? ''))
        for (let k = i + 3; k <= rest; k++) particles.add(k);
    }
    if ((w === 'find' || w === 'found') && all[i + 1] === 'out') particles.add(i).add(i + 1);
    // "How old were you", "at what age": the age is what is asked, given in the passage as a number.
    if ((w === 'old' && all[i - 1] === 'how') || (w === 'age' && all[i - 1] === 'what')) particles.add(i);
  }
  for (const [i, w] of all.entries()) {
    if (particles.has(i)) continue;
    // "Mom", "Dad" as a name ("When did Mom come to Canada?"): the asker's mother or father, who for a grandchild is
    // the owner's daughter or son, and for the owner the owner's own parent. Neither word need be in the passage,
    // which names that person; both help rank.
    if (PARENT_NAMES[w] && /^\p{Lu}/u.test(cased[i] ?? '') && !OWNERS.has(all[i - 1] ?? '')) {
      for (const k of PARENT_NAMES[w]) add(k, WEIGHT.related, false);
      continue;
    }
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
    } else if (!grandparent && !idiom.has(w)) {
      add(w, phrase.has(w) ? WEIGHT.intent : WEIGHT.own, true);
    }
  }
  const own = [...terms.values()].filter((t) => t.own).map((t) => t.stem);
  const alternatives = new Map<string, { full: Set<string>; half: Set<string>; parts: Set<string> }>();
  for (const [at, w] of all.entries()) {
    if (isStopword(w) || GENERIC.has(w) || w.length < 3 || particles.has(at) || idiom.has(w)) continue;
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
  return {
    terms: [...terms.values()],
    intents,
    own,
    intentStems,
    alternatives,
    amount: ASKS_AMOUNT.test(question),
    age: ASKS_AGE.test(question),
    trade: ASKS_TRADE.test(question),
  };
}

/** What someone did for a living: "What did your dad do for work?", "What was your job?" (not "When did you retire?"). */
const ASKS_TRADE =
  /\bwhat (did|does|do|was|is|were)\b.*\b(for a living|for work|job|trade|profession|occupation|line of work)\b/i;

/** A question about someone's age at a time: "How old were you when you married?", "At what age did you start?". */
const ASKS_AGE = /\bhow old (were|was|are|is)\b|\bwhat age\b/i;

/**
 * A question about a price or a sum ("How much did you sell the house for?", "What did the car cost?") is answered only
 * by a passage that names an amount of money: one that tells of the sale without the price does not answer it.
 */
const ASKS_AMOUNT =
  /\bhow much\b.*\b(cost|costs|pay|paid|sell|sold|buy|bought|charge|charged|price|worth|earn|earned|spend|spent|rent|owe|owed|for)\b|\bwhat did\b.*\bcost\b|\b(price|salary|wage|wages)\b.*\?/i;

/**
 * People and places named in a person's own words, read by the `compromise` NLP library (its English lexicon and
 * part-of-speech tagger: proper nouns tagged as people, places, organisations, dates), with rules on top for what
 * a life story says that a general tagger gets wrong:
 * - kinship: "my sister Jean", "Jean, my sister", "Jean is my younger sister" give Jean with the relation sister;
 *   kin named without a name ("my mother") stay people as "my mother";
 * - days, months, holidays, brands and shops are never people; streets, roads, lakes, rivers, parks, churches and
 *   hospitals are places ("St James's Hospital", "Lake Qarun", "Roundhay Park");
 * - a title keeps its name ("Mrs Dunn", "Dr Harris", "Sister Byrne": the ward sister, not a sibling).
 *
 * compromise is loaded on the first reading, not when the service starts. Readings are kept for the texts read last
 * (least recently used out first, up to a total length): one text is asked for its people and its places in turn,
 * and insights and retrieval read every entry of an account again at each call, so the cache holds a whole memoir's
 * entries rather than the last few of them (with 64 texts, an account of more entries was read anew every time).
 *
 * Reading is CPU work (about 200 characters per millisecond on a 2-core machine: a second for a memoir of 200 long
 * entries), which in the main thread would hold every other request meanwhile. So the steps that read many texts
 * first hand them to `holdNames`, which reads the ones not kept yet in the memoir's reading thread
 * (./reading-pool.ts), a job at a time, and holds them all in the cache until the step lets go: the synchronous
 * `namesIn` calls that follow answer from the cache, however long the memoir and whatever other accounts read
 * meanwhile. Only a text that was not held, or longer than the cache's bound, is read in the calling thread.
 */
import { createRequire } from 'node:module';
import { holdInThread } from './reading-pool.js';
import { TextCache } from './text-cache.js';

export interface Names {
  people: string[];
  places: string[];
  /** Named kin: the name and the relation the text gives ("sister"). */
  kin: Array<{ name: string; relation: string }>;
  /** The people whose first name the tagger knows as a man's or a woman's ("Walter", "Dorothy"). */
  sexes: { male: string[]; female: string[] };
}

interface Term {
  text: string;
  normal: string;
  tags: string[];
  pre: string;
  post: string;
  offset: { start: number; length: number };
}
interface Match {
  terms: Term[];
}
/** A run of proper nouns not broken by punctuation, where it is in the text. */
interface Run {
  terms: Term[];
  start: number;
  end: number;
}
interface NlpDoc {
  match(pattern: string): { json(opts?: object): Match[] };
}
type Nlp = (text: string) => NlpDoc;

let nlpFn: Nlp | undefined;
function nlp(): Nlp {
  nlpFn ??= createRequire(import.meta.url)('compromise') as Nlp;
  return nlpFn;
}

/** Kin words and the relation each names (spelling variants to one word). */
const KIN: Record<string, string> = {
  mother: 'mother',
  mum: 'mother',
  mom: 'mother',
  mam: 'mother',
  father: 'father',
  dad: 'father',
  grandmother: 'grandmother',
  grandma: 'grandmother',
  granny: 'grandmother',
  nan: 'grandmother',
  nana: 'grandmother',
  grandfather: 'grandfather',
  grandad: 'grandfather',
  granddad: 'grandfather',
  grandpa: 'grandfather',
  wife: 'wife',
  husband: 'husband',
  son: 'son',
  daughter: 'daughter',
  brother: 'brother',
  sister: 'sister',
  uncle: 'uncle',
  aunt: 'aunt',
  auntie: 'aunt',
  cousin: 'cousin',
  nephew: 'nephew',
  niece: 'niece',
  grandson: 'grandson',
  granddaughter: 'granddaughter',
  grandchild: 'grandchild',
  partner: 'partner',
  friend: 'friend',
  neighbour: 'neighbour',
  neighbor: 'neighbour',
  teacher: 'teacher',
  boss: 'boss',
};
const KIN_WORDS = Object.keys(KIN).join('|');
const KIN_ADJ =
  '(?:(?:late|dear|dearest|best|old|oldest|older|younger|youngest|little|big|eldest|elder|baby|twin|only) )*';
/** "my (younger) sister", with the kin word captured. */
const KIN_BEFORE = new RegExp(`\\b(?:my|our) ${KIN_ADJ}(${KIN_WORDS})s?,? $`, 'i');
/** ", my sister" or " is my younger sister" right after a name. */
const KIN_AFTER = new RegExp(`^(?:,| (?:is|was)) (?:my|our) ${KIN_ADJ}(${KIN_WORDS})\\b`, 'i');
/** "Jean is my (younger) sister", "Frank was my husband". */
const KIN_STATED = new RegExp(
  `(?:^|[.!?]\\s+)(\\p{Lu}\\p{Ll}+) (?:is|was) (?:my|our) ${KIN_ADJ}(${KIN_WORDS})\\b`,
  'gu',
);
/** Kin spoken of without a name: "my mother". */
const KIN_ALONE = new RegExp(`\\bmy ${KIN_ADJ}(${KIN_WORDS})s?\\b`, 'gi');

/** Words before a name that are a title, kept as part of it. */
const TITLES = new Set([
  'mr',
  'mrs',
  'ms',
  'miss',
  'dr',
  'doctor',
  'nurse',
  'sister',
  'father',
  'aunt',
  'uncle',
  'auntie',
  'professor',
  'rev',
  'reverend',
  'matron',
  'sir',
  'lady',
  'lord',
]);
/** The last word of a name that makes it a place. */
const PLACE_WORDS = new Set(
  'lane road street avenue drive close crescent terrace square row way hill park gardens garden lake loch river bridge hospital church chapel abbey cathedral school college university station market green common moor beach bay island mount mountain valley wood forest field fields farm hall'.split(
    ' ',
  ),
);
/** The first word of a name that makes it a place. */
const PLACE_FIRST = new Set(['lake', 'loch', 'river', 'mount', 'st', 'saint', 'port', 'fort', 'cape', 'isle']);
/** Proper nouns a memoir uses that are never people: holidays and the like (days and months are tagged as dates). */
const NEVER_PEOPLE = new Set(
  'january february march april may june july august september october november december monday tuesday wednesday thursday friday saturday sunday christmas easter whitsun ramadan eid diwali hanukkah passover lent advent god lord jesus allah english french spanish german irish scottish welsh british american'.split(
    ' ',
  ),
);
/** A shop or brand is named with these joined words ("Marks and Spencer"). */
const BRAND_JOIN = /^\s*(?:and|&)\s*$/i;

const clean = (s: string) =>
  s
    .replace(/[’]/g, "'")
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}']+$/gu, '')
    .replace(/'$/, '')
    .trim();
const stripPossessive = (s: string) => s.replace(/'s$/i, '');

/** Readings by text (2 million characters of English prose: some 6 MB of readings besides the texts). Exported for tests. */
export const keptNames = new TextCache<Names>(2_000_000);
let readings = 0;

/** How many texts were read by the tagger so far (not answered from the cache): for tests of the cache. */
export function namesReadings(): number {
  return readings;
}

/** The people and places one text names (each as often as it is named), and the kin named with a name. */
export function namesIn(text: string): Names {
  return keptNames.remember(text, () => {
    readings++;
    return readNames(text);
  });
}

/**
 * Reads, in the memoir's reading thread (./reading-pool.ts), the texts among `texts` that are not kept yet, and holds
 * every one of them kept until the function it resolves with is called, so that the `namesIn` calls made meanwhile
 * answer without reading in this thread. Call it when done (in a `finally`): until then the readings stay in memory.
 */
export function holdNames(texts: Iterable<string>): Promise<() => void> {
  return holdInThread<Names>('names', keptNames, texts);
}

/** Whether the readings of all of `texts` are kept now: a synchronous step that follows reads none of them here. */
export function namesKept(texts: Iterable<string>): boolean {
  return keptNames.missing(texts).length === 0;
}

/** One text's reading by the tagger and the rules above (no cache): what `namesIn` and the reading thread run. */
export function readNames(text: string): Names {
  const people: string[] = [];
  const places: string[] = [];
  const kin: Names['kin'] = [];
  const sexes = { male: [] as string[], female: [] as string[] };
  // The tagger's runs of proper nouns, split where punctuation separates names ("Emma, Tom, Chloe", "Lake Qarun,
  // Egypt").
  const runs: Run[] = [];
  for (const m of nlp()(text).match('#ProperNoun+').json({ offset: true })) {
    let group: Term[] = [];
    const flush = () => {
      if (group.length)
        runs.push({
          terms: group,
          start: group[0]!.offset.start,
          end: group[group.length - 1]!.offset.start + group[group.length - 1]!.offset.length,
        });
      group = [];
    };
    for (const t of m.terms) {
      if (clean(t.text)) group.push(t);
      if (/[,;:()"]/.test(t.post)) flush();
    }
    flush();
  }
  runs.forEach((run, i) => {
    let terms = run.terms;
    const { start, end } = run;
    const before = text.slice(Math.max(0, start - 40), start);
    const after = text.slice(end, end + 40);
    // A leading kin word of a name ("sister Jean", "Grandad Frank") is a relation after "my", else a title.
    let relation: string | undefined;
    const lead = terms[0]!.normal.replace(/[^a-z]/g, '');
    if (terms.length > 1 && KIN[lead] && (/\b(?:my|our)\s+(?:\w+\s+)?$/i.test(before) || !TITLES.has(lead))) {
      relation =
        /\b(?:my|our)\s+(?:\w+\s+)?$/i.test(before) || !/\b(?:her|his|their)\s+$/i.test(before) ? KIN[lead] : undefined;
      terms = terms.slice(1);
    }
    // The tagger may run a name on into the common noun after it ("Mr Patel's television"): a name is its
    // capitalised words.
    const upTo = terms.findIndex((t) => !/^\p{Lu}/u.test(clean(t.text)));
    if (upTo === 0) return;
    if (upTo > 0) terms = terms.slice(0, upTo);
    const words = terms.map((t) => clean(t.text));
    const lowerWords = words.map((w) => stripPossessive(w).toLowerCase());
    const all = terms.map((t) => new Set(t.tags));
    const any = (tag: string) => all.some((s) => s.has(tag));
    const first = lowerWords[0]!;
    const last = lowerWords[lowerWords.length - 1]!;
    const titled = TITLES.has(first) && words.length > 1;
    // Places: a place word at either end (a street, a lake, a church named for its saint), or the tagger's place.
    if (PLACE_FIRST.has(first) && words.length > 1) {
      places.push(words.join(' '));
      return;
    }
    const name = stripPossessive(words.join(' '));
    if (PLACE_WORDS.has(last) && !titled) {
      places.push(name);
      return;
    }
    if (any('Place') && !any('Person') && !titled) {
      places.push(name);
      return;
    }
    if (any('Date') || any('Month') || any('WeekDay') || any('Holiday')) return;
    if (any('Organization') && !titled) return;
    if (!titled && relation === undefined && lowerWords.some((w) => NEVER_PEOPLE.has(w))) return;
    // A shop named with "and" ("Marks and Spencer"), unless both halves are people ("Tom and Chloe").
    const next = runs[i + 1];
    const prev = runs[i - 1];
    const personRun = (m: Run | undefined) => !!m?.terms.some((t) => t.tags.includes('Person'));
    const joined =
      (next && BRAND_JOIN.test(text.slice(end, next.start)) && !(any('Person') && personRun(next))) ||
      (prev && BRAND_JOIN.test(text.slice(prev.end, start)) && !(any('Person') && personRun(prev)));
    if (joined) return;
    // A plural proper noun is a day or a brand more often than a person.
    if (words.length === 1 && any('Plural') && !any('Person')) return;
    // "in Bradford", "near Leeds": a place, even when the name could be a person's.
    const afterPlacePrep = /\b(?:in|at|on)\s+(?:the\s+)?$/i.test(before);
    if (afterPlacePrep && !titled && relation === undefined && !/'s$/i.test(words[words.length - 1]!)) {
      places.push(name);
      return;
    }
    // "Dot and I", "me and Eddie", "everyone called her Dot": only a person is written so.
    const withWriter = /^\s+and\s+(?:I|me)\b/.test(after) || /\b(?:me|I)\s+and\s+$/.test(before);
    const called = /\b(?:called|named|calls|call)\s+(?:her|him)\s+$/i.test(before);
    const isPerson = any('Person') || relation !== undefined || titled || withWriter || called;
    if (!isPerson) {
      if (/\b(?:to|into|across|towards)\s+(?:the\s+)?$/i.test(before)) places.push(name);
      return;
    }
    // A title alone is no name.
    if (words.length === 1 && TITLES.has(first)) return;
    people.push(name);
    if (any('MaleName') !== any('FemaleName')) sexes[any('MaleName') ? 'male' : 'female'].push(name);
    const kinBefore = KIN_BEFORE.exec(before);
    const kinAfter = KIN_AFTER.exec(after);
    const rel =
      relation ??
      (kinBefore ? KIN[kinBefore[1]!.toLowerCase()] : kinAfter ? KIN[kinAfter[1]!.toLowerCase()] : undefined);
    if (rel) kin.push({ name, relation: rel });
  });
  // "Jean is my younger sister": a name at the start of a sentence the tagger does not mark, given by its kinship.
  for (const m of text.matchAll(KIN_STATED)) {
    const name = m[1]!;
    if (people.includes(name)) continue;
    people.push(name);
    kin.push({ name, relation: KIN[m[2]!.toLowerCase()]! });
  }
  // Kin spoken of without a name stay people as "my mother" (one named right after is counted under the name).
  for (const m of text.matchAll(KIN_ALONE)) {
    const rest = text.slice(m.index + m[0].length);
    const lead = text.slice(Math.max(0, m.index - 40), m.index);
    const relation = KIN[m[1]!.toLowerCase()]!;
    // Named right after ("my sister Jean") or right before ("Ingrid, my oldest friend"): counted under the name.
    const named = kin.some((k) => k.relation === relation);
    if (named && (/^,?\s+\p{Lu}/u.test(rest) || /\p{L}(?:,| is| was)\s+$/u.test(lead))) continue;
    people.push(`my ${relation}`);
  }
  return { people, places, kin, sexes };
}

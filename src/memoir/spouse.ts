/**
 * Who the memoir's owner was married to, as the memoir says it: the name it uses for the husband or wife, and whether
 * that is a man or a woman. An heir's "Grandad" is the owner's husband when the owner is a grandmother, and the owner
 * himself when the owner is a grandfather (then "Grandma" is his wife); the memoir's own words tell which.
 *
 * What it takes from each text (people named in sentences about marrying, "my husband", the sexes of first names) is
 * read once per text (`readSpouse`) and kept by the text's digest (`keptSpouse`): a few hundred bytes a text, so a
 * very long memoir is kept whole, and a chat's question does not hand every text to the tagger again once the names
 * cache (./names.ts, bounded by the texts' length) has put them out. Only the sums are made at each question.
 */
import { createHash } from 'node:crypto';
import { GRANDPARENTS } from './intents.js';
import { holdNames, namesIn } from './names.js';
import { holdInThread } from './reading-pool.js';
import { TextCache } from './text-cache.js';
import { sentences, words } from './words.js';
import { atOnce, SLICE, SLICE_CHARS, SLICE_HASH_CHARS, type Steps, turn } from './turns.js';

/** What is read of a memoir's text (./retrieval.ts's SourceDoc has these and more). */
interface SourceDoc {
  kind: string;
  text: string;
}

export interface Spouse {
  /** The name the memoir uses most for the husband or wife ("Frank", "Dot"); none when it is not clear. */
  name?: string;
  /** The husband or wife's sex as the memoir writes of them; none when it does not say or says both. */
  sex?: 'male' | 'female';
}

/** What one text says of the owner's husband or wife, before the owner's own names are set aside. */
export interface SpouseReading {
  /** The names the text gives the writer's husband or wife ("my husband Frank"). */
  kin: string[];
  /** The weight of what the text says of the spouse's sex: "my husband" (3 to male), "the grandkids call me Nana". */
  said: { male: number; female: number };
  /**
   * Each sentence about marrying: the single names of people in it and, for a sentence in the first person, those of
   * the sentences just before it (which count when it names nobody but the owner).
   */
  marriages: Array<{ named: string[]; before?: string[] }>;
  /** The people whose first name the tagger knows as a man's or a woman's. */
  sexes: { male: string[]; female: string[] };
}

/** What the owner's grandchildren call them: "call me Nana", "calls me Dadaji", "I am their Oma". */
const CALLED = /\b(?:calls? me|called me|I am (?:their|your)|I'm (?:their|your)) (\p{L}+)/giu;
const MARRIAGE = /\b(married|marry|wedding|husband|wife|proposed|engaged|honeymoon)\b/i;
/**
 * Only the owner's own marriage, told in the first person ("We were married at St Aidan's"), takes its names from
 * the sentences before it: in "In 1995 he married Navneet" (a name the tagger does not know) the son named before
 * is the one marrying, not the owner's spouse.
 */
const FIRST_PERSON = /\b(I|me|my|we|us|our)\b/i;
/** A sentence about marrying that names nobody ("We were married at St Aidan's") speaks of those just named. */
const BEFORE = 2;

/** The names of people in `text` that may be the spouse: single names ("Frank", not "my mother" or "Mrs Dunn"). */
function singleNames(text: string): string[] {
  return namesIn(text).people.filter((p) => !p.startsWith('my ') && !p.includes(' '));
}

/** What `text` (not the profile) says of the owner's spouse, read by the tagger (./names.ts): no cache. */
export function readSpouse(text: string): SpouseReading {
  const names = namesIn(text);
  const said = { male: 0, female: 0 };
  said.male += (text.match(/\bmy (?:late |dear )?(?:husband|hubby)\b/gi) ?? []).length * 3;
  said.female += (text.match(/\bmy (?:late |dear )?wife\b/gi) ?? []).length * 3;
  // "The grandkids call me Vovó", "Harry's kids call me Dadaji": the owner is that grandparent, the spouse the other.
  for (const m of text.matchAll(CALLED)) {
    const role = GRANDPARENTS[m[1]!.toLowerCase()];
    if (role === 'grandfather') said.female += 3;
    if (role === 'grandmother') said.male += 3;
  }
  const marriages: SpouseReading['marriages'] = [];
  const all = sentences(text);
  for (let i = 0; i < all.length; i++) {
    const sentence = all[i]!;
    if (!MARRIAGE.test(sentence)) continue;
    const named = singleNames(sentence);
    marriages.push(
      FIRST_PERSON.test(sentence)
        ? { named, before: all.slice(Math.max(0, i - BEFORE), i).flatMap(singleNames) }
        : { named },
    );
  }
  return {
    kin: names.kin.filter((k) => k.relation === 'husband' || k.relation === 'wife').map((k) => k.name),
    said,
    marriages,
    sexes: names.sexes,
  };
}

/** The version of `readSpouse`: a change to what it reads makes the readings kept and stored of older ones unused. */
const READING_VERSION = 1;
/** A text's key in `keptSpouse` and in a stored reading: its digest with the version, not the text itself. */
export const spouseKeyOf = (text: string) =>
  createHash('sha1').update(`${READING_VERSION}\n`).update(text).digest('base64');
const KEY_CHARS = spouseKeyOf('').length;
/** The readings kept, by their key: 200,000 texts (some 60 MB at most). */
export const keptSpouse = new TextCache<SpouseReading>(200_000 * KEY_CHARS);
let readings = 0;

/** How many texts' spouse readings were made in this thread (not kept, not prepared): for tests of the cache. */
export function spouseReadings(): number {
  return readings;
}

function readingOf(text: string, key = spouseKeyOf(text)): SpouseReading {
  return keptSpouse.remember(key, () => {
    readings++;
    return readSpouse(text);
  });
}

/** A reading as a record keeps it with its text (a journal entry's `spouseReading`): `of` is the text's key. */
export interface StoredSpouseReading {
  of: string;
  reading: SpouseReading;
}

const isNames = (x: unknown) => Array.isArray(x) && x.every((n) => typeof n === 'string');

/** `value` as a stored reading, when it is one (of this version or not); else undefined. */
export function storedSpouseReading(value: unknown): StoredSpouseReading | undefined {
  const v = value as Partial<StoredSpouseReading> | undefined;
  const r = v?.reading;
  const whole =
    typeof v?.of === 'string' &&
    r !== undefined &&
    isNames(r.kin) &&
    typeof r.said?.male === 'number' &&
    typeof r.said.female === 'number' &&
    Array.isArray(r.marriages) &&
    r.marriages.every((m) => isNames(m?.named) && (m.before === undefined || isNames(m.before))) &&
    isNames(r.sexes?.male) &&
    isNames(r.sexes?.female);
  return whole ? (v as StoredSpouseReading) : undefined;
}

/** The reading of `text` (not empty), made in the memoir's reading thread, for a record to store with the text. */
export async function spouseReadingFor(text: string): Promise<StoredSpouseReading> {
  const release = await holdInThread<SpouseReading>('spouse', keptSpouse, [text], spouseKeyOf);
  try {
    const of = spouseKeyOf(text);
    return { of, reading: keptSpouse.get(of) ?? readingOf(text) };
  } finally {
    release();
  }
}

/**
 * The keys of the texts of the docs `holdSpouse` was given, by text, so that the steps that follow do not digest them
 * again.
 */
const digests = new WeakMap<readonly SourceDoc[], ReadonlyMap<string, string>>();

/**
 * Before `spouseOf(docs)`: the readings of their texts that are not kept yet taken from their records (those stored
 * for the same text) or else made in the memoir's reading thread (./reading-pool.ts), and all of them held until the
 * function it resolves with is called (in a `finally`). The profile's names are held with them: `spouseOf` reads the
 * owner's own name in it.
 */
export async function holdSpouse(
  docs: ReadonlyArray<SourceDoc & { spouse?: StoredSpouseReading | undefined }>,
): Promise<() => void> {
  // The texts' keys first, giving the event loop a turn now and then (a long memoir is tens of megabytes to digest),
  // kept for the `spouseOf` and `unstoredSpouseReadings` of the same docs.
  const keys = new Map<string, string>();
  digests.set(docs, keys);
  let chars = 0;
  for (const d of docs) {
    if (d.kind === 'profile' || d.text.length === 0 || keys.has(d.text)) continue;
    keys.set(d.text, spouseKeyOf(d.text));
    chars += d.text.length;
    if (chars >= SLICE_HASH_CHARS) {
      chars = 0;
      await turn();
    }
  }
  // Then, in one synchronous step, the readings the records stored for their current text are kept and all are held
  // (the hold is made before holdInThread's first await), so none of those just kept can be put out meanwhile.
  for (const d of docs) {
    const key = keys.get(d.text);
    if (key !== undefined && d.spouse?.of === key && keptSpouse.get(key) === undefined)
      keptSpouse.set(key, d.spouse.reading);
  }
  const releaseReadings = await holdInThread<SpouseReading>('spouse', keptSpouse, keys.keys(), (t) => keys.get(t)!);
  try {
    const releaseNames = await holdNames(docs.filter((d) => d.kind === 'profile').map((d) => d.text));
    return () => {
      releaseNames();
      releaseReadings();
    };
  } catch (err) {
    releaseReadings();
    throw err;
  }
}

/**
 * The journal entries among `docs` (held by `holdSpouse`, not let go yet) whose record does not store the reading of
 * its current text, with that reading: for the owner's chat to store them, so that no later start reads them again.
 */
export function unstoredSpouseReadings(
  docs: ReadonlyArray<SourceDoc & { id: string; spouse?: StoredSpouseReading | undefined }>,
): Array<{ id: string } & StoredSpouseReading> {
  const keys = digests.get(docs);
  if (!keys) return [];
  const out: Array<{ id: string } & StoredSpouseReading> = [];
  for (const d of docs) {
    const of = keys.get(d.text);
    if (d.kind !== 'journal' || of === undefined || d.spouse?.of === of) continue;
    const reading = keptSpouse.get(of);
    if (reading) out.push({ id: d.id, of, reading });
  }
  return out;
}

/**
 * The name: the person (src/memoir/names.ts) named most often in sentences about marrying, or just before one that
 * names nobody, other than the owner's own names; a person written as the writer's husband or wife ("my husband
 * Frank") counts double. The sex, by the weight of what the memoir says: "my husband" or "my wife" anywhere (3 each),
 * the owner's first name and the spouse's as the tagger knows them (2: a man named Walter writes of his wife; it
 * takes the common case of a husband and a wife), and the pronouns of the sentences naming the spouse and of the
 * sentence after each (1 each: "I met Frank ... He trod on my feet"). It is decided when one side has at least 2 and
 * more than twice the other.
 */
export function spouseOf(docs: readonly SourceDoc[]): Spouse {
  return atOnce(spouseSteps(docs));
}

/** `spouseOf`, yielding between slices of the memoir's texts (./turns.ts). */
export function* spouseSteps(docs: readonly SourceDoc[]): Steps<Spouse> {
  const keys = digests.get(docs);
  const profile = docs.find((d) => d.kind === 'profile')?.text ?? '';
  const own = new Set(words(profile));
  const notOwn = (p: string) => !own.has(p.toLowerCase());
  const counts = new Map<string, number>();
  const count = (name: string, n: number) => counts.set(name, (counts.get(name) ?? 0) + n);
  const said = { male: 0, female: 0 };
  const read: SpouseReading[] = [];
  for (const d of docs) {
    if (d.kind === 'profile') continue;
    read.push(readingOf(d.text, keys?.get(d.text)));
    if (read.length % SLICE === 0) yield;
  }
  for (const r of read) {
    for (const name of r.kin) count(name, 2);
    said.male += r.said.male;
    said.female += r.said.female;
    for (const m of r.marriages) {
      let named = m.named.filter(notOwn);
      if (named.length === 0 && m.before) named = [...new Set(m.before.filter(notOwn))];
      for (const p of named) count(p, 1);
    }
  }
  const [first, second] = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  const name = first && first[1] >= 2 && (!second || first[1] > second[1]) ? first[0] : undefined;
  const owner = profile ? namesIn(profile).sexes : { male: [], female: [] };
  said.female += owner.male.length > 0 ? 2 : 0;
  said.male += owner.female.length > 0 ? 2 : 0;
  if (name) {
    yield* countPronouns(docs, name, said);
    const known = [owner, ...read.map((r) => r.sexes)];
    if (known.some((k) => k.male.includes(name))) said.male += 2;
    if (known.some((k) => k.female.includes(name))) said.female += 2;
  }
  const sex =
    said.male >= 2 && said.male > 2 * said.female
      ? 'male'
      : said.female >= 2 && said.female > 2 * said.male
        ? 'female'
        : undefined;
  return { ...(name ? { name } : {}), ...(sex ? { sex } : {}) };
}

/** Adds the pronouns of each sentence naming `name`, after the name, and of the sentence that follows it. */
function* countPronouns(docs: readonly SourceDoc[], name: string, said: { male: number; female: number }): Steps<void> {
  const named = new RegExp(`\\b${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`);
  let chars = 0;
  for (const d of docs) {
    // Most texts do not hold the name at all: not split into sentences for nothing.
    if (d.kind === 'profile' || !d.text.includes(name)) continue;
    chars += d.text.length;
    if (chars >= SLICE_CHARS) {
      chars = 0;
      yield;
    }
    const all = sentences(d.text);
    for (let i = 0; i < all.length; i++) {
      const at = all[i]!.search(named);
      if (at === -1) continue;
      for (const s of [all[i]!.slice(at), all[i + 1] ?? '']) {
        said.male += (s.match(/\b(?:he|him|his|himself)\b/gi) ?? []).length;
        said.female += (s.match(/\b(?:she|her|hers|herself)\b/gi) ?? []).length;
      }
    }
  }
}

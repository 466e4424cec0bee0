/**
 * The character model: who the person is, as far as their own words show it.
 * Built deterministically from journal entries and questionnaire answers, and
 * refined by the language model when one is configured (its traits and values
 * are kept beside the extracted ones, marked as the model's).
 *
 * buildCharacter defines the model from every text. Kept up to date on each
 * write, it would reread everything written so far each time (O(n) per write);
 * instead a CharacterTally holds the sums the model is computed from (mentions,
 * phrase and word counts, style sums) and a new text only adds its own counts.
 * The tally is stored beside the profile, versioned: an older version, or
 * counts out of step with the records (something deleted), are rebuilt from all
 * the texts once. The model from a tally equals buildCharacter of the same texts
 * (test/memoir/character-incremental.test.ts).
 *
 * The phrases are the large part: every phrase ever written is counted, most held by one text. Their counts live in
 * segments of their own (./phrase-counts.ts) that a write adds to; the counts record keeps only the phrases held by
 * `phrasesAtLeast` texts or more, a bound chosen so that those alone decide the model's recurring phrases.
 */
import { type MergeOptions, type PhraseChunkRecord, PhraseCounts, type StoredSegment } from './phrase-counts.js';
import { allQuestions } from './questions.js';
import type { AnswerRecord, JournalEntry } from './records.js';
import {
  emptyStyleCounts,
  rankPhrases,
  RANK_LIMITS,
  ranked,
  recurringPhrases,
  styleFrom,
  styleOf,
  textCounts,
  themesIn,
  topPeople,
  topPlaces,
  traitsIn,
  valuesIn,
  withRelations,
  type Mention,
  type Style,
  type StyleCounts,
  type TextCounts,
} from './text.js';

export interface CharacterModel {
  traits: Mention[];
  values: Mention[];
  people: Mention[];
  places: Mention[];
  recurringPhrases: Mention[];
  topics: string[];
  style: Style;
  /** Added by the language model from the latest entry (empty in demo mode). */
  modelTraits: string[];
  modelValues: string[];
  sources: { journalEntries: number; answers: number };
  updatedAt: string | null;
}

/** Position of each question in the questionnaire (questions.json order). */
const QUESTION_ORDER = new Map(allQuestions().map((q, i) => [q.id, i]));

export interface GivenAnswer {
  category: string;
  questionId: string;
  answer: string;
  answeredAt: string;
}

/**
 * Every answer given, in questionnaire order (categories, then questions, as in questions.json; an id no longer in
 * the questionnaire after them, by id). Never the key order of a record's `answers`: PostgreSQL's jsonb keeps
 * object keys sorted by length, lowdb in insertion order, and what the agent cites or shows must not depend on it.
 */
export function answersInOrder(records: readonly AnswerRecord[]): GivenAnswer[] {
  const out = records.flatMap((r) =>
    Object.entries(r.answers).map(([questionId, x]) => ({
      category: r.category,
      questionId,
      answer: x.answer,
      answeredAt: x.answeredAt,
    })),
  );
  const rank = (id: string) => QUESTION_ORDER.get(id) ?? Number.MAX_SAFE_INTEGER;
  return out.sort(
    (a, b) =>
      rank(a.questionId) - rank(b.questionId) ||
      (a.questionId < b.questionId ? -1 : a.questionId > b.questionId ? 1 : 0),
  );
}

/** Whether an entry is kept for its owner alone (src/memoir/records.ts): the character model leaves it out. */
export const isPrivate = (e: Pick<JournalEntry, 'private'>): boolean => e.private === true;

/** The entries heirs may see: every entry not marked private. */
export function sharedEntries<T extends Pick<JournalEntry, 'private'>>(entries: readonly T[]): T[] {
  return entries.filter((e) => !isPrivate(e));
}

/**
 * The texts the character model is read from: entries that are not private, then the answers. The model is what
 * heirs meet (get_shared_memoir, the agent's voice), so a private entry never shapes it.
 */
export function texts(entries: readonly JournalEntry[], answers: readonly AnswerRecord[]): string[] {
  return [...sharedEntries(entries).map((e) => e.content), ...answersInOrder(answers).map((x) => x.answer)];
}

export function buildCharacter(
  entries: readonly JournalEntry[],
  answers: readonly AnswerRecord[],
  previous: Pick<CharacterModel, 'modelTraits' | 'modelValues'> | undefined,
  now: string | null,
): CharacterModel {
  const all = texts(entries, answers);
  const covered = answers.filter((a) => Object.keys(a.answers).length > 0).map((a) => a.category);
  return {
    traits: traitsIn(all),
    values: valuesIn(all),
    people: topPeople(all),
    places: topPlaces(all),
    recurringPhrases: recurringPhrases(all),
    topics: [...new Set([...themesIn(all).map((t) => t.name), ...covered])],
    style: styleOf(all),
    modelTraits: previous?.modelTraits ?? [],
    modelValues: previous?.modelValues ?? [],
    sources: {
      journalEntries: sharedEntries(entries).length,
      answers: answers.reduce((n, a) => n + Object.keys(a.answers).length, 0),
    },
    updatedAt: now,
  };
}

export function emptyCharacter(): CharacterModel {
  return buildCharacter([], [], undefined, null);
}

/**
 * The version of the stored counts. Bump it whenever the extraction in text.ts (lexicons, names, phrases, style) or
 * the counts kept here change: stored counts of another version are rebuilt from the texts on the next write.
 */
export const CHARACTER_COUNTS_VERSION = 5;

/**
 * About how many phrases the counts record keeps (those held by the most texts): when more are held by
 * `phrasesAtLeast` texts, the bound is raised so that half as many are kept, as long as they still decide the model's
 * recurring phrases. A deletion that leaves too few is followed by a recount of the phrases from their segments.
 */
export const KEPT_PHRASES = 2000;

/** A name → count table as stored: parallel arrays (compact JSON, and no name can be mistaken for a prototype key). */
export interface StoredCounts {
  names: string[];
  counts: number[];
}

/** The counts behind one account's character model, as stored (collection MEMOIR_CHARACTER, id `mchr_<account>`). */
export interface CharacterCountsRecord {
  [field: string]: unknown;
  id: string;
  ownerId: string;
  version: number;
  /** Entries counted (those not private). */
  journalEntries: number;
  /** Private entries, not counted: with journalEntries, how many entries the counts are in step with. */
  privateEntries: number;
  /** Questions answered per category, in the order the categories were first answered (the topics keep that order). */
  answered: StoredCounts;
  traits: StoredCounts;
  values: StoredCounts;
  themes: StoredCounts;
  people: StoredCounts;
  /** Named kin: name, "|", the relation → how often. */
  relations: StoredCounts;
  places: StoredCounts;
  /** Candidate phrases held by `phrasesAtLeast` texts or more → how many (every such phrase). */
  recurring: StoredCounts;
  /** 2 or more: the fewest texts a phrase in `recurring` is held by. */
  phrasesAtLeast: number;
  /** Every candidate phrase's count, in segments of chunk records (collection MEMOIR_PHRASES), oldest first. */
  phraseSegments: StoredSegment[];
  /** Content word → occurrences. */
  words: StoredCounts;
  style: StyleCounts;
  updatedAt: string;
}

const TABLES = ['traits', 'values', 'themes', 'people', 'relations', 'places', 'words'] as const;
const STYLE_FIELDS = ['sentences', 'words', 'exclamations', 'questions', 'firstPerson'] as const;

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

function toStored(map: ReadonlyMap<string, number>): StoredCounts {
  return { names: [...map.keys()], counts: [...map.values()] };
}

/** The table, or undefined when the stored value is not a well-formed table. */
function fromStored(stored: unknown): Map<string, number> | undefined {
  const t = stored as Partial<StoredCounts> | null;
  if (!t || !Array.isArray(t.names) || !Array.isArray(t.counts) || t.names.length !== t.counts.length) return undefined;
  const map = new Map<string, number>();
  for (let i = 0; i < t.names.length; i++) {
    const name = t.names[i];
    const count = t.counts[i];
    if (typeof name !== 'string' || !isCount(count) || map.has(name)) return undefined;
    map.set(name, count);
  }
  return map;
}

function add(map: Map<string, number>, name: string, by: number): void {
  const n = (map.get(name) ?? 0) + by;
  if (n === 0) map.delete(name);
  else map.set(name, n);
}

/**
 * The sums a character model is computed from. Adding a text costs the reading of that text only; replacing an
 * answer subtracts the old text's counts and adds the new one's. Removing anything else (a deleted entry) is not
 * done here: the caller rebuilds the tally from the texts (CharacterTally.of).
 */
export class CharacterTally {
  journalEntries = 0;
  /** Private entries seen and not counted. */
  privateEntries = 0;
  /** Category → questions answered, in the order categories were first answered (zeros kept: the order must hold). */
  readonly answered = new Map<string, number>();
  readonly traits = new Map<string, number>();
  readonly values = new Map<string, number>();
  readonly themes = new Map<string, number>();
  readonly people = new Map<string, number>();
  readonly relations = new Map<string, number>();
  readonly places = new Map<string, number>();
  /** Candidate phrases held by #atLeast texts or more → how many (all of them: the model's phrases are among them). */
  readonly recurring = new Map<string, number>();
  #atLeast = 2;
  /** How many texts hold each candidate phrase; undefined when read without them (counts only, see fromRecord). */
  #phrases: PhraseCounts | undefined = new PhraseCounts();
  readonly #keep: number;
  readonly words = new Map<string, number>();
  readonly style: StyleCounts = emptyStyleCounts();

  /** `keep`: about how many phrases the counts record keeps (KEPT_PHRASES; smaller in tests). */
  constructor(keep: number = KEPT_PHRASES) {
    this.#keep = keep;
  }

  /** The tally of these records, read in full (what the stored one is rebuilt from). */
  static of(
    entries: readonly JournalEntry[],
    answers: readonly AnswerRecord[],
    keep: number = KEPT_PHRASES,
  ): CharacterTally {
    const t = new CharacterTally(keep);
    for (const e of entries) {
      if (isPrivate(e)) t.privateEntries++;
      else t.addEntry(e.content);
    }
    // Categories in record order (the order they were first answered), as buildCharacter's topics.
    for (const r of answers) t.answered.set(r.category, t.answered.get(r.category) ?? 0);
    for (const a of answersInOrder(answers)) t.addAnswer(a.category, a.answer);
    return t;
  }

  /** Whether `record` is counts of this version (then fromRecord reads it, unless it is malformed). */
  static current(record: CharacterCountsRecord | undefined): record is CharacterCountsRecord {
    return record?.version === CHARACTER_COUNTS_VERSION;
  }

  /**
   * The stored tally, or undefined when it is missing, of another version or malformed (then: rebuild). `phrases`:
   * the phrase counts its segments hold (PhraseCounts.load); without them the tally has its counts only, and can
   * neither make the model nor be stored.
   */
  static fromRecord(
    record: CharacterCountsRecord | undefined,
    phrases: PhraseCounts | undefined,
    keep: number = KEPT_PHRASES,
  ): CharacterTally | undefined {
    if (
      !CharacterTally.current(record) ||
      !isCount(record.journalEntries) ||
      !isCount(record.privateEntries) ||
      !isCount(record.phrasesAtLeast) ||
      record.phrasesAtLeast < 2
    )
      return undefined;
    const t = new CharacterTally(keep);
    t.journalEntries = record.journalEntries;
    t.privateEntries = record.privateEntries;
    const answered = fromStored(record.answered);
    const recurring = fromStored(record.recurring);
    if (!answered || !recurring) return undefined;
    for (const n of recurring.values()) if (n < record.phrasesAtLeast) return undefined;
    for (const [k, v] of answered) t.answered.set(k, v);
    for (const [k, v] of recurring) t.recurring.set(k, v);
    t.#atLeast = record.phrasesAtLeast;
    t.#phrases = phrases;
    for (const table of TABLES) {
      const map = fromStored(record[table]);
      if (!map) return undefined;
      for (const [k, v] of map) t[table].set(k, v);
    }
    const style = record.style as Partial<StyleCounts> | null;
    if (!style || typeof style !== 'object') return undefined;
    for (const f of STYLE_FIELDS) {
      const v = style[f];
      if (!isCount(v)) return undefined;
      t.style[f] = v;
    }
    return t;
  }

  addEntry(text: string): void {
    this.journalEntries++;
    this.#apply(textCounts(text), 1);
  }

  /** Whether the counts are of exactly `entries` entries in all (counted and private). */
  inStepWith(entries: number): boolean {
    return this.journalEntries + this.privateEntries === entries;
  }

  /** Adds an entry as written: counted, or (private) only known to exist. */
  addStoredEntry(e: Pick<JournalEntry, 'content' | 'private'>): void {
    if (isPrivate(e)) this.privateEntries++;
    else this.addEntry(e.content);
  }

  /**
   * Takes back an entry being edited or deleted, as it was stored. Returns false, changing nothing, when the tally
   * does not hold its counts (out of step with the records): the caller then rebuilds it.
   */
  removeStoredEntry(e: Pick<JournalEntry, 'content' | 'private'>): boolean {
    if (isPrivate(e)) {
      if (this.privateEntries < 1) return false;
      this.privateEntries--;
      return true;
    }
    const counts = textCounts(e.content);
    if (this.journalEntries < 1 || !this.#holds(counts)) return false;
    this.journalEntries--;
    this.#apply(counts, -1);
    return true;
  }

  addAnswer(category: string, text: string): void {
    this.answered.set(category, (this.answered.get(category) ?? 0) + 1);
    this.#apply(textCounts(text), 1);
  }

  /**
   * Takes back the counts of an answer being replaced. Returns false, changing nothing, when the tally does not hold
   * them (it is out of step with the records): the caller then rebuilds it.
   */
  removeAnswer(category: string, text: string): boolean {
    const counts = textCounts(text);
    if (!((this.answered.get(category) ?? 0) >= 1 && this.#holds(counts))) return false;
    this.answered.set(category, this.answered.get(category)! - 1);
    this.#apply(counts, -1);
    return true;
  }

  /** The phrase counts; a tally read without them can only be read (counts for insights and prompts). */
  #allPhrases(): PhraseCounts {
    if (!this.#phrases) throw new Error('the character counts were read without their phrases');
    return this.#phrases;
  }

  #holds(c: TextCounts): boolean {
    for (const table of TABLES) for (const [k, n] of c[table]) if ((this[table].get(k) ?? 0) < n) return false;
    const phrases = this.#allPhrases();
    for (const p of c.phrases) if (phrases.count(p) < 1) return false;
    return STYLE_FIELDS.every((f) => this.style[f] >= c.style[f]);
  }

  #apply(c: TextCounts, sign: 1 | -1): void {
    for (const table of TABLES) for (const [k, n] of c[table]) add(this[table], k, sign * n);
    const phrases = this.#allPhrases();
    for (const p of c.phrases) {
      const n = phrases.count(p) + sign;
      phrases.change(p, sign);
      if (n >= this.#atLeast) this.recurring.set(p, n);
      else this.recurring.delete(p);
    }
    for (const f of STYLE_FIELDS) this.style[f] += sign * c.style[f];
  }

  /**
   * Chooses the bound of the phrases kept: lowered to 2 (every phrase held twice, read from the segments) when those
   * kept no longer decide the model's phrases, raised when more than #keep are kept and half as many (else #keep) still
   * decide them. Deciding: ranking the kept phrases fills the model's list, so no phrase held by fewer texts could be
   * in it (the ranking takes counts in descending order).
   */
  #settle(): void {
    const limit = RANK_LIMITS.phrases;
    if (this.#atLeast > 2 && rankPhrases(this.recurring, limit).length < limit) {
      this.recurring.clear();
      for (const [p, n] of this.#allPhrases().all()) if (n >= 2) this.recurring.set(p, n);
      this.#atLeast = 2;
    }
    if (this.recurring.size <= this.#keep) return;
    // The lowest bound keeping at most half of #keep, else at most #keep, that still decides the model's phrases.
    const counts = [...this.recurring.values()].sort((a, b) => b - a);
    for (const most of [Math.floor(this.#keep / 2), this.#keep]) {
      const atLeast = counts[most]! + 1; // every count from here on is below it: at most `most` phrases kept
      const kept = new Map([...this.recurring].filter(([, n]) => n >= atLeast));
      if (rankPhrases(kept, limit).length < limit) continue;
      for (const p of [...this.recurring.keys()]) if (!kept.has(p)) this.recurring.delete(p);
      this.#atLeast = atLeast;
      return;
    }
  }

  /** Every phrase's count, from the segments (tests compare it with a recount). */
  phraseCounts(): Map<string, number> {
    return this.#allPhrases().all();
  }

  /** The character model of these counts: equal to buildCharacter of the texts they were counted from. */
  model(previous: Pick<CharacterModel, 'modelTraits' | 'modelValues'> | undefined, now: string | null): CharacterModel {
    this.#settle();
    const covered = [...this.answered].filter(([, n]) => n > 0).map(([c]) => c);
    return {
      traits: ranked(this.traits, RANK_LIMITS.traits),
      values: ranked(this.values, RANK_LIMITS.values),
      people: withRelations(ranked(this.people, RANK_LIMITS.people), this.relations),
      places: ranked(this.places, RANK_LIMITS.places),
      recurringPhrases: rankPhrases(this.recurring, RANK_LIMITS.phrases),
      topics: [...new Set([...ranked(this.themes, RANK_LIMITS.themes).map((t) => t.name), ...covered])],
      style: styleFrom(this.style, this.words),
      modelTraits: previous?.modelTraits ?? [],
      modelValues: previous?.modelValues ?? [],
      sources: { journalEntries: this.journalEntries, answers: [...this.answered.values()].reduce((n, x) => n + x, 0) },
      updatedAt: now,
    };
  }

  /** Questions answered in a category, as counted. */
  answeredIn(category: string): number {
    return this.answered.get(category) ?? 0;
  }

  /**
   * The counts record and the phrase chunks to store with it (the phrases' changes made a segment). The chunks of the
   * account that the record does not list are no longer needed. `compact`: whether a merge longer than a write makes
   * is due (compactPhrases, after the transaction). `merge`: sizes (smaller in tests).
   */
  toRecords(
    id: string,
    ownerId: string,
    now: string,
    merge?: MergeOptions,
  ): { counts: CharacterCountsRecord; chunks: PhraseChunkRecord[]; compact: boolean } {
    this.#settle();
    const phrases = this.#allPhrases();
    const chunks = phrases.commit(ownerId, merge);
    const counts: CharacterCountsRecord = {
      id,
      ownerId,
      version: CHARACTER_COUNTS_VERSION,
      journalEntries: this.journalEntries,
      privateEntries: this.privateEntries,
      answered: toStored(this.answered),
      traits: toStored(this.traits),
      values: toStored(this.values),
      themes: toStored(this.themes),
      people: toStored(this.people),
      relations: toStored(this.relations),
      places: toStored(this.places),
      recurring: toStored(this.recurring),
      phrasesAtLeast: this.#atLeast,
      phraseSegments: phrases.stored(),
      words: toStored(this.words),
      style: { ...this.style },
      updatedAt: now,
    };
    return { counts, chunks, compact: phrases.compactionDue() };
  }
}

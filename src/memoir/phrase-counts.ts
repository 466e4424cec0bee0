/**
 * How many texts of a memoir hold each candidate phrase (src/memoir/text.ts phrasesOf), stored so that a write costs
 * about what it adds rather than the size of the memoir.
 *
 * Every phrase ever written must be known, with its count: a phrase's second text makes it recurring, and most
 * phrases are held by one text only (some 6 bytes of them a character of memoir). Kept in one record, as they were,
 * every journal write rewrote them all (182 ms a write at 1,000 entries of 2 kB, growing without bound). Here they
 * are kept as a log-structured merge of segments:
 *
 * - a segment is an immutable sorted table "phrase TAB count", one a line, stored in chunk records of at most
 *   PHRASE_CHUNK_CHARS characters (collection MEMOIR_PHRASES, random ids: a chunk, once written, never changes);
 * - a phrase's count is the sum of its counts in every segment (a newer segment may hold -1 for an edited text);
 * - a write adds one segment of its own changes and merges it with the newest ones while the newer is at least half
 *   the older: the segments stay geometric, at most some log2(phrases) of them, and a phrase is rewritten that many
 *   times over its life, not at every write;
 * - chunks read or written are kept in memory by id (bounded; they are immutable, so a kept one is never stale, even
 *   with several instances), and a write reads only the small counts record and the chunks this process lacks.
 */
import { randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/** The largest chunk record, in characters (a segment of more lines is split). */
export const PHRASE_CHUNK_CHARS = 1_000_000;

/** A chunk of a segment as stored. */
export interface PhraseChunkRecord {
  [field: string]: unknown;
  id: string;
  ownerId: string;
  /** Lines "phrase TAB count", sorted by phrase (UTF-16 code units), joined by newlines. */
  lines: string;
}

/** A segment as the counts record lists it: the ids of its chunks, in phrase order. */
export type StoredSegment = string[];

/** One chunk, parsed: its text and where each line starts. */
class Chunk {
  private constructor(
    readonly text: string,
    readonly starts: Int32Array,
  ) {}

  /** The chunk of these lines, or undefined when they are not well formed (sorted, distinct, counts not zero). */
  static parse(text: unknown): Chunk | undefined {
    if (typeof text !== 'string' || text === '') return undefined;
    let lines = 1;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
    const starts = new Int32Array(lines);
    for (let line = 1, i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts[line++] = i + 1;
    const chunk = new Chunk(text, starts);
    let previous: string | undefined;
    for (let i = 0; i < lines; i++) {
      const key = chunk.key(i);
      const count = chunk.count(i);
      if (key === '' || !Number.isSafeInteger(count) || count === 0) return undefined;
      if (previous !== undefined && !(previous < key)) return undefined;
      previous = key;
    }
    return chunk;
  }

  get lines(): number {
    return this.starts.length;
  }

  #end(i: number): number {
    return i + 1 < this.starts.length ? this.starts[i + 1]! - 1 : this.text.length;
  }

  key(i: number): string {
    const start = this.starts[i]!;
    const tab = this.text.indexOf('\t', start);
    return tab === -1 || tab > this.#end(i) ? '' : this.text.slice(start, tab);
  }

  count(i: number): number {
    const start = this.starts[i]!;
    const tab = this.text.indexOf('\t', start);
    const digits = this.text.slice(tab + 1, this.#end(i));
    return /^-?[0-9]+$/.test(digits) ? Number(digits) : Number.NaN;
  }

  /** The count of phrase `p` in this chunk (0 when absent). */
  find(p: string): number {
    let lo = 0;
    let hi = this.starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.key(mid) < p) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.starts.length && this.key(lo) === p ? this.count(lo) : 0;
  }
}

/** A segment: its chunks in phrase order. */
class Segment {
  readonly firsts: string[];
  readonly lines: number;

  constructor(
    readonly ids: StoredSegment,
    readonly chunks: Chunk[],
  ) {
    this.firsts = chunks.map((c) => c.key(0));
    this.lines = chunks.reduce((n, c) => n + c.lines, 0);
  }

  count(p: string): number {
    // The last chunk whose first phrase is not after p.
    let lo = 0;
    let hi = this.firsts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.firsts[mid]! <= p) lo = mid + 1;
      else hi = mid;
    }
    return lo === 0 ? 0 : this.chunks[lo - 1]!.find(p);
  }

  *entries(): Generator<[string, number]> {
    for (const c of this.chunks) for (let i = 0; i < c.lines; i++) yield [c.key(i), c.count(i)];
  }
}

/** The default bound of the chunks kept in memory, in characters (see SVC_MEMOIR_PHRASE_CACHE, src/core/config.ts). */
export const PHRASE_CACHE_CHARS = 64_000_000;

const chunkCache = (maxChars: number) =>
  new LRUCache<string, Chunk>({ maxSize: maxChars, sizeCalculation: (c) => Math.max(1, c.text.length + 4 * c.lines) });

/**
 * Chunks kept by id, bounded by their characters plus 4 for each line's index (the phrases of some 4,000 entries of
 * 2 kB at the default); a memoir past it has its chunks read from the store at each write.
 */
let kept = chunkCache(PHRASE_CACHE_CHARS);

/** Bounds the chunks kept in memory (characters, plus 4 a line), forgetting those kept. */
export function sizePhraseCache(maxChars: number): void {
  kept = chunkCache(maxChars);
}

/** The bound of the chunks kept in memory. */
export const phraseCacheChars = (): number => kept.maxSize;

/** Forgets every chunk kept (tests: a cold process). */
export function forgetPhraseChunks(): void {
  kept.clear();
}

const isSegment = (s: unknown): s is StoredSegment =>
  Array.isArray(s) && s.length > 0 && s.every((id) => typeof id === 'string');

/**
 * Every phrase's count, as segments (stored, or made by this process) plus the changes not stored yet. Counts are
 * never negative in sum; a phrase at 0 is not held.
 */
export class PhraseCounts {
  #segments: Segment[];
  readonly #pending = new Map<string, number>();

  constructor(segments: Segment[] = []) {
    this.#segments = segments;
  }

  /**
   * The counts the stored segments describe, reading the chunks this process does not keep with `get`; undefined
   * when one is missing or malformed (the caller counts every text again).
   */
  static async load(
    stored: unknown,
    get: (id: string) => Promise<PhraseChunkRecord | undefined>,
  ): Promise<PhraseCounts | undefined> {
    if (!Array.isArray(stored) || !stored.every(isSegment)) return undefined;
    const segments: Segment[] = [];
    for (const ids of stored) {
      const chunks = await Promise.all(
        ids.map(async (id) => {
          const hit = kept.get(id);
          if (hit) return hit;
          const chunk = Chunk.parse((await get(id))?.lines);
          if (chunk) kept.set(id, chunk);
          return chunk;
        }),
      );
      if (!chunks.every((c): c is Chunk => c !== undefined)) return undefined;
      // A segment's chunks follow one another in phrase order.
      for (let i = 1; i < chunks.length; i++)
        if (!(chunks[i - 1]!.key(chunks[i - 1]!.lines - 1) < chunks[i]!.key(0))) return undefined;
      segments.push(new Segment(ids, chunks));
    }
    return new PhraseCounts(segments);
  }

  /** How many texts hold `p`. */
  count(p: string): number {
    let n = this.#pending.get(p) ?? 0;
    for (const s of this.#segments) n += s.count(p);
    return n;
  }

  /** One more (or one fewer) text holds `p`. */
  change(p: string, by: 1 | -1): void {
    const n = (this.#pending.get(p) ?? 0) + by;
    if (n === 0) this.#pending.delete(p);
    else this.#pending.set(p, n);
  }

  /** Every phrase held, with its count (reads every segment: for a recount of the recurring phrases, and tests). */
  all(): Map<string, number> {
    const out = new Map<string, number>();
    const add = (p: string, n: number) => {
      const m = (out.get(p) ?? 0) + n;
      if (m === 0) out.delete(p);
      else out.set(p, m);
    };
    for (const s of this.#segments) for (const [p, n] of s.entries()) add(p, n);
    for (const [p, n] of this.#pending) add(p, n);
    return out;
  }

  /** The segments as the counts record lists them (call `commit` first for the changes to be among them). */
  stored(): StoredSegment[] {
    return this.#segments.map((s) => s.ids);
  }

  /**
   * Makes the changes not stored yet a segment, merged with the newest segments while the newer holds at least half
   * as many lines as the older. Returns the chunk records to store (the caller deletes the chunks no longer listed).
   * `chunkChars`: the largest chunk (smaller in tests).
   */
  commit(ownerId: string, chunkChars: number = PHRASE_CHUNK_CHARS): PhraseChunkRecord[] {
    if (this.#pending.size === 0) return [];
    let lines = [...this.#pending].sort((a, b) => (a[0] < b[0] ? -1 : 1));
    this.#pending.clear();
    const segments = [...this.#segments];
    // Merge while the segment before holds at most twice as many lines.
    while (segments.length > 0 && lines.length * 2 >= segments[segments.length - 1]!.lines) {
      const older = segments.pop()!;
      lines = merged(older.entries(), lines, segments.length === 0);
    }
    const records: PhraseChunkRecord[] = [];
    if (lines.length > 0) {
      const ids: string[] = [];
      const chunks: Chunk[] = [];
      for (const text of chunked(lines, chunkChars)) {
        const id = `mphr_${ownerId}_${randomBytes(9).toString('base64url')}`;
        const chunk = Chunk.parse(text)!;
        kept.set(id, chunk);
        ids.push(id);
        chunks.push(chunk);
        records.push({ id, ownerId, lines: text });
      }
      segments.push(new Segment(ids, chunks));
    }
    this.#segments = segments;
    return records;
  }
}

/**
 * The sum of two sorted tables, without zeros. `oldest`: the result holds every count there is (no older segment),
 * so it keeps positive counts only.
 */
function merged(
  older: Iterable<[string, number]>,
  newer: Array<[string, number]>,
  oldest: boolean,
): Array<[string, number]> {
  const out: Array<[string, number]> = [];
  const keep = (p: string, n: number) => {
    if (n > 0 || (n < 0 && !oldest)) out.push([p, n]);
  };
  let j = 0;
  for (const [p, n] of older) {
    while (j < newer.length && newer[j]![0] < p) {
      keep(newer[j]![0], newer[j]![1]);
      j++;
    }
    if (j < newer.length && newer[j]![0] === p) {
      keep(p, n + newer[j]![1]);
      j++;
    } else keep(p, n);
  }
  for (; j < newer.length; j++) keep(newer[j]![0], newer[j]![1]);
  return out;
}

/** The lines of a sorted table, in texts of at most `chunkChars` characters (a longer line alone). */
function* chunked(lines: Array<[string, number]>, chunkChars: number): Generator<string> {
  let parts: string[] = [];
  let chars = 0;
  for (const [p, n] of lines) {
    const line = `${p}\t${n}`;
    if (parts.length > 0 && chars + line.length + 1 > chunkChars) {
      yield parts.join('\n');
      parts = [];
      chars = 0;
    }
    parts.push(line);
    chars += line.length + 1;
  }
  if (parts.length > 0) yield parts.join('\n');
}

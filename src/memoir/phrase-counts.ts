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
 *   times over its life, not at every write. A write merges at most MERGE_IN_WRITE_LINES lines in its transaction;
 *   a longer merge (the largest rewrite all the phrases) is left to a compaction after it, made in turns of the event
 *   loop outside any transaction and swapped in by one if the segments it merged are still listed;
 * - chunks read or written are kept in memory by id (bounded; they are immutable, so a kept one is never stale, even
 *   with several instances), and a write reads only the small counts record and the chunks this process lacks.
 */
import { randomBytes } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { atOnce, inTurns, type Steps } from './turns.js';

/** The largest chunk record, in characters (a segment of more lines is split). */
export const PHRASE_CHUNK_CHARS = 1_000_000;

/** The most lines a write merges in its own transaction (some tens of milliseconds); longer merges are compactions. */
export const MERGE_IN_WRITE_LINES = 50_000;

/** Lines a compaction merges between two turns of the event loop (a few milliseconds). */
const MERGE_SLICE = 10_000;

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

  /** The chunk of lines made by a merge (sorted, distinct, counts not zero: not checked again). */
  static of(lines: readonly string[]): Chunk {
    const starts = new Int32Array(lines.length);
    for (let i = 1, at = 0; i < lines.length; i++) starts[i] = at += lines[i - 1]!.length + 1;
    return new Chunk(lines.join('\n'), starts);
  }

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

  line(i: number): string {
    return this.text.slice(this.starts[i]!, this.#end(i));
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
}

/** A sorted table read in order by a merge: the current line's phrase and count (key undefined: read to its end). */
interface Cursor {
  key: string | undefined;
  count: number;
  /** The current line as stored. */
  line(): string;
  advance(): void;
}

class SegmentCursor implements Cursor {
  key: string | undefined;
  count = 0;
  #chunk = 0;
  #i = -1;

  constructor(readonly segment: Segment) {
    this.advance();
  }

  line(): string {
    return this.segment.chunks[this.#chunk]!.line(this.#i);
  }

  advance(): void {
    const chunks = this.segment.chunks;
    this.#i++;
    while (this.#chunk < chunks.length && this.#i >= chunks[this.#chunk]!.lines) {
      this.#chunk++;
      this.#i = 0;
    }
    if (this.#chunk >= chunks.length) {
      this.key = undefined;
      return;
    }
    const c = chunks[this.#chunk]!;
    this.key = c.key(this.#i);
    this.count = c.count(this.#i);
  }
}

class TableCursor implements Cursor {
  key: string | undefined;
  count = 0;
  #i = -1;

  constructor(readonly table: ReadonlyArray<readonly [string, number]>) {
    this.advance();
  }

  line(): string {
    return `${this.key}\t${this.count}`;
  }

  advance(): void {
    const row = this.table[++this.#i];
    this.key = row?.[0];
    this.count = row?.[1] ?? 0;
  }
}

/**
 * The lines of the sum of sorted tables, without zeros, yielding every MERGE_SLICE lines. `oldest`: no older segment
 * remains, so the sum holds every count there is and keeps positive ones only.
 */
function* mergeSteps(sources: Cursor[], oldest: boolean): Steps<string[]> {
  const out: string[] = [];
  let heads = sources.filter((c) => c.key !== undefined);
  let done = 0;
  while (heads.length > 0) {
    let min = heads[0]!.key!;
    for (const h of heads) if (h.key! < min) min = h.key!;
    let sum = 0;
    let at: Cursor | undefined;
    let n = 0;
    for (const h of heads)
      if (h.key === min) {
        sum += h.count;
        at = h;
        n++;
      }
    if (sum > 0 || (sum < 0 && !oldest)) out.push(n === 1 ? at!.line() : `${min}\t${sum}`);
    for (const h of heads) if (h.key === min) h.advance();
    if (heads.some((h) => h.key === undefined)) heads = heads.filter((h) => h.key !== undefined);
    if (++done % MERGE_SLICE === 0) yield;
  }
  return out;
}

/**
 * How many of the newest segments (line counts oldest first) the merge rule takes together: the newest and each older
 * one while the lines taken so far are at least half of it. 0 when that is the newest alone.
 */
function mergePlan(lines: readonly number[]): number {
  let k = 1;
  let acc = lines.at(-1) ?? 0;
  while (k < lines.length && acc * 2 >= lines[lines.length - 1 - k]!) acc += lines[lines.length - 1 - k++]!;
  return k >= 2 ? k : 0;
}

/** A merge made outside a transaction, to be swapped in for the segments it merged (see compactPhrases). */
export interface Compaction {
  /** The segments merged, as listed (consecutive, oldest first). */
  replaces: StoredSegment[];
  /** The merged segment (empty when every count summed to zero). */
  segment: StoredSegment;
  chunks: PhraseChunkRecord[];
}

/** The default bound of the chunks kept in memory, in characters (see SVC_MEMOIR_PHRASE_CACHE, src/core/config.ts). */
export const PHRASE_CACHE_CHARS = 64_000_000;

/** What a chunk costs the cache: its characters, and 4 bytes of index a line. */
const chunkSize = (c: Chunk) => Math.max(1, c.text.length + 4 * c.lines);

const chunkCache = (maxChars: number) => new LRUCache<string, Chunk>({ maxSize: maxChars, sizeCalculation: chunkSize });

/**
 * The share of the cache one memoir's chunks read from the store may take. Past it the rest are read and not kept: a
 * memoir larger than the cache, read whole at each write, would otherwise put out of a least-recently-used cache each
 * chunk just before its next use and read all of them every time; this way it reads only those past the share.
 */
const ONE_MEMOIR_SHARE = 0.75;

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
    let held = 0; // the cache these chunks take, kept or not
    for (const ids of stored) {
      const chunks = await Promise.all(
        ids.map(async (id) => {
          const hit = kept.get(id);
          if (hit) {
            held += chunkSize(hit);
            return hit;
          }
          const chunk = Chunk.parse((await get(id))?.lines);
          if (!chunk) return undefined;
          held += chunkSize(chunk);
          if (held <= kept.maxSize * ONE_MEMOIR_SHARE) kept.set(id, chunk);
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
    for (const s of this.#segments)
      for (const c = new SegmentCursor(s); c.key !== undefined; c.advance()) add(c.key, c.count);
    for (const [p, n] of this.#pending) add(p, n);
    return out;
  }

  /** The segments as the counts record lists them (call `commit` first for the changes to be among them). */
  stored(): StoredSegment[] {
    return this.#segments.map((s) => s.ids);
  }

  /**
   * Makes the changes not stored yet a segment, merged with the newest segments while the newer holds at least half
   * as many lines as the older, up to MERGE_IN_WRITE_LINES (`mergeInWrite`) in all. Returns the chunk records to store
   * (the caller deletes the chunks no longer listed). `chunkChars`: the largest chunk (smaller in tests).
   */
  commit(
    ownerId: string,
    { chunkChars = PHRASE_CHUNK_CHARS, mergeInWrite = MERGE_IN_WRITE_LINES }: MergeOptions = {},
  ): PhraseChunkRecord[] {
    if (this.#pending.size === 0) return [];
    const pending = [...this.#pending].sort((a, b) => (a[0] < b[0] ? -1 : 1));
    this.#pending.clear();
    const segments = this.#segments;
    let k = 0;
    for (let acc = pending.length; k < segments.length; k++) {
      const older = segments[segments.length - 1 - k]!;
      if (acc * 2 < older.lines || acc + older.lines > mergeInWrite) break;
      acc += older.lines;
    }
    const merging = segments.slice(segments.length - k);
    const lines = atOnce(
      mergeSteps([...merging.map((m) => new SegmentCursor(m)), new TableCursor(pending)], k === segments.length),
    );
    const made = atOnce(madeSegment(lines, ownerId, chunkChars));
    this.#segments = [...segments.slice(0, segments.length - k), ...(made ? [made.segment] : [])];
    return made?.records ?? [];
  }

  /** Whether the newest segments are due a merge longer than a write makes (see compaction). */
  compactionDue(): boolean {
    return mergePlan(this.#segments.map((s) => s.lines)) > 0;
  }

  /**
   * The merge the newest segments are due, made in turns of the event loop (nothing stored: see compactPhrases), or
   * undefined when none is due.
   */
  async compaction(
    ownerId: string,
    { chunkChars = PHRASE_CHUNK_CHARS }: MergeOptions = {},
  ): Promise<Compaction | undefined> {
    const k = mergePlan(this.#segments.map((s) => s.lines));
    if (k === 0) return undefined;
    const merging = this.#segments.slice(this.#segments.length - k);
    const lines = await inTurns(
      mergeSteps(
        merging.map((m) => new SegmentCursor(m)),
        k === this.#segments.length,
      ),
    );
    const made = await inTurns(madeSegment(lines, ownerId, chunkChars));
    return { replaces: merging.map((m) => m.ids), segment: made?.segment.ids ?? [], chunks: made?.records ?? [] };
  }
}

export interface MergeOptions {
  /** The largest chunk, in characters (PHRASE_CHUNK_CHARS; smaller in tests). */
  chunkChars?: number;
  /** The most lines a write merges (MERGE_IN_WRITE_LINES; smaller in tests). */
  mergeInWrite?: number;
}

/**
 * A segment of these lines, in chunks of at most `chunkChars` characters with new ids, kept; undefined for none.
 * Yields after each chunk.
 */
function* madeSegment(
  lines: readonly string[],
  ownerId: string,
  chunkChars: number,
): Steps<{ segment: Segment; records: PhraseChunkRecord[] } | undefined> {
  if (lines.length === 0) return undefined;
  const ids: string[] = [];
  const chunks: Chunk[] = [];
  const records: PhraseChunkRecord[] = [];
  let from = 0;
  while (from < lines.length) {
    let to = from;
    for (let chars = 0; to < lines.length && (to === from || chars + lines[to]!.length + 1 <= chunkChars); to++)
      chars += lines[to]!.length + 1;
    const chunk = Chunk.of(lines.slice(from, to));
    const id = `mphr_${ownerId}_${randomBytes(9).toString('base64url')}`;
    kept.set(id, chunk);
    ids.push(id);
    chunks.push(chunk);
    records.push({ id, ownerId, lines: chunk.text });
    from = to;
    yield;
  }
  return { segment: new Segment(ids, chunks), records };
}

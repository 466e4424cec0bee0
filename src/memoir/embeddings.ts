/**
 * Embeddings of memoir passages from the configured OpenAI-compatible server (langchain's OpenAIEmbeddings, the
 * same server as the chat model), cached per model and text in the store so a passage is embedded once.
 *
 * The cache lives in the account of whoever asks: the owner's chat caches in the owner's account, an heir's chat in
 * the heir's (the heir's view of the owner's memoir is read-only). Records are reached through that account's view
 * of the store, like every other memoir record, and hold only the vector and a hash of the text, never the text. The
 * vector is kept as 32-bit floats (what embedding models give), in base64.
 *
 * A chat compares the question with every passage of the memoir, so it needs every passage's vector at each question.
 * The vectors read or made are also kept in memory (bounded: SVC_MEMOIR_VECTOR_CACHE, VECTOR_CACHE_BYTES) by
 * record id: an id is the account, the model and the text's hash, so a kept vector is the stored one, and the next
 * question reads from the store only the vectors this process does not keep.
 */
import { createHash } from 'node:crypto';
import { endianness } from 'node:os';
import { LRUCache } from 'lru-cache';
import type { EmbeddingsInterface } from '@langchain/core/embeddings';
import type { Store } from '../store/port.js';
import type { Config } from '../core/config.js';
import { withModelPlace } from './model-calls.js';
import { turn } from './turns.js';
import { MEMOIR_EMBEDDINGS } from './records.js';

type LlmConfig = NonNullable<Config['llm']>;

/** The embedding model asked for when none is configured. */
export const DEFAULT_EMBEDDING_MODEL = 'text-embedding-3-small';

export interface EmbeddingRecord {
  [field: string]: unknown;
  id: string;
  ownerId: string;
  model: string;
  /** The vector as 32-bit floats (little-endian), in base64: about a quarter of the same vector in JSON numbers. */
  f32?: string;
  /** The vector as JSON numbers: records written before `f32`, still read. */
  vector?: number[];
  createdAt: string;
}

const LITTLE_ENDIAN = endianness() === 'LE';

/** A vector as a record keeps it (`f32`): its 32-bit floats, little-endian, in base64. */
export function packVector(vector: readonly number[] | Float32Array): string {
  const f32 = vector instanceof Float32Array ? vector : Float32Array.from(vector);
  if (LITTLE_ENDIAN) return Buffer.from(f32.buffer, f32.byteOffset, f32.byteLength).toString('base64');
  const bytes = Buffer.alloc(f32.byteLength);
  for (let i = 0; i < f32.length; i++) bytes.writeFloatLE(f32[i]!, i * 4);
  return bytes.toString('base64');
}

/** Whether every value of `v` is a number: a NaN or an infinity anywhere makes the sum one (a sum of float32 values cannot overflow a double). */
function allFinite(v: Float32Array): boolean {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]!;
  return Number.isFinite(sum);
}

/** A vector: 32-bit floats as stored, or JSON numbers from a record written before them. */
export type Vector = Float32Array | number[];

/** The vector a record keeps, or undefined when it keeps none that can be read (then it is asked for again). */
export function vectorOf(r: EmbeddingRecord): Vector | undefined {
  if (typeof r.f32 === 'string') {
    // The size the text decodes to: text that is not all base64 decodes to fewer bytes and is not read.
    const size = Buffer.byteLength(r.f32, 'base64');
    if (size === 0 || size % 4 !== 0) return undefined;
    const out = new Float32Array(size / 4);
    if (LITTLE_ENDIAN) {
      // Decoded straight into the vector's own memory (a chat's first question after a start decodes every passage's
      // vector: a buffer decoded and then viewed cost twice the time, most of it the allocation).
      if (Buffer.from(out.buffer).write(r.f32, 'base64') !== size) return undefined;
    } else {
      const bytes = Buffer.from(r.f32, 'base64');
      if (bytes.length !== size) return undefined;
      for (let i = 0; i < out.length; i++) out[i] = bytes.readFloatLE(i * 4);
    }
    return allFinite(out) ? out : undefined;
  }
  return Array.isArray(r.vector) && r.vector.every((x) => typeof x === 'number') ? r.vector : undefined;
}

/** What retrieval needs from embeddings: the vectors of some texts, in order. */
export interface Embedder {
  model: string;
  embed(texts: readonly string[]): Promise<Vector[]>;
}

/**
 * The default bound of the vectors kept in memory, in bytes (SVC_MEMOIR_VECTOR_CACHE): some 10,000 vectors of 1,536
 * dimensions, the passages of about 350 journal entries of 2 kB.
 */
export const VECTOR_CACHE_BYTES = 64_000_000;

const vectorCache = (maxBytes: number) =>
  new LRUCache<string, Float32Array>({ maxSize: maxBytes, sizeCalculation: (v) => v.byteLength + 64 });

/** Vectors read or made, by record id (32-bit ones only: those are what the store keeps). */
let keptVectors = vectorCache(VECTOR_CACHE_BYTES);

/** Bounds the vectors kept in memory (bytes), forgetting those kept. */
export function sizeVectorCache(maxBytes: number): void {
  keptVectors = vectorCache(maxBytes);
}

/** The bound of the vectors kept in memory, in bytes. */
export const vectorCacheBytes = (): number => keptVectors.maxSize;

/**
 * Passages per request to the provider, on every path (a question's missing passages, the embedding ahead). The answer
 * is parsed in the main thread: 64 vectors of 1,536 dimensions are some 2 MB of JSON numbers, a few tens of
 * milliseconds of the event loop, where langchain's own batch of 512 held it for the better part of a second (and a
 * question with 871 passages missing held it 139 to 155 ms at once, every other account's request waiting).
 */
export const EMBED_REQUEST_INPUTS = 64;

/**
 * A question's requests to the provider under way at once (langchain's `maxConcurrency`, which defaults to 2): its
 * missing passages go in requests of EMBED_REQUEST_INPUTS, so that a memoir not embedded ahead is not a dozen round
 * trips one after the other while the person waits.
 */
export const EMBED_CONCURRENT_REQUESTS = 4;

const clients = new WeakMap<LlmConfig, EmbeddingsInterface>();

/** The embeddings client of a configuration (one per configuration); langchain is loaded with the first one. */
async function clientFor(llm: LlmConfig): Promise<EmbeddingsInterface> {
  let client = clients.get(llm);
  if (!client) {
    const { OpenAIEmbeddings } = await import('@langchain/openai');
    client = clients.get(llm);
    if (client) return client;
    client = new OpenAIEmbeddings({
      model: llm.embeddingModel ?? DEFAULT_EMBEDDING_MODEL,
      apiKey: llm.apiKey,
      configuration: { baseURL: llm.baseUrl },
      encodingFormat: 'float',
      batchSize: EMBED_REQUEST_INPUTS,
      maxConcurrency: EMBED_CONCURRENT_REQUESTS,
      maxRetries: 1,
      timeout: 60_000,
    });
    clients.set(llm, client);
  }
  return client;
}

const cacheId = (ownerId: string, model: string, text: string) =>
  `memb_${ownerId}_${createHash('sha256').update(model).update('\n').update(text).digest('base64url').slice(0, 32)}`;

/**
 * Past this many vectors to read, the account's are read in one query rather than one by one: a chat's first question
 * after a start needs every passage's (on PostgreSQL, 8,700 reads one by one took 1.2 to 1.7 s, the account's vectors
 * in one query 0.23 to 0.29 s). The account's also holds its questions' and its texts' before an edit, which one by one
 * would not read: below it, one by one reads less.
 */
export const MANY_VECTOR_READS = 256;

/**
 * The most of a text sent to be embedded, in UTF-16 code units. A passage is two sentences, but a text without
 * sentence ends (a recording's transcript, a long paragraph typed without spaces after its full stops) is one
 * passage, and past the model's input limit (8,191 tokens for OpenAI's: some 4 characters a token in English, one or
 * two in Chinese) the provider refuses the whole request, so that memoir's chat could never use its embeddings. Such a
 * passage is embedded by its beginning; its words are all searched by the lexical retrieval.
 */
export const EMBED_MAX_CHARS = 4_000;

/** `text` as it is sent to be embedded: its first EMBED_MAX_CHARS code units, never half a surrogate pair. */
export function embeddable(text: string): string {
  if (text.length <= EMBED_MAX_CHARS) return text;
  const last = text.charCodeAt(EMBED_MAX_CHARS - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? EMBED_MAX_CHARS - 1 : EMBED_MAX_CHARS);
}

/**
 * Stored vectors decoded between two turns of the event loop (some 4 to 6 ms for 500 of 1,536 dimensions on a quiet
 * machine); and texts hashed into their records' ids between two turns (a few milliseconds for 1,000 passages).
 */
export const DECODE_SLICE = 500;

/**
 * Vectors from the provider packed between two turns of the event loop (some 10 to 20 µs each for 1,536 dimensions:
 * 871 of them, a first question in a memoir of 30 entries not embedded ahead, held the loop 7 to 20 ms at once).
 */
export const PACK_SLICE = 128;

/**
 * New vectors stored in one transaction, the next in another. On lowdb a transaction's records are copied and handed
 * to its writer at once: the 8,700 vectors of a question in a memoir of 300 entries not embedded ahead (some 70 MB of
 * text) held the event loop 144 ms in one transaction.
 */
export const STORE_SLICE = 512;

/** The stored records among `ids` (those of `ownerId`'s account, through its view `store`). */
async function storedVectors(store: Store, ownerId: string, ids: readonly string[]): Promise<EmbeddingRecord[]> {
  if (ids.length <= MANY_VECTOR_READS)
    return (await Promise.all(ids.map((id) => store.get<EmbeddingRecord>(MEMOIR_EMBEDDINGS, id)))).filter(
      (r): r is EmbeddingRecord => r !== undefined,
    );
  const wanted = new Set(ids);
  return (await store.findBy<EmbeddingRecord>(MEMOIR_EMBEDDINGS, 'ownerId', ownerId)).filter((r) => wanted.has(r.id));
}

/**
 * An embedder for `llm` whose vectors are cached in `store` (an account view) under `ownerId`: texts already embedded
 * with this model are read back, the others are asked for in one request and kept. With `keep: false` the vectors it
 * reads or makes are not added to those kept in memory (a background catch-up going through every memoir would push
 * out the vectors of the accounts asking meanwhile); those already kept are still used.
 */
export function cachedEmbedder(
  llm: LlmConfig,
  store: Store,
  ownerId: string,
  now: () => Date,
  opts: { keep?: boolean } = {},
): Embedder {
  const keep = opts.keep !== false;
  const model = llm.embeddingModel ?? DEFAULT_EMBEDDING_MODEL;
  return {
    model,
    async embed(texts) {
      // A first question after a start in a memoir of 300 entries hashes 8,700 passages, then reads and decodes their
      // vectors: some 40 ms of the event loop at once, before these slices.
      const ids: string[] = [];
      for (const [i, text] of texts.entries()) {
        if (i > 0 && i % (2 * DECODE_SLICE) === 0) await turn();
        ids.push(cacheId(ownerId, model, text));
      }
      const known = new Map<string, Vector>();
      const unkept: string[] = [];
      for (const id of new Set(ids)) {
        const kept = keptVectors.get(id);
        if (kept) known.set(id, kept);
        else unkept.push(id);
      }
      let decoded = 0;
      const stored = await storedVectors(store, ownerId, unkept);
      if (stored.length > DECODE_SLICE) await turn();
      for (const r of stored) {
        // Thousands of vectors to decode (a first question after a start): other requests get turns between slices.
        if (++decoded % DECODE_SLICE === 0) await turn();
        const vector = r.model === model ? vectorOf(r) : undefined;
        if (!vector) continue;
        known.set(r.id, vector);
        if (keep && vector instanceof Float32Array) keptVectors.set(r.id, vector);
      }
      const missing = [...new Set(ids.filter((id) => !known.has(id)))];
      if (missing.length) {
        const textOf = new Map(ids.map((id, i) => [id, texts[i]!]));
        const client = await clientFor(llm);
        const vectors = await withModelPlace(undefined, () =>
          client.embedDocuments(missing.map((id) => embeddable(textOf.get(id)!))),
        );
        const createdAt = now().toISOString();
        const records: EmbeddingRecord[] = [];
        // The vectors as they will be read back (32-bit), so that the first answer is the one the next would be; one
        // that holds a NaN or an infinity is not read back (it is asked for again), and answers as the provider gave it.
        const readBack: (Float32Array | undefined)[] = [];
        for (const [i, id] of missing.entries()) {
          // Hundreds of vectors to pack (a first question in a memoir not embedded ahead): other requests get turns.
          if (i > 0 && i % PACK_SLICE === 0) await turn();
          const f32 = Float32Array.from(vectors[i]!);
          records.push({ id, ownerId, model, f32: packVector(f32), createdAt });
          readBack.push(allFinite(f32) ? f32 : undefined);
        }
        // Stored STORE_SLICE to a transaction, one after the other, so that no single commit holds the event loop for
        // the whole memoir.
        for (let i = 0; i < records.length; i += STORE_SLICE) {
          const slice = records.slice(i, i + STORE_SLICE);
          await store.transact(async (tx) => {
            for (const r of slice) await tx.put(MEMOIR_EMBEDDINGS, r);
          });
        }
        // Kept once the records are stored.
        records.forEach((r, i) => {
          const vector = readBack[i];
          known.set(r.id, vector ?? vectors[i]!);
          if (keep && vector) keptVectors.set(r.id, vector);
        });
      }
      return ids.map((id) => known.get(id)!);
    },
  };
}

/** Cosine similarity of two vectors (0 when either is all zeros or their lengths differ). */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

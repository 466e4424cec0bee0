import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountStore } from '../../src/accounts/tenancy.js';
import {
  cachedEmbedder,
  type EmbeddingRecord,
  DECODE_SLICE,
  EMBED_CONCURRENT_REQUESTS,
  EMBED_REQUEST_INPUTS,
  MANY_VECTOR_READS,
  PACK_SLICE,
  packVector,
  STORE_SLICE,
  sizeVectorCache,
  VECTOR_CACHE_BYTES,
  vectorOf,
} from '../../src/memoir/embeddings.js';
import { MEMOIR_EMBEDDINGS } from '../../src/memoir/records.js';
import type { IndexValue, Store } from '../../src/store/port.js';
import { tmpStore } from '../helpers.js';
import { type OpenAiStandin, startOpenAiStandin } from '../support/openai-standin.js';
import { ticker, until } from '../support/loop.js';
import { overriding, wrapTransactions } from '../support/store-wrap.js';

// The embeddings a chat keeps are stored as 32-bit floats in base64 (what embedding models give): about a quarter of
// the same vector in JSON numbers, for a cache that holds a vector per passage of the memoir. Records written before
// (JSON numbers) are still read; a record that does not hold a readable vector is asked for again.

let store: Store;
let cleanup: () => Promise<void>;
let standin: OpenAiStandin;
const OWNER = 'acct_EMBEDDINGRECORDS000000000000';
const llm = { baseUrl: '', apiKey: 'sk-standin', model: 'standin-1', embeddingModel: 'standin-embed' };

beforeAll(async () => {
  ({ store, cleanup } = await tmpStore());
  standin = await startOpenAiStandin();
  llm.baseUrl = standin.baseUrl;
});
afterAll(async () => {
  sizeVectorCache(VECTOR_CACHE_BYTES);
  await standin.close();
  await cleanup();
});

/** A view of the store that counts the embedding records it is asked for, one by one and by account. */
function countingGets(view: Store): { store: Store; gets: () => number; lists: () => number } {
  let gets = 0;
  let lists = 0;
  const store = overriding(view, {
    get: (collection: string, id: string) => {
      if (collection === MEMOIR_EMBEDDINGS) gets++;
      return view.get(collection, id);
    },
    findBy: (collection: string, field: string, value: IndexValue) => {
      if (collection === MEMOIR_EMBEDDINGS) lists++;
      return view.findBy(collection, field, value);
    },
  });
  return { store, gets: () => gets, lists: () => lists };
}

/** A deterministic vector like a model's: 1,536 floats in (-1, 1). */
function modelLike(seed: number): number[] {
  let x = seed;
  return Array.from({ length: 1536 }, () => (x = (Math.imul(x, 1_103_515_245) + 12_345) >>> 0) / 2 ** 31 - 1);
}

describe('an embedding record', () => {
  it('keeps the vector as 32-bit floats, read back as written to 32-bit precision, in under a third of the JSON', () => {
    const vector = modelLike(7);
    const packed = packVector(vector);
    expect(packed.length).toBeLessThan(JSON.stringify(vector).length / 3);
    const read = vectorOf({ id: 'x', ownerId: OWNER, model: 'm', f32: packed, createdAt: '' })!;
    expect(read).toHaveLength(1536);
    read.forEach((v, i) => expect(v).toBe(Math.fround(vector[i]!)));
    // One written before: JSON numbers, read as they are.
    expect(vectorOf({ id: 'x', ownerId: OWNER, model: 'm', vector, createdAt: '' })).toEqual(vector);
    // Not a vector: nothing read (nor one holding a NaN or an infinity, wherever it is).
    const at = (i: number, x: number) => packVector(vector.map((v, j) => (j === i ? x : v)));
    for (const bad of [
      { f32: 'abc' },
      { f32: '' },
      { vector: ['1'] },
      {},
      { f32: at(0, Number.NaN) },
      { f32: at(1535, Number.POSITIVE_INFINITY) },
      { f32: at(700, Number.NEGATIVE_INFINITY) },
    ])
      expect(vectorOf({ id: 'x', ownerId: OWNER, model: 'm', createdAt: '', ...bad } as EmbeddingRecord)).toBe(
        undefined,
      );
  });

  it('is stored packed by the cached embedder, which reads older records and asks again for an unreadable one', async () => {
    standin.embedWith((text) => modelLike(text.length));
    const view = accountStore(store, OWNER);
    const embedder = cachedEmbedder(llm, view, OWNER, () => new Date());
    const texts = ['We sailed from Hull in 1952.', 'Frank grew leeks on the allotment.', 'Mother sang in the choir.'];
    let asked = standin.embeddingRequests.length;
    const first = await embedder.embed(texts);
    expect(standin.embeddingRequests.length).toBe(asked + 1);
    const records = await store.findBy<EmbeddingRecord>(MEMOIR_EMBEDDINGS, 'ownerId', OWNER);
    expect(records).toHaveLength(3);
    for (const r of records) {
      expect(typeof r.f32).toBe('string');
      expect(r.vector).toBeUndefined();
    }
    // The first answer is the one read back later: the same 32-bit values.
    first.forEach((v, i) => expect(Array.from(v)).toEqual(modelLike(texts[i]!.length).map(Math.fround)));
    // An older record (JSON numbers) is read as it is; an unreadable one is asked for again, alone (in a process that
    // does not keep the vectors it read: a kept one is the stored one, by its id).
    sizeVectorCache(VECTOR_CACHE_BYTES);
    const [older, broken] = records as [EmbeddingRecord, EmbeddingRecord];
    const { f32: _older, ...olderRest } = older;
    await store.put(MEMOIR_EMBEDDINGS, { ...olderRest, vector: [1, 2, 3] });
    await store.put(MEMOIR_EMBEDDINGS, { ...broken, f32: 'AAA' });
    asked = standin.embeddingRequests.length;
    const again = await embedder.embed(texts);
    expect(standin.embeddingRequests.length).toBe(asked + 1);
    expect(standin.embeddingRequests.at(-1)!.input).toHaveLength(1);
    expect(again).toContainEqual([1, 2, 3]);
  });

  it(`answers what it will read back for ${2 * PACK_SLICE + 3} new vectors, packed in slices; one past 32 bits as given, and asked again`, async () => {
    // 1e39 is past the largest 32-bit float: stored, it reads back as an infinity, so that record is not read.
    const huge = (text: string) => modelLike(text.length * 5 + 3).map((v, i) => (i === 9 ? 1e39 : v));
    standin.embedWith((text) => (text.includes('the flood') ? huge(text) : modelLike(text.length * 5 + 3)));
    const owner = 'acct_EMBEDDINGPACKED000000000000';
    const view = accountStore(store, owner);
    const texts = Array.from(
      { length: 2 * PACK_SLICE + 3 },
      (_, i) => `Passage ${i}: ${i === PACK_SLICE + 1 ? 'the flood of 1953' : 'the harvest'} ${'again '.repeat(i % 7)}`,
    );
    sizeVectorCache(VECTOR_CACHE_BYTES);
    const made = await cachedEmbedder(llm, view, owner, () => new Date()).embed(texts);
    expect(made).toHaveLength(texts.length);
    made.forEach((v, i) => {
      if (i === PACK_SLICE + 1) expect(v).toEqual(huge(texts[i]!));
      else expect(Array.from(v)).toEqual(modelLike(texts[i]!.length * 5 + 3).map(Math.fround));
    });
    const stored = await store.findBy<EmbeddingRecord>(MEMOIR_EMBEDDINGS, 'ownerId', owner);
    expect(stored).toHaveLength(texts.length);
    // From a start, the same vectors come back from the store, and the one that could not be stored is asked again.
    sizeVectorCache(VECTOR_CACHE_BYTES);
    const asked = standin.embeddingRequests.length;
    const read = await cachedEmbedder(llm, view, owner, () => new Date()).embed(texts);
    expect(standin.embeddingRequests.slice(asked).map((r) => r.input)).toEqual([[texts[PACK_SLICE + 1]]]);
    expect(read.map((v) => Array.from(v))).toEqual(made.map((v) => Array.from(v)));
    sizeVectorCache(VECTOR_CACHE_BYTES);
  });

  it('are kept in memory once read or made: the next question reads none of them from the store, past the bound it does', async () => {
    standin.embedWith((text) => modelLike(text.length * 3));
    const owner = 'acct_EMBEDDINGKEPT00000000000000';
    const { store: view, gets } = countingGets(accountStore(store, owner));
    const texts = Array.from(
      { length: 40 },
      (_, i) => `Passage ${i}: ${'we walked by the river '.repeat(1 + (i % 5))}`,
    );
    sizeVectorCache(VECTOR_CACHE_BYTES);
    const embedder = cachedEmbedder(llm, view, owner, () => new Date());
    const first = await embedder.embed(texts);
    const read = gets();
    expect(read).toBe(texts.length); // looked for once, then made and kept
    const again = await embedder.embed(texts);
    expect(gets()).toBe(read);
    expect(again.map((v) => Array.from(v))).toEqual(first.map((v) => Array.from(v)));
    // Kept for a new embedder too (the next request's), and what is kept is what the store holds.
    sizeVectorCache(VECTOR_CACHE_BYTES);
    const fromStore = await cachedEmbedder(llm, view, owner, () => new Date()).embed(texts);
    expect(gets()).toBe(read + texts.length);
    expect(fromStore.map((v) => Array.from(v))).toEqual(first.map((v) => Array.from(v)));
    await cachedEmbedder(llm, view, owner, () => new Date()).embed(texts);
    expect(gets()).toBe(read + texts.length);
    // Bounded: room for 10 vectors, so the 40 are read again at each question.
    sizeVectorCache(10 * (1536 * 4 + 64));
    await embedder.embed(texts);
    const bounded = gets();
    await embedder.embed(texts);
    expect(gets() - bounded).toBeGreaterThanOrEqual(30);
    sizeVectorCache(VECTOR_CACHE_BYTES);
  });

  it(`stores new vectors ${STORE_SLICE} to a transaction, one transaction after the other`, async () => {
    standin.embedWith((text) => modelLike(text.length * 11 + 1));
    const owner = 'acct_EMBEDDINGSTORED000000000000';
    let puts = 0;
    const sizes: number[] = [];
    let open = 0;
    let most = 0;
    const view = wrapTransactions(
      accountStore(store, owner),
      (tx) =>
        overriding(tx, {
          put: (c: string, doc: EmbeddingRecord) => {
            if (c === MEMOIR_EMBEDDINGS) puts += 1;
            return tx.put(c, doc);
          },
        }),
      () => {
        sizes.push(puts);
        most = Math.max(most, ++open);
      },
    );
    const counted = overriding(view, {
      transact: async (fn: Parameters<Store['transact']>[0], opts?: Parameters<Store['transact']>[1]) => {
        try {
          return await view.transact(fn, opts);
        } finally {
          open -= 1;
        }
      },
    });
    const texts = Array.from({ length: 2 * STORE_SLICE + 3 }, (_, i) => `Entry ${i}: the ${'old '.repeat(i % 5)}mill.`);
    sizeVectorCache(VECTOR_CACHE_BYTES);
    await cachedEmbedder(llm, counted, owner, () => new Date()).embed(texts);
    // Each transaction's puts: the counts when the next began, and at the end.
    const perTransaction = [...sizes.slice(1), puts].map((n, i) => n - sizes[i]!);
    expect(perTransaction).toEqual([STORE_SLICE, STORE_SLICE, 3]);
    expect(most).toBe(1);
    expect(await store.findBy(MEMOIR_EMBEDDINGS, 'ownerId', owner)).toHaveLength(texts.length);
    sizeVectorCache(VECTOR_CACHE_BYTES);
  });

  it(`past ${MANY_VECTOR_READS} to read, the account's vectors are read in one query, and the same ones come back`, async () => {
    standin.embedWith((text) => modelLike(text.length * 7 + 1));
    const owner = 'acct_EMBEDDINGMANY00000000000000';
    const { store: view, gets, lists } = countingGets(accountStore(store, owner));
    const texts = Array.from(
      { length: MANY_VECTOR_READS + 40 },
      (_, i) => `Passage ${i} about the ${'long '.repeat(i % 9)}road.`,
    );
    sizeVectorCache(VECTOR_CACHE_BYTES);
    const made = await cachedEmbedder(llm, view, owner, () => new Date()).embed(texts);
    expect(lists()).toBe(1); // looked for in one query, then made
    expect(gets()).toBe(0);
    // Another account's vectors, and this account's of texts not asked for, are in the store beside them.
    await cachedEmbedder(llm, accountStore(store, OWNER), OWNER, () => new Date()).embed(texts.slice(0, 3));
    await cachedEmbedder(llm, view, owner, () => new Date()).embed(['A question asked before.']);
    const asked = standin.embeddingRequests.length;
    // A start: nothing kept. Every vector is read back, in one query, and nothing is asked of the provider.
    sizeVectorCache(VECTOR_CACHE_BYTES);
    const read = await cachedEmbedder(llm, view, owner, () => new Date()).embed(texts);
    expect(lists()).toBe(2);
    expect(standin.embeddingRequests.length).toBe(asked);
    expect(read.map((v) => Array.from(v))).toEqual(made.map((v) => Array.from(v)));
    // A few to read: one by one, as before.
    sizeVectorCache(VECTOR_CACHE_BYTES);
    const before = gets();
    await cachedEmbedder(llm, view, owner, () => new Date()).embed(texts.slice(0, 5));
    expect(gets() - before).toBe(5);
    expect(lists()).toBe(2);
    // Decoded in slices: the event loop turned between them (a turn taken each time it could).
    sizeVectorCache(VECTOR_CACHE_BYTES);
    const many = Array.from({ length: 2 * DECODE_SLICE + 10 }, (_, i) => `Another passage, number ${i}.`);
    await cachedEmbedder(llm, view, owner, () => new Date()).embed(many);
    sizeVectorCache(VECTOR_CACHE_BYTES);
    const loop = ticker();
    await cachedEmbedder(llm, view, owner, () => new Date()).embed(many);
    // It reads back what the first stored: the lowdb store answers at once, so the loop's turns are the slices': one
    // after hashing the first 2 × DECODE_SLICE texts into ids, one once the vectors are read, one after each
    // DECODE_SLICE decoded.
    expect(loop.stop()).toBeGreaterThanOrEqual(4);
    sizeVectorCache(VECTOR_CACHE_BYTES);
  });

  it(`sends a question's missing passages ${EMBED_REQUEST_INPUTS} to a request, ${EMBED_CONCURRENT_REQUESTS} requests at once, and answers each text its own vector`, async () => {
    // Each answer is parsed in the main thread: langchain's batch of 512 held the event loop a tenth of a second and
    // more for every other account's request.
    const seed = (text: string) => Number(/\d+/.exec(text)![0]) * 13 + 5;
    standin.embedWith((text) => modelLike(seed(text)));
    const owner = 'acct_EMBEDDINGBATCH0000000000000';
    const texts = Array.from(
      { length: 5 * EMBED_REQUEST_INPUTS + 10 },
      (_, i) => `Letter ${i} from the farm, and the weather there.`,
    );
    sizeVectorCache(VECTOR_CACHE_BYTES);
    const asked = standin.embeddingRequests.length;
    const hold = standin.holdEmbeddings();
    let vectors: Awaited<ReturnType<ReturnType<typeof cachedEmbedder>['embed']>> | undefined;
    const embedding = cachedEmbedder(llm, accountStore(store, owner), owner, () => new Date())
      .embed(texts)
      .then((v) => (vectors = v));
    try {
      // As many requests under way as allowed, no more: held, so that those a looser client sent would be seen.
      await until(() => hold.inFlight() >= EMBED_CONCURRENT_REQUESTS);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(hold.peak()).toBe(EMBED_CONCURRENT_REQUESTS);
    } finally {
      hold.release();
    }
    await embedding;
    expect(hold.peak()).toBe(EMBED_CONCURRENT_REQUESTS);
    const sent = standin.embeddingRequests.slice(asked).map((r) => r.input);
    expect(sent.map((input) => input.length).sort((a, b) => a - b)).toEqual([
      10,
      ...Array(5).fill(EMBED_REQUEST_INPUTS),
    ]);
    expect(sent.flat().sort()).toEqual([...texts].sort());
    expect(vectors!.map((v) => Array.from(v))).toEqual(texts.map((t) => modelLike(seed(t)).map(Math.fround)));
  });
});

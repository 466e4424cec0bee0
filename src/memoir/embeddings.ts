/**
 * Embeddings of memoir passages from the configured OpenAI-compatible server (langchain's OpenAIEmbeddings, the
 * same server as the chat model), cached per model and text in the store so a passage is embedded once.
 *
 * The cache lives in the account of whoever asks: the owner's chat caches in the owner's account, an heir's chat in
 * the heir's (the heir's view of the owner's memoir is read-only). Records are reached through that account's view
 * of the store, like every other memoir record, and hold only the vector and a hash of the text, never the text.
 */
import { createHash } from 'node:crypto';
import type { EmbeddingsInterface } from '@langchain/core/embeddings';
import type { Store } from '../store/port.js';
import type { Config } from '../core/config.js';
import { withModelPlace } from './model-calls.js';
import { MEMOIR_EMBEDDINGS } from './records.js';

type LlmConfig = NonNullable<Config['llm']>;

/** The embedding model asked for when none is configured. */
export const DEFAULT_EMBEDDING_MODEL = 'text-embedding-3-small';

export interface EmbeddingRecord {
  [field: string]: unknown;
  id: string;
  ownerId: string;
  model: string;
  vector: number[];
  createdAt: string;
}

/** What retrieval needs from embeddings: the vectors of some texts, in order. */
export interface Embedder {
  model: string;
  embed(texts: readonly string[]): Promise<number[][]>;
}

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
 * An embedder for `llm` whose vectors are cached in `store` (an account view) under `ownerId`: texts already embedded
 * with this model are read back, the others are asked for in one request and kept.
 */
export function cachedEmbedder(llm: LlmConfig, store: Store, ownerId: string, now: () => Date): Embedder {
  const model = llm.embeddingModel ?? DEFAULT_EMBEDDING_MODEL;
  return {
    model,
    async embed(texts) {
      const ids = texts.map((t) => cacheId(ownerId, model, t));
      const known = new Map<string, number[]>();
      const stored = await Promise.all(
        [...new Set(ids)].map((id) => store.get<EmbeddingRecord>(MEMOIR_EMBEDDINGS, id)),
      );
      for (const r of stored) if (r && r.model === model && Array.isArray(r.vector)) known.set(r.id, r.vector);
      const missing = [...new Set(ids.filter((id) => !known.has(id)))];
      if (missing.length) {
        const textOf = new Map(ids.map((id, i) => [id, texts[i]!]));
        const client = await clientFor(llm);
        const vectors = await withModelPlace(undefined, () =>
          client.embedDocuments(missing.map((id) => textOf.get(id)!)),
        );
        const createdAt = now().toISOString();
        const records: EmbeddingRecord[] = missing.map((id, i) => ({
          id,
          ownerId,
          model,
          vector: vectors[i]!,
          createdAt,
        }));
        await store.transact(async (tx) => {
          for (const r of records) await tx.put(MEMOIR_EMBEDDINGS, r);
        });
        for (const r of records) known.set(r.id, r.vector);
      }
      return ids.map((id) => known.get(id)!);
    },
  };
}

/** Cosine similarity of two vectors (0 when either is all zeros or their lengths differ). */
export function cosine(a: readonly number[], b: readonly number[]): number {
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

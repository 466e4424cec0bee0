/**
 * The places for calls to the language model provider (chat answers, embeddings, photo descriptions): at most
 * `modelCalls.size` at once (SVC_MODEL_CONCURRENCY, default 16), handed out fairly across accounts
 * (src/core/fair-slots.ts). Every account shares the service's one provider key and its rate limit, so without a
 * bound one account's burst of chats would fill the provider's quota and every other account's calls would wait for
 * it, or fail with the provider's 429; with it, another account's call waits for at most one call per place.
 */
import { FairSlots } from '../core/fair-slots.js';

const DEFAULT_CONCURRENCY = 16;
const DEFAULT_WAIT_MS = 30_000;

export const modelCalls = new FairSlots({
  name: 'The language model',
  size: DEFAULT_CONCURRENCY,
  maxQueue: 20,
  maxWaitMs: DEFAULT_WAIT_MS,
  typicalMs: 5_000,
  noun: ['model call', 'model calls'],
});

/** Sizes the places (default 16) and their wait limit (default 30 s), as the service is configured. */
export function configureModelCalls(concurrency: number | undefined, maxWaitMs: number | undefined): void {
  modelCalls.configure({ size: concurrency ?? DEFAULT_CONCURRENCY, maxWaitMs: maxWaitMs ?? DEFAULT_WAIT_MS });
}

/** Runs `call` once a place is free; aborting `signal` while it waits takes it out of the queue. */
export function withModelPlace<T>(signal: AbortSignal | undefined, call: () => Promise<T>): Promise<T> {
  return modelCalls.run(signal, call);
}

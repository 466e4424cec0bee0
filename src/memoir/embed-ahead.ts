/**
 * A memoir's passages embedded as they are written, not at the next question.
 *
 * With a provider configured, a chat compares the question with every passage of the memoir (./retrieval.ts), and
 * the passages it has no stored vector for are sent to the provider with the question (./embeddings.ts). A memoir
 * written for months before its first question, or many entries written at once, had all of theirs embedded while
 * the person waited for that answer: thousands of passages, several requests to the provider. Here each text the
 * owner writes (a journal entry, an edit, questionnaire answers, a media transcript or caption) has its passages
 * embedded in the background once the write is stored, in the owner's account, as the chat would embed them (the
 * same records, so the chat then finds them stored and sends the question alone).
 *
 * Nothing here is needed for an answer to be right: work not done (the provider failing or busy, the service
 * stopping, an account past its pending bound) is left to the next question, which embeds what is missing as before.
 *
 * Fair: each account's passages go in batches of `batch`, one request at a time per account, each through the
 * model's places (./model-calls.ts), which serve accounts in turn: an account writing thousands of passages holds
 * one place at a time, and the other accounts' calls take their turns between its batches. The work runs in the
 * writer's queue turn (the request's account and tier, carried into the background by the queue's async context).
 */
import { ApiError } from '../core/errors.js';
import type { Logger } from '../core/log.js';
import type { Config } from '../core/config.js';
import type { Store } from '../store/port.js';
import { forgetCaughtUp } from './embed-marks.js';
import { cachedEmbedder, DEFAULT_EMBEDDING_MODEL, EMBED_REQUEST_INPUTS } from './embeddings.js';
import { passageTexts } from './retrieval.js';

type LlmConfig = NonNullable<Config['llm']>;

/** Passages per request to the provider (./embeddings.ts says why this many): one request per batch. */
export const AHEAD_BATCH = EMBED_REQUEST_INPUTS;

/**
 * Texts an account may have waiting at once. Past it a text is left to the next question: a memoir imported whole
 * is embedded by its first question then, in the provider's requests, as before.
 */
export const AHEAD_MAX_TEXTS = 5_000;

/**
 * Characters of text all accounts together may have waiting (held in memory until their turn): some 16 MB. Past it a
 * text is left to the next question, so that many accounts writing at once, or a provider down, cannot make the
 * waiting texts grow without bound.
 */
export const AHEAD_MAX_CHARS = 8_000_000;

interface AccountWork {
  store: Store;
  now: () => Date;
  /** Texts waiting, in the order written (a text written twice is embedded once). */
  texts: Set<string>;
  /** Passages of texts already taken, waiting for the next batch. */
  carry: string[];
  /** The run embedding them: true when it ended with every text it took embedded, false when it left some. */
  run?: Promise<boolean>;
  /**
   * Whether the vectors made or read are kept in memory (`cachedEmbedder`'s `keep`): for a run a write started (its
   * author may ask next), not for one the catch-up started (it goes through every memoir).
   */
  keep: boolean;
}

/**
 * After a failure, how long texts are left to the next question without asking the provider (ms): while it is down
 * or refusing, each write would otherwise send its own failing requests and log its own warning.
 */
export const AHEAD_PAUSE_MS = 60_000;

/**
 * Whether the provider refused a request for what it held (400, 413, 422, or langchain's context overflow): that
 * account's passages, not the provider being down or the service's key or model being wrong (401, 404, 429, 5xx,
 * a timeout), which every account would meet.
 */
export function refusedForItsInputs(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; depth < 3 && e && typeof e === 'object'; depth++) {
    const { name, status, cause } = e as { name?: unknown; status?: unknown; cause?: unknown };
    if (name === 'ContextOverflowError' || status === 400 || status === 413 || status === 422) return true;
    e = cause;
  }
  return false;
}

export interface EmbedAheadOptions {
  batch?: number;
  maxTexts?: number;
  maxChars?: number;
  pauseMs?: number;
}

/** The background embedding of written passages, for one service (closed with it: `settle`). */
export class EmbedAhead {
  readonly #llm: LlmConfig;
  readonly #log: Logger;
  readonly #batch: number;
  readonly #maxTexts: number;
  readonly #maxChars: number;
  readonly #pauseMs: number;
  /** Until when (performance.now()) texts are left to the question after a failure. */
  #pausedUntil = 0;
  /** The same for one account, after the provider refused its passages (`refusedForItsInputs`): by account. */
  readonly #accountPausedUntil = new Map<string, number>();
  /** Characters of the texts waiting, all accounts together. */
  #chars = 0;
  readonly #accounts = new Map<string, AccountWork>();
  readonly #running = new Set<Promise<void>>();
  #stopped = false;
  #left = 0;

  constructor(llm: LlmConfig, log: Logger, opts: EmbedAheadOptions = {}) {
    this.#llm = llm;
    this.#log = log;
    this.#batch = opts.batch ?? AHEAD_BATCH;
    this.#maxTexts = opts.maxTexts ?? AHEAD_MAX_TEXTS;
    this.#maxChars = opts.maxChars ?? AHEAD_MAX_CHARS;
    this.#pauseMs = opts.pauseMs ?? AHEAD_PAUSE_MS;
  }

  /**
   * Notes texts just stored in `ownerId`'s memoir (through `store`, that account's view): their passages are embedded
   * in the background. Returns at once; never throws.
   */
  note(store: Store, ownerId: string, texts: readonly string[], now: () => Date): void {
    this.#take(store, ownerId, texts, now, true);
  }

  /**
   * As `note`, and answers, once they are embedded, whether all of `texts` were (false: some were left to the next
   * question, past a bound, after a failure, or because the service is stopping). For the catch-up of memoirs written
   * before (./embed-catch-up.ts), which marks an account done only then.
   */
  async noteAll(store: Store, ownerId: string, texts: readonly string[], now: () => Date): Promise<boolean> {
    const { taken, run, forgotten } = this.#take(store, ownerId, texts, now, false);
    if (!taken) {
      // Answered once the account's marks are gone: the catch-up's next hold is not removed by this text's leaving.
      await forgotten;
      return false;
    }
    return run ? await run : true;
  }

  /** Whether `settle` was called: nothing more is taken. */
  get stopped(): boolean {
    return this.#stopped;
  }

  /** The embedding model the vectors are made with. */
  get model(): string {
    return this.#llm.embeddingModel ?? DEFAULT_EMBEDDING_MODEL;
  }

  /**
   * Adds `texts` to the account's waiting texts: whether every one was taken, the run that embeds them (a run started
   * here keeps its vectors in memory when `keep`), and, when some were left, the removal of the account's marks.
   */
  #take(
    store: Store,
    ownerId: string,
    texts: readonly string[],
    now: () => Date,
    keep: boolean,
  ): { taken: boolean; run: Promise<boolean> | undefined; forgotten?: Promise<void> } {
    if (this.#stopped) return { taken: false, run: undefined };
    let work = this.#accounts.get(ownerId);
    const fresh = !work;
    work ??= { store, now, texts: new Set(), carry: [], keep };
    let taken = true;
    const paused = this.#paused(ownerId);
    for (const text of texts) {
      if (!text.trim() || work.texts.has(text)) continue;
      if (paused || work.texts.size >= this.#maxTexts || this.#chars + text.length > this.#maxChars) {
        this.#left += passageTexts(text).length;
        taken = false;
        continue;
      }
      work.texts.add(text);
      this.#chars += text.length;
    }
    const forgotten = taken ? undefined : this.#forgetDone(store, ownerId);
    if (fresh && work.texts.size > 0) {
      this.#accounts.set(ownerId, work);
      work.run = this.#drain(ownerId, work);
      this.#track(work.run.then(() => undefined));
    }
    return { taken, run: work.run, forgotten };
  }

  /** Whether texts of `ownerId` are left to the question now, after a failure (every account's, or its own). */
  #paused(ownerId: string): boolean {
    const now = performance.now();
    if (now < this.#pausedUntil) return true;
    const until = this.#accountPausedUntil.get(ownerId);
    if (until === undefined) return false;
    if (now < until) return true;
    this.#accountPausedUntil.delete(ownerId);
    return false;
  }

  /** Pauses one account's texts (the provider refused them); the pauses that ended are let go. */
  #pauseAccount(ownerId: string): void {
    const now = performance.now();
    for (const [id, until] of this.#accountPausedUntil) if (until <= now) this.#accountPausedUntil.delete(id);
    this.#accountPausedUntil.set(ownerId, now + this.#pauseMs);
  }

  /**
   * The account's marks of memoirs embedded whole (./embed-catch-up.ts) no longer hold once a text of it is left to
   * the question: removed (in the background), so that the next catch-up embeds what was left. Answers when they are.
   */
  #forgetDone(store: Store, ownerId: string): Promise<void> {
    const forgotten = forgetCaughtUp(store, ownerId).catch((err: unknown) =>
      this.#log.warn({ err: (err as Error).name, account: ownerId }, 'memoir: a catch-up mark could not be removed'),
    );
    this.#track(forgotten);
    return forgotten;
  }

  /**
   * As `note`, for texts `load` reads in the background (a whole memoir, when an heir claims an open share). Returns at
   * once; never throws.
   */
  noteFrom(store: Store, ownerId: string, load: () => Promise<readonly string[]>, now: () => Date): void {
    if (this.#stopped) return;
    this.#track(
      load().then(
        (texts) => this.note(store, ownerId, texts, now),
        (err: unknown) =>
          this.#log.warn(
            { err: (err as Error).name, account: ownerId },
            'memoir: texts to embed ahead could not be read; the next question embeds them',
          ),
      ),
    );
  }

  /** Keeps `run` among the work under way (what `idle` and `settle` wait for) until it ends. */
  #track(run: Promise<void>): void {
    this.#running.add(run);
    void run.finally(() => this.#running.delete(run));
  }

  /**
   * Embeds the account's waiting texts until none is left: true when every text it took was embedded. A run that left
   * some answers once the account's marks are removed (a catch-up waiting for it then takes its next hold safely).
   */
  async #drain(ownerId: string, work: AccountWork): Promise<boolean> {
    const { done, forgotten } = await this.#embedWaiting(ownerId, work);
    await forgotten;
    return done;
  }

  async #embedWaiting(
    ownerId: string,
    work: AccountWork,
  ): Promise<{ done: boolean; forgotten: Promise<void> | undefined }> {
    const embedder = cachedEmbedder(this.#llm, work.store, ownerId, work.now, { keep: work.keep });
    let batch: string[] = [];
    try {
      // After the writing request's answer: the splitting and the provider's time are not the writer's to wait for.
      await new Promise((resolve) => setImmediate(resolve));
      for (;;) {
        batch = this.#stopped ? [] : this.#nextBatch(work);
        if (batch.length === 0) break;
        await embedder.embed(batch);
      }
      // Stopped: what was not sent waits for the next question.
      const forgotten = this.#leave(ownerId, work, []);
      return { done: forgotten === undefined, forgotten };
    } catch (err) {
      // The provider failing or busy, the store refusing: what is left waits for the next question, which embeds it,
      // and so do the texts written during a pause (one warning for it, not one per write). The model's places
      // refusing this account (its own queue full, or the wait too long) is this account's: nobody else pauses. The
      // provider refusing this account's passages (a request it will not take, whoever sends it) pauses this account
      // alone: the others' go on being embedded.
      const forgotten = this.#leave(ownerId, work, batch);
      if (refusedForItsInputs(err)) this.#pauseAccount(ownerId);
      else if (!(err instanceof ApiError && err.code === 'SERVICE_BUSY'))
        this.#pausedUntil = performance.now() + this.#pauseMs;
      this.#log.warn(
        { err: (err as Error).name, account: ownerId },
        'memoir: passages could not be embedded ahead; the next questions embed them, and those written in the next minute',
      );
      return { done: false, forgotten };
    } finally {
      // In the same step as the last look at the work: a text noted from here on starts a new run.
      this.#accounts.delete(ownerId);
    }
  }

  /**
   * Counts the passages of `batch` and of the work still waiting as left to the next question, and lets them go:
   * answers, when there were any, the removal of the account's marks.
   */
  #leave(ownerId: string, work: AccountWork, batch: readonly string[]): Promise<void> | undefined {
    let left = batch.length + work.carry.length;
    for (const text of work.texts) {
      left += passageTexts(text).length;
      this.#chars -= text.length;
    }
    work.texts.clear();
    work.carry.length = 0;
    this.#left += left;
    return left > 0 ? this.#forgetDone(work.store, ownerId) : undefined;
  }

  /** Up to `batch` passages: those carried over first, then the next texts' (taken off the waiting texts). */
  #nextBatch(work: AccountWork): string[] {
    for (const text of work.texts) {
      if (work.carry.length >= this.#batch) break;
      work.texts.delete(text);
      this.#chars -= text.length;
      work.carry.push(...passageTexts(text));
    }
    return work.carry.splice(0, this.#batch);
  }

  /** Passages left to the next question so far (past the bounds, or after a failure): for tests and the bench. */
  get left(): number {
    return this.#left;
  }

  /** Characters of the texts waiting, all accounts together: for tests. */
  get waitingChars(): number {
    return this.#chars;
  }

  /** Waits until every text noted so far is embedded or left (tests, the bench). */
  async idle(): Promise<void> {
    while (this.#running.size) await Promise.allSettled([...this.#running]);
  }

  /** Takes no more texts, and waits for the requests under way (each run stops after its batch): before the store closes. */
  async settle(): Promise<void> {
    this.#stopped = true;
    await this.idle();
  }
}

/**
 * Texts of `ownerId`'s memoir just stored (through `store`, the account's view): with embedding ahead (`ahead`), their
 * passages are embedded in the background; without it (no provider, or SVC_MEMOIR_EMBED_AHEAD=0) nothing is, and the
 * account's marks are removed, so that a memoir caught up while it was on is caught up again once it is on.
 */
export async function noteWritten(
  ahead: EmbedAhead | undefined,
  store: Store,
  ownerId: string,
  texts: readonly string[],
  now: () => Date,
): Promise<void> {
  if (ahead) ahead.note(store, ownerId, texts, now);
  else await forgetCaughtUp(store, ownerId);
}

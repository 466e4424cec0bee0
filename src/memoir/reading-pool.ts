/**
 * The memoir's reading thread: a pool of one worker (src/core/worker-pool.ts) running ./reading-tasks.ts, started
 * with the first texts handed to it, unref'd while idle and ended after five idle minutes. Reading a memoir's texts (people and places by
 * compromise's tagger, passages and stems for the search) is CPU work of about a second for 200 long entries read
 * cold, which in the main thread would hold every other account's requests meanwhile; callers hand it jobs of at most
 * READ_JOB_CHARS characters, one at a time, so that the pool's fair queue serves other accounts between them.
 */
import { singleWorkerPool } from '../core/task-module.js';
import type { TextCache } from './text-cache.js';

/** The tasks of ./reading-tasks.ts (named here, not imported: that module imports those that call this one). */
type ReadingTask = 'names' | 'windows' | 'spouse';

/** Characters of text one job takes at most (a few hundred milliseconds of reading). */
export const READ_JOB_CHARS = 50_000;

const readingPool = singleWorkerPool('./reading-tasks.ts', import.meta.url, {
  name: 'The memoir reading',
  timeoutMs: 60_000,
  typicalMs: 250,
  resourceLimits: { maxOldGenerationSizeMb: 256 },
  noun: ['reading', 'readings'],
  // The tagger's lexicon takes some 45 MB in the worker: given back when no memoir has been read for a while.
  idleMs: 300_000,
});

const sent = new Map<ReadingTask, number>();

/** How many texts were handed to the reading thread for `task` so far: for tests of what is kept. */
export function textsReadInThread(task: ReadingTask): number {
  return sent.get(task) ?? 0;
}

/**
 * Runs `task` of ./reading-tasks.ts over `texts` in the reading thread, a job of at most READ_JOB_CHARS characters at
 * a time (a longer text is a job of its own), and hands each job's results to `keep` with its texts, in order.
 */
async function readInThread<R>(
  task: ReadingTask,
  texts: readonly string[],
  keep: (texts: readonly string[], results: readonly R[]) => void,
): Promise<void> {
  let job: string[] = [];
  let chars = 0;
  const send = async () => {
    const batch = job;
    job = [];
    chars = 0;
    sent.set(task, textsReadInThread(task) + batch.length);
    keep(batch, await readingPool().run<R[]>(task, batch));
  };
  for (const text of texts) {
    if (chars + text.length > READ_JOB_CHARS && job.length > 0) await send();
    job.push(text);
    chars += text.length;
  }
  if (job.length > 0) await send();
}

/**
 * Holds `texts` in `cache` (./text-cache.ts) under `keyOf` each (the text itself unless told), reads with `task` those
 * it does not keep yet, and resolves with the function that lets them go (call it in a `finally`). Should the reading
 * fail, they are let go at once.
 */
export async function holdInThread<R>(
  task: ReadingTask,
  cache: TextCache<R>,
  texts: Iterable<string>,
  keyOf: (text: string) => string = (text) => text,
): Promise<() => void> {
  const byKey = new Map<string, string>();
  for (const text of texts) if (text.length > 0) byKey.set(keyOf(text), text);
  const release = cache.hold(byKey.keys());
  try {
    const missing = cache.missing(byKey.keys());
    await readInThread<R>(
      task,
      missing.map((key) => byKey.get(key)!),
      (batch, found) => batch.forEach((text, i) => cache.set(keyOf(text), found[i]!)),
    );
  } catch (err) {
    release();
    throw err;
  }
  return release;
}

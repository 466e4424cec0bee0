import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/core/errors.js';
import { runAsQueueCaller } from '../../src/core/fair-queue.js';
import { WorkerPool, type WorkerPoolOptions } from '../../src/core/worker-pool.js';
import { ticker, until } from '../support/loop.js';
import { rejection } from '../support/rejection.js';

const MODULE = new URL('./fixtures/pool-tasks.ts', import.meta.url);
const pools: WorkerPool[] = [];
function pool(opts: Partial<WorkerPoolOptions> = {}): WorkerPool {
  const p = new WorkerPool({ name: 'The test task', module: MODULE, ...opts });
  pools.push(p);
  return p;
}
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});

describe('WorkerPool', () => {
  it('starts no worker before the first job, runs tasks with structured-cloneable results and keeps the worker warm', async () => {
    const p = pool();
    expect(p.workers).toBe(0);
    expect(await p.run('echo', { a: [1, 2] })).toEqual({ echoed: { a: [1, 2] }, big: 10n ** 30n });
    expect(p.workers).toBe(1);
    await p.run('echo', 2);
    expect(p.stats.workersStarted).toBe(1);
  });

  it('an ApiError thrown by a task arrives as an ApiError; other errors keep their message', async () => {
    const p = pool();
    const e = await rejection(p.run('refuse', null));
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'refused in the worker',
      details: [{ field: 'x', reason: 'because' }],
    });
    const plain = (await rejection(p.run('fail', null))) as Error;
    expect(plain).not.toBeInstanceOf(ApiError);
    expect(plain.message).toBe('plain failure');
    expect((await rejection(p.run('nope', null))) as Error).toMatchObject({ message: 'unknown task nope' });
  });

  it('stops a job over its time limit without holding the event loop, terminates its worker and keeps serving', async () => {
    const p = pool({ timeoutMs: 60_000 });
    await p.run('echo', 0);
    const t = ticker();
    const e = await rejection(p.run('spin', null, { timeoutMs: 300 }));
    const ticks = t.stop();
    expect(e).toBeInstanceOf(ApiError);
    expect(e).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringMatching(/^Input too complex: The test task took longer than 300 ms/),
    });
    // The loop turned many times while the job ran in its thread.
    expect(ticks).toBeGreaterThan(10);
    expect(p.stats.timeouts).toBe(1);
    expect(p.workers).toBe(0);
    expect(await p.run('echo', 'again')).toMatchObject({ echoed: 'again' });
    expect(p.stats.workersStarted).toBe(2);
  });

  it("uses the caller's error for a limit (e.g. SERVICE_BUSY for a generation)", async () => {
    const p = pool();
    const e = await rejection(
      p.run('spin', null, {
        timeoutMs: 50,
        onLimit: (kind, limit) => new ApiError('SERVICE_BUSY', `${kind} ${limit}`),
      }),
    );
    expect(e).toMatchObject({ code: 'SERVICE_BUSY', message: 'time 50 ms' });
  });

  it('a job over its memory limit stops with the limit error, not a crash of the process', async () => {
    const p = pool({ resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 } });
    const e = await rejection(p.run('hog', null));
    expect(e).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringMatching(/needed more than 32 MB of memory/),
    });
    expect(p.stats.memoryLimits).toBe(1);
    expect(p.workers).toBe(0);
    expect(await p.run('echo', 1)).toMatchObject({ echoed: 1 });
  });

  it("refuses a job past its account's queue limit with SERVICE_BUSY and a retry time", async () => {
    const p = pool({ size: 1, maxQueue: 1 });
    const running = p.run('spin', null, { timeoutMs: 60_000 });
    running.catch(() => undefined);
    await until(() => p.running === 1);
    const queued = p.run('echo', 'queued');
    queued.catch(() => undefined);
    const e = await rejection(p.run('echo', 'third'));
    expect(e).toBeInstanceOf(ApiError);
    const busy = e as ApiError;
    expect(busy.code).toBe('SERVICE_BUSY');
    expect(busy.status).toBe(503);
    expect(busy.message).toMatch(/busy: you have 1 job waiting; retry in about \d+ s/);
    expect(Date.parse(busy.retryAfter!)).toBeGreaterThan(Date.now());
    expect(p.stats.busy).toBe(1);
    await p.close();
    await expect(running).rejects.toThrow(/closed/);
    await expect(queued).rejects.toThrow(/closed/);
  });

  it("bounds the queue per account: one account's full queue never turns another away, which is served next", async () => {
    const p = pool({ size: 1, maxQueue: 3, maxWaitMs: Infinity });
    const as = (account: string, label: string) =>
      runAsQueueCaller({ account, weight: 1 }, () => p.run<string>('sleep', { ms: 20, label }));
    const finished: string[] = [];
    const a = ['a0', 'a1', 'a2', 'a3'].map((l) => as('acct_A', l).then((x) => void finished.push(x)));
    await until(() => p.running === 1);
    expect(p.queued).toBe(3);
    const refused = await rejection(as('acct_A', 'a4'));
    expect(refused).toMatchObject({ code: 'SERVICE_BUSY', message: expect.stringMatching(/you have 3 jobs waiting/) });
    // The old bound counted every account's jobs: B was refused here although it would run next.
    const b = as('acct_B', 'b').then((x) => void finished.push(x));
    await Promise.all([...a, b]);
    expect(finished).toEqual(['a0', 'b', 'a1', 'a2', 'a3']);
    expect(p.stats.busy).toBe(1);
  });

  it('bounds the queue of all accounts together (maxQueueTotal)', async () => {
    const p = pool({ size: 1, maxQueue: 2, maxQueueTotal: 3, maxWaitMs: Infinity });
    const as = (account: string) => runAsQueueCaller({ account, weight: 1 }, () => p.run('spin', null));
    const jobs = [as('acct_A'), as('acct_A'), as('acct_A'), as('acct_B')];
    for (const j of jobs) j.catch(() => undefined);
    await until(() => p.running === 1 && p.queued === 3);
    const e = await rejection(as('acct_C'));
    expect(e).toMatchObject({ code: 'SERVICE_BUSY', message: expect.stringMatching(/busy: 3 jobs are waiting/) });
    await p.close();
  });

  it('refuses a job that waited longer than maxWaitMs for a worker (its estimate was under it)', async () => {
    const p = pool({ size: 1, maxWaitMs: 100, typicalMs: 10 });
    const running = p.run('spin', null, { timeoutMs: 60_000 });
    running.catch(() => undefined);
    const e = await rejection(p.run('echo', 'late'));
    expect(e).toMatchObject({ code: 'SERVICE_BUSY', message: expect.stringMatching(/waited 0.1 s for a worker/) });
  });

  it("serves accounts in turn: B's one job runs after at most one of A's ten queued before it", async () => {
    const p = pool({ size: 1, maxWaitMs: Infinity });
    const finished: string[] = [];
    const as = (account: string, label: string) =>
      runAsQueueCaller({ account, weight: 1 }, () =>
        p.run<string>('sleep', { ms: 30, label }).then((l) => void finished.push(l)),
      );
    const a = Array.from({ length: 10 }, (_, i) => as('acct_A', `a${i + 1}`));
    await until(() => p.running === 1);
    const b = as('acct_B', 'b');
    await Promise.all([...a, b]);
    // First come, first served would put b last; fairly, it follows the job running when it came.
    expect(finished.indexOf('b')).toBeLessThanOrEqual(1);
    expect(finished.filter((x) => x.startsWith('a'))).toEqual(Array.from({ length: 10 }, (_, i) => `a${i + 1}`));
  });

  it('refuses at once a job whose estimated wait is over the limit, with a retry time from the estimate; another account still gets in', async () => {
    const p = pool({ size: 1, typicalMs: 1_000, maxWaitMs: 2_500 });
    const mine = (label: string) => runAsQueueCaller({ account: 'acct_A', weight: 1 }, () => p.run('spin', label));
    const running = mine('r');
    running.catch(() => undefined);
    await until(() => p.running === 1);
    const queued = [mine('q1'), mine('q2')];
    for (const q of queued) q.catch(() => undefined);
    // Two of A's ahead, plus the one running, at about 1 s each: 3 s > 2.5 s.
    const e = await rejection(mine('q3'));
    expect(e).toMatchObject({
      code: 'SERVICE_BUSY',
      message: expect.stringMatching(/would wait about 3 s, longer than the 2.5 s allowed; retry in about 3 s$/),
    });
    const retryS = (Date.parse((e as ApiError).retryAfter!) - Date.now()) / 1000;
    expect(retryS).toBeGreaterThan(1);
    expect(retryS).toBeLessThanOrEqual(4);
    expect(p.queued).toBe(2);
    // B is served next whatever A queued: its estimate is the one running job.
    const b = runAsQueueCaller({ account: 'acct_B', weight: 1 }, () => p.run('echo', 'b'));
    b.catch(() => undefined);
    expect(p.queued).toBe(3);
    expect(p.estimatedWaitMs('acct_C', 1)).toBeLessThanOrEqual(2_000);
    await p.close();
  });

  it('abort removes a queued job and terminates the worker running one (the worker count goes back down)', async () => {
    const p = pool({ size: 1 });
    const first = new AbortController();
    const second = new AbortController();
    const running = p.run('spin', null, { signal: first.signal, timeoutMs: 60_000 });
    const queued = p.run('echo', 'never', { signal: second.signal });
    await until(() => p.running === 1);
    expect(p.queued).toBe(1);
    second.abort(new Error('client went away'));
    await expect(queued).rejects.toThrow('client went away');
    expect(p.queued).toBe(0);
    expect(p.workers).toBe(1);
    first.abort(new Error('cancelled'));
    await expect(running).rejects.toThrow('cancelled');
    expect(p.workers).toBe(0);
    expect(p.stats.aborted).toBe(2);
    // an already aborted signal never queues
    await expect(p.run('echo', 1, { signal: AbortSignal.abort(new Error('before')) })).rejects.toThrow('before');
    expect(p.workers).toBe(0);
  });

  it('a job given to a worker still starting waits for no worker: its wait limit does not fire, and aborting it keeps the worker', async () => {
    const p = pool({ size: 1, maxWaitMs: 1 });
    const ac = new AbortController();
    const first = p.run('echo', 'a', { signal: ac.signal });
    expect(p.workers).toBe(1);
    expect(p.queued).toBe(0);
    ac.abort(new Error('gone'));
    await expect(first).rejects.toThrow('gone');
    expect(p.workers).toBe(1);
    expect(await p.run('echo', 'b')).toMatchObject({ echoed: 'b' });
    expect(p.stats.workersStarted).toBe(1);
    expect(p.stats.busy).toBe(0);
  });

  it('passes progress reports as the task runs', async () => {
    const p = pool();
    const seen: unknown[] = [];
    expect(await p.run('steps', null, { onProgress: (v) => seen.push(v) })).toBe('done');
    expect(seen).toEqual(['one', 'two']);
  });

  it('eager pools start every worker at once and replace a stopped one', async () => {
    const p = pool({ size: 2, eager: true });
    expect(p.workers).toBe(2);
    await p.warm();
    await rejection(p.run('spin', null, { timeoutMs: 50 }));
    expect(p.workers).toBe(2);
    expect(p.stats.workersStarted).toBe(3);
  });

  it('lets any number of callers wait for a starting worker without a listener each, and lets them go at close', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const p = pool();
      await Promise.all(Array.from({ length: 40 }, () => p.warm()));
      expect(p.workers).toBe(1);
      expect(await p.run('echo', 'c')).toMatchObject({ echoed: 'c' });
      // Waiting for a worker that never gets to start: close lets the callers go.
      const q = pool();
      const waiting = Promise.all(Array.from({ length: 20 }, () => q.warm()));
      await q.close();
      await waiting;
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  });

  it('forwards what workers print to stderr, with no listener on stderr per worker (a pool may hold many)', async () => {
    const events = ['unpipe', 'drain', 'error', 'close', 'finish'];
    const before = events.map((e) => process.stderr.listenerCount(e));
    const seen: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation(((
      chunk: string | Uint8Array,
      ...rest: never[]
    ) => {
      seen.push(String(chunk));
      return write(chunk, ...rest);
    }) as typeof process.stderr.write);
    try {
      // Eleven workers alive at once: one more than an emitter's default listener limit.
      const p = pool({ size: 11, eager: true });
      expect(p.workers).toBe(11);
      expect(events.map((e) => process.stderr.listenerCount(e))).toEqual(before);
      expect(await p.run('print', 'a line printed by a pool worker')).toBe('printed');
      // Both of a worker's streams reach this process's stderr (its stdout may be the MCP protocol).
      await until(() => seen.some((s) => s.includes('a line printed by a pool worker on stdout')));
      await until(() => seen.some((s) => s.includes('a line printed by a pool worker on stderr')));
    } finally {
      spy.mockRestore();
    }
  });

  it('ends a worker idle for idleMs, never one at work, and starts a new one for the next job', async () => {
    const p = pool({ idleMs: 50 });
    // A job longer than idleMs: its worker is busy, not idle, the whole time.
    expect(await p.run('sleep', { ms: 200, label: 'slept' })).toBe('slept');
    expect(p.stats.workersEndedIdle).toBe(0);
    await until(() => p.workers === 0);
    expect(p.stats.workersEndedIdle).toBe(1);
    expect(await p.run('echo', 1)).toEqual({ echoed: 1, big: 10n ** 30n });
    expect(p.stats.workersStarted).toBe(2);
    // Without idleMs the worker stays.
    const kept = pool();
    await kept.run('echo', 1);
    await new Promise((r) => setTimeout(r, 100));
    expect(kept.workers).toBe(1);
  });

  describe('what a first worker shares', () => {
    type Handed = { threadId: number; got?: { threadId?: number; isModule: boolean } };
    // A query of its own per test: what a module's first worker shares is kept for the whole process.
    let n = 0;
    const sharing = (query = '') => new URL(`./fixtures/shared-tasks.ts?${++n}${query}`, import.meta.url);
    /** Stops the worker of a one-worker pool with a job over its time limit: the next job starts another. */
    const replace = async (p: WorkerPool) => expect(p.run('spin', null, { timeoutMs: 50 })).rejects.toThrow();

    it('is handed to the workers started after it, of this pool and of later pools of the same module', async () => {
      const module = sharing();
      const p = pool({ module });
      const first = await p.run<Handed>('handed', null);
      expect(first.got).toBeUndefined();
      await replace(p);
      const second = await p.run<Handed>('handed', null);
      expect(second.threadId).not.toBe(first.threadId);
      expect(second.got).toEqual({ threadId: first.threadId, isModule: true });
      // The first worker's, not the one before: what is kept is what was shared first.
      await replace(p);
      expect((await p.run<Handed>('handed', null)).got).toEqual({ threadId: first.threadId, isModule: true });
      const other = await pool({ module }).run<Handed>('handed', null);
      expect(other.got).toEqual({ threadId: first.threadId, isModule: true });
      // Another module shares nothing with this one.
      expect((await pool({ module: sharing() }).run<Handed>('handed', null)).got).toBeUndefined();
    });

    it('a shareFirst pool starts its first worker alone and the others from what it shared', async () => {
      const module = sharing();
      const p = pool({ module, size: 3, eager: true, shareFirst: true });
      expect(p.workers).toBe(1);
      await p.warm();
      expect(p.workers).toBe(3);
      // One job per worker: each answers with its own thread and what it was handed.
      const all = await Promise.all([1, 2, 3].map(() => p.run<Handed>('handed', null)));
      const first = all.find((h) => h.got === undefined);
      expect(first).toBeDefined();
      expect(new Set(all.map((h) => h.threadId)).size).toBe(3);
      expect(all.filter((h) => h !== first).map((h) => h.got)).toEqual([
        { threadId: first!.threadId, isModule: true },
        { threadId: first!.threadId, isModule: true },
      ]);
      // Two jobs given to a cold pool of another module: the second waits for the first worker, which takes the
      // first job once ready, and then gets a worker started from what it shared.
      const cold = pool({ module: sharing(), size: 2, shareFirst: true });
      const jobs = [cold.run<Handed>('handed', null), cold.run<Handed>('handed', null)];
      expect(cold.workers).toBe(1);
      const [one, two] = await Promise.all(jobs);
      expect(cold.stats.workersStarted).toBe(2);
      expect(one!.got).toBeUndefined();
      expect(two!.got).toEqual({ threadId: one!.threadId, isModule: true });
    });

    it('is left out when it cannot cross threads, and the worker still serves', async () => {
      const p = pool({ module: sharing('&uncloneable') });
      expect((await p.run<Handed>('handed', null)).got).toBeUndefined();
      await replace(p);
      expect((await p.run<Handed>('handed', null)).got).toBeUndefined();
      expect(p.stats.workersStarted).toBe(2);
    });
  });

  it('a module that does not load fails its jobs with the reason', async () => {
    const p = new WorkerPool({ name: 'Broken', module: new URL('./fixtures/no-such-module.ts', import.meta.url) });
    pools.push(p);
    await expect(p.run('echo', 1)).rejects.toThrow(/no-such-module|Cannot find/);
    expect(p.workers).toBe(0);
  });

  it('rejects work after close', async () => {
    const p = pool();
    await p.close();
    await expect(p.run('echo', 1)).rejects.toThrow(/closed/);
  });
});

import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { ApiError } from '../../core/errors.js';

export interface CompilerMessage {
  severity: 'error' | 'warning' | 'info';
  message: string;
  line?: number;
  column?: number;
  formatted?: string;
}

export interface SolcCompileOutput {
  contractName: string;
  abi: unknown[];
  bytecode: `0x${string}`;
  warnings: CompilerMessage[];
  ast?: unknown;
  /** Runtime bytecode, for size checks. */
  deployedBytecode?: `0x${string}`;
}

export interface SolcPoolOptions {
  /** Worker threads; default one per core. */
  size?: number;
  /** Upper bound on the memory held by the compile cache (approximate, bytes); default 64 MiB. */
  cacheBytes?: number;
  /** Per-compile time limit; the worker is replaced when it is exceeded. Default 20 s. */
  timeoutMs?: number;
  /** Largest accepted source, in bytes; default 512 KiB. */
  maxSourceBytes?: number;
  /** Compiles that may wait for a worker; one more is refused with SERVICE_BUSY. Default 100. */
  maxQueue?: number;
  /**
   * Longest wait for a worker, in ms; a compile not started by then is refused
   * with SERVICE_BUSY. Default 120 s (no longer than a caller waits for an
   * answer anyway); Infinity for none.
   */
  maxWaitMs?: number;
}

export interface CompileOptions {
  contractName?: string;
  /** Also return the solc AST of the main source. */
  ast?: boolean;
  /** Time limit for this compile (default: the pool's). */
  timeoutMs?: number;
  /**
   * Aborting removes the compile from the queue, or stops the worker running
   * it (the worker is replaced); the promise rejects with the signal's reason.
   * A compile shared by identical concurrent requests stops only when every
   * one of them has aborted.
   */
  signal?: AbortSignal;
}

/** Compiler settings shared by every compile (part of the cache key). */
export const COMPILER_SETTINGS = { evmVersion: 'cancun', optimizerRuns: 200 } as const;

interface RawResult {
  id: number;
  ok: boolean;
  messages?: Array<CompilerMessage & { type?: string; file?: string }>;
  contractName?: string;
  abi?: unknown[];
  bytecode?: `0x${string}`;
  deployedBytecode?: `0x${string}`;
  ast?: unknown;
  notFound?: string;
  noContract?: boolean;
  available?: string[];
  crashed?: string;
  version?: string;
}

interface Job {
  id: number;
  timeoutMs: number;
  msg: Record<string, unknown>;
  resolve: (r: RawResult) => void;
  reject: (e: unknown) => void;
  timer?: NodeJS.Timeout;
  /** Fires when the job has waited maxWaitMs without a worker. */
  waitTimer?: NodeJS.Timeout;
  startedAt?: number;
}

/** A compile under way (queued or running), shared by identical concurrent requests. */
interface Inflight {
  promise: Promise<SolcCompileOutput>;
  /** Requests following it with a signal not yet aborted. */
  holders: number;
  /** A request without a signal follows it: it is never cancelled. */
  pinned: boolean;
  cancel: (reason: unknown) => void;
}

interface Slot {
  worker: Worker;
  job?: Job;
  ready: Promise<void>;
}

const WORKER_URL = new URL('./solc-worker.mjs', import.meta.url);

/** A pool of solc worker threads with an LRU cache of compile results. */
export class SolcPool {
  readonly size: number;
  readonly timeoutMs: number;
  readonly maxSourceBytes: number;
  readonly maxQueue: number;
  readonly maxWaitMs: number;
  private readonly cacheBytes: number;
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private readonly cache = new Map<string, { value: SolcCompileOutput; bytes: number }>();
  private readonly inflight = new Map<string, Inflight>();
  /** Running average of a compile's duration, for the retry-after hint. */
  private averageMs = 2_000;
  private cachedBytes = 0;
  private nextId = 1;
  private closed = false;
  /** Counters, for tests and benchmarks. */
  readonly stats = { hits: 0, misses: 0, timeouts: 0, workersStarted: 0, busy: 0, aborted: 0 };

  constructor(opts: SolcPoolOptions = {}) {
    this.size = Math.max(1, opts.size ?? availableParallelism());
    this.cacheBytes = opts.cacheBytes ?? 64 * 1024 * 1024;
    this.timeoutMs = opts.timeoutMs ?? 20_000;
    this.maxSourceBytes = opts.maxSourceBytes ?? 512 * 1024;
    this.maxQueue = Math.max(0, opts.maxQueue ?? 100);
    this.maxWaitMs = Math.max(1, opts.maxWaitMs ?? 120_000);
    for (let i = 0; i < this.size; i++) this.slots.push(this.spawn());
  }

  /** Resolves when every worker has loaded solc. */
  async ready(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.ready));
  }

  /**
   * Loads solc and runs one small compile on every worker (solc's first
   * compile in a thread is several times slower than the next ones), plus
   * any given sources, which stay cached.
   */
  async warmUp(sources: string[] = []): Promise<void> {
    await this.ready();
    const tiny = this.slots.map((_, i) => `// SPDX-License-Identifier: MIT\npragma solidity >=0.8.0;\ncontract WarmUp${i} {\n    uint256 public x;\n    function set(uint256 v) external { x = v; }\n}\n`);
    await Promise.all([...tiny, ...sources].map((s) => this.compile(s).catch(() => undefined)));
  }

  /** Bytes currently held by the cache (approximate). */
  get cacheSize(): number {
    return this.cachedBytes;
  }

  private spawn(): Slot {
    const worker = new Worker(WORKER_URL);
    this.stats.workersStarted++;
    worker.unref();
    const slot: Slot = { worker, ready: Promise.resolve() };
    slot.ready = new Promise<void>((resolve) => {
      const onFirst = () => {
        worker.off('message', onFirst);
        resolve();
      };
      worker.on('message', onFirst);
      worker.postMessage({ type: 'ping', id: 0 });
    });
    worker.on('message', (text: string) => {
      const raw = JSON.parse(text) as RawResult;
      const job = slot.job;
      if (!job || raw.id !== job.id) return;
      this.finish(slot, job);
      job.resolve(raw);
    });
    worker.on('error', (err) => this.replace(slot, err));
    worker.on('exit', (code) => {
      if (slot.job) this.replace(slot, new Error(`solc worker exited with code ${code}`));
    });
    return slot;
  }

  private finish(slot: Slot, job: Job): void {
    if (job.timer) clearTimeout(job.timer);
    if (job.startedAt !== undefined) this.averageMs = 0.8 * this.averageMs + 0.2 * (Date.now() - job.startedAt);
    slot.job = undefined;
    slot.worker.unref();
    this.pump();
  }

  /** Replaces a worker that failed or timed out; its job is rejected. */
  private replace(slot: Slot, err: unknown): void {
    const idx = this.slots.indexOf(slot);
    const job = slot.job;
    slot.job = undefined;
    if (job?.timer) clearTimeout(job.timer);
    void slot.worker.terminate().catch(() => undefined);
    if (idx >= 0 && !this.closed) this.slots[idx] = this.spawn();
    else if (idx >= 0) this.slots.splice(idx, 1);
    if (job) job.reject(err);
    this.pump();
  }

  private pump(): void {
    if (this.closed) return;
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (slot.job) continue;
      const job = this.queue.shift()!;
      if (job.waitTimer) clearTimeout(job.waitTimer);
      job.startedAt = Date.now();
      slot.job = job;
      slot.worker.ref();
      job.timer = setTimeout(() => {
        this.stats.timeouts++;
        this.replace(
          slot,
          new ApiError('VALIDATION_ERROR', `Compilation took longer than ${job.timeoutMs} ms and was stopped`, [
            { field: 'sourceCode', reason: `compile time limit of ${job.timeoutMs} ms exceeded` },
          ]),
        );
      }, job.timeoutMs);
      slot.worker.postMessage(job.msg);
    }
  }

  /** The SERVICE_BUSY error, with a retry time from the queue length and the average compile time. */
  private busy(message: string): ApiError {
    this.stats.busy++;
    const waitMs = Math.ceil((this.queue.length + 1) / this.size) * this.averageMs;
    const seconds = Math.min(60, Math.max(1, Math.ceil(waitMs / 1000)));
    return new ApiError('SERVICE_BUSY', `${message}; retry in about ${seconds} s`, undefined, new Date(Date.now() + seconds * 1000).toISOString());
  }

  /** Queues a job; `cancel` takes it out of the queue or stops its worker (no-op once it has finished). */
  private run(msg: Record<string, unknown>, timeoutMs: number): { promise: Promise<RawResult>; cancel: (reason: unknown) => void } {
    if (this.closed) return { promise: Promise.reject(new Error('SolcPool is closed')), cancel: () => undefined };
    const busySlots = this.slots.every((s) => s.job);
    if (busySlots && this.queue.length >= this.maxQueue) {
      return { promise: Promise.reject(this.busy(`The compiler is busy: ${this.queue.length} compiles are waiting`)), cancel: () => undefined };
    }
    let job!: Job;
    const promise = new Promise<RawResult>((resolve, reject) => {
      const id = this.nextId++;
      job = { id, timeoutMs, msg: { ...msg, id }, resolve, reject };
    });
    // (setTimeout would fire at once for a delay beyond 2^31 - 1 ms: such a limit means none.)
    if (this.maxWaitMs <= 2 ** 31 - 1) {
      job.waitTimer = setTimeout(() => {
        const at = this.queue.indexOf(job);
        if (at < 0) return;
        this.queue.splice(at, 1);
        job.reject(this.busy(`The compiler is busy: this compile waited ${this.maxWaitMs} ms for a worker`));
      }, this.maxWaitMs);
      job.waitTimer.unref();
    }
    this.queue.push(job);
    this.pump();
    const cancel = (reason: unknown) => {
      const at = this.queue.indexOf(job);
      if (at >= 0) {
        this.queue.splice(at, 1);
        if (job.waitTimer) clearTimeout(job.waitTimer);
        this.stats.aborted++;
        job.reject(reason);
        return;
      }
      const slot = this.slots.find((s) => s.job === job);
      if (slot) {
        // solc cannot be interrupted inside a thread: the worker is stopped and replaced, the next job starts on the new one.
        this.stats.aborted++;
        this.replace(slot, reason);
      }
    };
    return { promise, cancel };
  }

  /** A request's view of a shared compile: rejects at once when its own signal aborts; the compile stops when no one waits for it. */
  private follow(entry: Inflight, signal: AbortSignal | undefined): Promise<SolcCompileOutput> {
    if (!signal) {
      entry.pinned = true;
      return entry.promise;
    }
    entry.holders++;
    return new Promise<SolcCompileOutput>((resolve, reject) => {
      const onAbort = () => {
        entry.holders--;
        if (entry.holders === 0 && !entry.pinned) entry.cancel(signal.reason);
        reject(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      entry.promise.then(
        (v) => {
          signal.removeEventListener('abort', onAbort);
          resolve(v);
        },
        (e: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(e);
        },
      );
    });
  }

  /**
   * Compiles a Solidity source (optimizer on). Compile errors throw a
   * VALIDATION_ERROR whose details carry line, column and message; warnings
   * are returned. Results are cached by source and settings.
   */
  compile(source: string, opts: CompileOptions = {}): Promise<SolcCompileOutput> {
    if (opts.signal?.aborted) return Promise.reject(opts.signal.reason);
    if (typeof source !== 'string' || source.trim().length === 0) {
      return Promise.reject(ApiError.validation('Source code is empty', [{ field: 'sourceCode', reason: 'empty source' }]));
    }
    const bytes = Buffer.byteLength(source, 'utf8');
    if (bytes > this.maxSourceBytes) {
      return Promise.reject(
        new ApiError('PAYLOAD_TOO_LARGE', `Source code is ${bytes} bytes; the limit is ${this.maxSourceBytes} bytes`, [
          { field: 'sourceCode', reason: `larger than ${this.maxSourceBytes} bytes` },
        ]),
      );
    }
    const key = createHash('sha256')
      .update(JSON.stringify({ s: COMPILER_SETTINGS, c: opts.contractName ?? null, a: opts.ast === true }))
      .update('\0')
      .update(source)
      .digest('hex');
    const hit = this.cache.get(key);
    if (hit) {
      this.stats.hits++;
      this.cache.delete(key);
      this.cache.set(key, hit);
      return Promise.resolve(hit.value);
    }
    const pending = this.inflight.get(key);
    if (pending) {
      this.stats.hits++;
      return this.follow(pending, opts.signal);
    }
    this.stats.misses++;
    const job = this.run({ source, settings: COMPILER_SETTINGS, contractName: opts.contractName, wantAst: opts.ast === true }, opts.timeoutMs ?? this.timeoutMs);
    const promise = job.promise
      .then((raw) => {
        const value = toOutput(raw);
        this.store(key, value, source.length * 2 + estimateBytes(raw));
        return value;
      })
      .finally(() => {
        if (this.inflight.get(key) === entry) this.inflight.delete(key);
      });
    const entry: Inflight = { promise, holders: 0, pinned: false, cancel: job.cancel };
    this.inflight.set(key, entry);
    return this.follow(entry, opts.signal);
  }

  private store(key: string, value: SolcCompileOutput, bytes: number): void {
    if (bytes > this.cacheBytes) return;
    this.cache.set(key, { value, bytes });
    this.cachedBytes += bytes;
    while (this.cachedBytes > this.cacheBytes) {
      const oldest = this.cache.keys().next().value as string;
      const e = this.cache.get(oldest)!;
      this.cache.delete(oldest);
      this.cachedBytes -= e.bytes;
    }
  }

  /** Stops every worker; pending compiles are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    const err = new Error('SolcPool closed');
    for (const job of this.queue.splice(0)) {
      if (job.waitTimer) clearTimeout(job.waitTimer);
      job.reject(err);
    }
    await Promise.all(
      this.slots.map(async (slot) => {
        const job = slot.job;
        slot.job = undefined;
        if (job?.timer) clearTimeout(job.timer);
        if (job) job.reject(err);
        await slot.worker.terminate();
      }),
    );
    this.slots.length = 0;
  }
}

function estimateBytes(raw: RawResult): number {
  // Sizes of the parts kept (strings are UTF-16 in memory; objects roughly 2x their JSON).
  let n = (raw.bytecode?.length ?? 0) * 2 + (raw.deployedBytecode?.length ?? 0) * 2;
  n += JSON.stringify(raw.abi ?? []).length * 4;
  if (raw.ast) n += JSON.stringify(raw.ast).length * 4;
  n += JSON.stringify(raw.messages ?? []).length * 4;
  return n;
}

function toOutput(raw: RawResult): SolcCompileOutput {
  const messages: CompilerMessage[] = (raw.messages ?? []).map((m) => {
    const c: CompilerMessage = { severity: m.severity, message: m.file ? `${m.file}: ${m.message}` : m.message };
    if (m.line !== undefined) c.line = m.line;
    if (m.column !== undefined) c.column = m.column;
    if (m.formatted) c.formatted = m.formatted;
    return c;
  });
  if (raw.crashed) {
    throw ApiError.validation('The compiler could not process this source', [{ field: 'sourceCode', reason: raw.crashed }]);
  }
  if (!raw.ok) {
    if (raw.notFound) {
      throw ApiError.validation(`Contract ${raw.notFound} not found in the source`, [
        { field: 'contractName', reason: `not found; available: ${(raw.available ?? []).join(', ') || 'none'}` },
      ]);
    }
    if (raw.noContract) {
      throw ApiError.validation('The source defines no deployable contract', [{ field: 'sourceCode', reason: 'no non-abstract contract with bytecode' }]);
    }
    const errors = messages.filter((m) => m.severity === 'error');
    throw ApiError.validation(
      `Compilation failed with ${errors.length} error${errors.length === 1 ? '' : 's'}`,
      errors.map((m) => {
        const d: { field: string; reason: string; line?: number; column?: number } = { field: 'sourceCode', reason: m.message };
        if (m.line !== undefined) d.line = m.line;
        if (m.column !== undefined) d.column = m.column;
        return d;
      }),
    );
  }
  const out: SolcCompileOutput = {
    contractName: raw.contractName!,
    abi: raw.abi ?? [],
    bytecode: raw.bytecode!,
    warnings: messages.filter((m) => m.severity !== 'error'),
    deployedBytecode: raw.deployedBytecode,
  };
  if (raw.ast !== undefined) out.ast = raw.ast;
  return out;
}

import { createHash } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { ApiError } from '../../core/errors.js';
import { currentQueueCaller } from '../../core/fair-queue.js';
import { WorkerPool } from '../../core/worker-pool.js';
import type { CompileCache } from '../compile-cache.js';
import type { LoadedSolc } from './solc-load.mjs';

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

/** How a solc worker loaded the compiler (LoadedSolc of ./solc-load.mjs, without the compiler). */
export type SolcLoadInfo = Omit<LoadedSolc, 'solc'>;

export interface SolcPoolOptions {
  /** Worker threads; default one per core. */
  size?: number;
  /** Upper bound on the memory held by the compile cache (approximate, bytes); default 64 MiB. */
  cacheBytes?: number;
  /** Per-compile time limit; the worker is replaced when it is exceeded. Default 20 s. */
  timeoutMs?: number;
  /** Largest accepted source, in bytes; default 512 KiB. */
  maxSourceBytes?: number;
  /** Compiles one account may have waiting for a worker; one more is refused with SERVICE_BUSY. Default 100. */
  maxQueue?: number;
  /**
   * Longest wait for a worker, in ms; a compile not started by then is refused
   * with SERVICE_BUSY. Default 120 s (no longer than a caller waits for an
   * answer anyway); Infinity for none.
   */
  maxWaitMs?: number;
  /**
   * Where the results of `persist` compiles are kept between processes (./compile-cache.ts); none: kept in memory
   * only.
   */
  disk?: CompileCache | undefined;
}

export interface CompileOptions {
  contractName?: string;
  /** Also return the solc AST of the main source. */
  ast?: boolean;
  /**
   * The source is one the service wrote itself (a shape's contract, a token double): its result is read from and
   * written to the pool's disk cache. Never for a caller's source.
   */
  persist?: boolean;
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

/**
 * Compiler settings shared by every compile (part of the cache key). The bytecode carries no metadata hash
 * (`bytecodeHash: 'none'`; solc still appends its version): the hash would depend on the source's file name and
 * every comment, so the same contract compiled under another file name, or with its plan comment, would differ.
 */
export const COMPILER_SETTINGS = { evmVersion: 'cancun', optimizerRuns: 200, bytecodeHash: 'none' } as const;

interface RawResult {
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

/**
 * A compile under way (queued or running), shared by identical concurrent requests: by any account once it runs, and
 * until then by the account that queued it only (another one would wait in that account's turn, not its own).
 */
interface Inflight {
  /** The account whose turn the compile waits for. */
  account: string;
  /** Whether a worker has started it (set by the pool, possibly before the entry exists). */
  run: { started: boolean };
  promise: Promise<SolcCompileOutput>;
  /** Requests following it with a signal not yet aborted. */
  holders: number;
  /** A request without a signal follows it: it is never cancelled. */
  pinned: boolean;
  cancel: (reason: unknown) => void;
}

const WORKER_URL = new URL('./solc-worker.mjs', import.meta.url);

/**
 * A pool of solc worker threads (a WorkerPool, src/core/worker-pool.ts, with
 * every worker started at once and replaced when stopped) with an LRU cache
 * of compile results and one compile shared by identical concurrent requests.
 */
export class SolcPool {
  readonly size: number;
  readonly timeoutMs: number;
  readonly maxSourceBytes: number;
  readonly maxQueue: number;
  readonly maxWaitMs: number;
  private readonly cacheBytes: number;
  #workers: WorkerPool | undefined;
  #closed = false;
  readonly #workerOptions: ConstructorParameters<typeof WorkerPool>[0];
  readonly #disk: CompileCache | undefined;
  private readonly cache = new Map<string, { value: SolcCompileOutput; bytes: number }>();
  private readonly inflight = new Map<string, Inflight>();
  private cachedBytes = 0;
  /** Counters, for tests and benchmarks. */
  readonly stats: {
    hits: number;
    misses: number;
    /** Compiles answered from the disk cache (counted among the misses: the memory cache did not have them). */
    diskHits: number;
    /** Results written to the disk cache. */
    diskWrites: number;
    readonly timeouts: number;
    readonly workersStarted: number;
    readonly busy: number;
    readonly aborted: number;
  };

  constructor(opts: SolcPoolOptions = {}) {
    this.size = Math.max(1, opts.size ?? availableParallelism());
    this.cacheBytes = opts.cacheBytes ?? 64 * 1024 * 1024;
    this.timeoutMs = opts.timeoutMs ?? 20_000;
    this.maxSourceBytes = opts.maxSourceBytes ?? 512 * 1024;
    this.maxQueue = Math.max(0, opts.maxQueue ?? 100);
    this.maxWaitMs = Math.max(1, opts.maxWaitMs ?? 30_000);
    this.#disk = opts.disk;
    this.#workerOptions = {
      name: 'The compiler',
      noun: ['compile', 'compiles'],
      module: WORKER_URL,
      size: this.size,
      eager: true,
      // The first worker loads solc; the others start from its compiled module once it is ready (./solc-load.mjs).
      shareFirst: true,
      timeoutMs: this.timeoutMs,
      maxQueue: this.maxQueue,
      maxWaitMs: this.maxWaitMs,
      typicalMs: 2_000,
      // solc's own heap is WebAssembly memory, outside these limits; its JavaScript side stays small.
      resourceLimits: { maxOldGenerationSizeMb: 512 },
    };
    const pool = () => this.#workers?.stats;
    this.stats = {
      hits: 0,
      misses: 0,
      diskHits: 0,
      diskWrites: 0,
      get timeouts() {
        return pool()?.timeouts ?? 0;
      },
      get workersStarted() {
        return pool()?.workersStarted ?? 0;
      },
      get busy() {
        return pool()?.busy ?? 0;
      },
      get aborted() {
        return pool()?.aborted ?? 0;
      },
    };
  }

  /**
   * The worker threads, started (every one at once, each loading solc) by the first compile that needs them: a
   * process whose compiles are all answered from the disk cache never loads the compiler.
   */
  private get workers(): WorkerPool {
    if (this.#closed) throw new Error(`${this.#workerOptions.name} pool is closed`);
    this.#workers ??= new WorkerPool(this.#workerOptions);
    return this.#workers;
  }

  /** Resolves when every worker has loaded solc. */
  async ready(): Promise<void> {
    await this.workers.warm();
  }

  /**
   * Loads solc and runs one small compile on every worker (solc's first
   * compile in a thread is several times slower than the next ones), then
   * the given compiles one after another, which stay cached: sources the
   * service wrote itself, kept in the disk cache too (`persist`; one already
   * there costs a read). Those marked `ifKept` are compiled ahead only while
   * the disk cache keeps them: without one, they would be compiled again at
   * every start for a generation that may never come.
   */
  async warmUp(
    compiles: Array<{ source: string; options?: Omit<CompileOptions, 'persist' | 'signal'>; ifKept?: boolean }> = [],
  ): Promise<void> {
    await this.ready();
    const tiny = Array.from(
      { length: this.size },
      (_, i) =>
        `// SPDX-License-Identifier: MIT\npragma solidity >=0.8.0;\ncontract WarmUp${i} {\n    uint256 public x;\n    function set(uint256 v) external { x = v; }\n}\n`,
    );
    await Promise.all(tiny.map((s) => this.compile(s).catch(() => undefined)));
    // One at a time: background work, leaving the other workers (and cores) to whatever a caller asks meanwhile.
    let keeps = this.#disk !== undefined;
    for (const c of compiles) {
      if (c.ifKept && !keeps) continue;
      const kept = this.stats.diskHits + this.stats.diskWrites;
      await this.compile(c.source, { ...c.options, persist: true }).catch(() => undefined);
      if (c.ifKept && this.stats.diskHits + this.stats.diskWrites === kept) keeps = false;
    }
  }

  /**
   * How a worker loaded solc: from the cached WebAssembly, decoded now (`cached`: and written to the cache), or by the
   * package's own load (`why`). See ./solc-load.mjs.
   */
  async loadInfo(): Promise<SolcLoadInfo> {
    return this.workers.run('loaded', null);
  }

  /** Bytes currently held by the cache (approximate). */
  get cacheSize(): number {
    return this.cachedBytes;
  }

  /** Queues a compile; `cancel` takes it out of the queue or stops its worker (no-op once it has finished). */
  private run(
    msg: Record<string, unknown>,
    timeoutMs: number,
    onStart?: () => void,
  ): { promise: Promise<string>; cancel: (reason: unknown) => void } {
    const ac = new AbortController();
    // The result as the worker answered it, JSON text: parsed by compile, and kept as it is in the disk cache.
    const promise = this.workers.run<string>('compile', msg, {
      timeoutMs,
      signal: ac.signal,
      onStart,
      onLimit: (kind, limit) =>
        ApiError.validation(
          `Compilation ${kind === 'time' ? `took longer than ${limit}` : `needed more than ${limit} of memory`} and was stopped`,
          [{ field: 'sourceCode', reason: `compile ${kind} limit of ${limit} exceeded` }],
        ),
    });
    return { promise, cancel: (reason) => ac.abort(reason) };
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
      return Promise.reject(
        ApiError.validation('Source code is empty', [{ field: 'sourceCode', reason: 'empty source' }]),
      );
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
    const account = currentQueueCaller().account;
    const shared = this.inflight.get(key);
    // Another account's compile still queued: compiled again in this account's own turn, under a key of its own.
    const inflightKey = shared && !shared.run.started && shared.account !== account ? `${key}\0${account}` : key;
    const pending = this.inflight.get(inflightKey);
    if (pending) {
      this.stats.hits++;
      return this.follow(pending, opts.signal);
    }
    this.stats.misses++;
    const msg = { source, settings: COMPILER_SETTINGS, contractName: opts.contractName, wantAst: opts.ast === true };
    const timeoutMs = opts.timeoutMs ?? this.timeoutMs;
    const disk = opts.persist ? this.#disk : undefined;
    let job: ReturnType<SolcPool['run']> | undefined;
    let cancelled: { reason: unknown } | undefined;
    const running = { started: false };
    const compileNow = (): Promise<string> => {
      if (cancelled) return Promise.reject(cancelled.reason);
      job = this.run(msg, timeoutMs, () => {
        running.started = true;
      });
      return job.promise;
    };
    /** The output of a result's text (the worker's answer, or the disk cache's copy of one), kept in memory. */
    const settle = (text: string, kept: boolean): SolcCompileOutput => {
      const raw = JSON.parse(text) as RawResult;
      const value = toOutput(raw);
      if (kept) this.stats.diskHits++;
      else if (disk?.write(key, text)) this.stats.diskWrites++;
      this.store(key, value, source.length * 2 + estimateBytes(raw));
      return value;
    };
    // Without the disk cache the compile is queued now, in this turn (a signal aborted right after finds it queued).
    const fresh = async () => settle(await compileNow(), false);
    const promise = (
      disk
        ? disk.read(key).then((kept) => {
            if (kept === undefined) return fresh();
            try {
              return settle(kept, true);
            } catch {
              return fresh(); // only results that compiled are written; anything else is compiled again
            }
          })
        : fresh()
    ).finally(() => {
      if (this.inflight.get(inflightKey) === entry) this.inflight.delete(inflightKey);
    });
    const cancel = (reason: unknown) => {
      cancelled ??= { reason };
      job?.cancel(reason);
    };
    const entry: Inflight = { account, run: running, promise, holders: 0, pinned: false, cancel };
    this.inflight.set(inflightKey, entry);
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
    this.#closed = true;
    await this.#workers?.close();
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
    throw ApiError.validation('The compiler could not process this source', [
      { field: 'sourceCode', reason: raw.crashed },
    ]);
  }
  if (!raw.ok) {
    if (raw.notFound) {
      throw ApiError.validation(`Contract ${raw.notFound} not found in the source`, [
        { field: 'contractName', reason: `not found; available: ${(raw.available ?? []).join(', ') || 'none'}` },
      ]);
    }
    if (raw.noContract) {
      throw ApiError.validation('The source defines no deployable contract', [
        { field: 'sourceCode', reason: 'no non-abstract contract with bytecode' },
      ]);
    }
    const errors = messages.filter((m) => m.severity === 'error');
    throw ApiError.validation(
      `Compilation failed with ${errors.length} error${errors.length === 1 ? '' : 's'}`,
      errors.map((m) => {
        const d: { field: string; reason: string; line?: number; column?: number } = {
          field: 'sourceCode',
          reason: m.message,
        };
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

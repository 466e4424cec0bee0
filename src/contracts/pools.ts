import os from 'node:os';
import { taskModule } from '../core/task-module.js';
import { WorkerPool, type WorkerPoolOptions } from '../core/worker-pool.js';
import { solcCompileCache } from './evm/compile-cache.js';
import { SolcPool, type SolcLoadInfo, type SolcPoolOptions } from './evm/pool.js';

/** Options of the engine's worker pools (tests give tiny limits; the defaults suit a 2-core machine). */
export interface ContractEngineOptions {
  /** Longest wait for a worker in every pool (SVC_QUEUE_WAIT_MS); a pool's own `maxWaitMs` below wins. */
  maxWaitMs?: number | undefined;
  solc?: SolcPoolOptions;
  ton?: Partial<Omit<WorkerPoolOptions, 'module' | 'name'>>;
  evm?: Partial<Omit<WorkerPoolOptions, 'module' | 'name'>>;
  solana?: Partial<Omit<WorkerPoolOptions, 'module' | 'name'>>;
}

/**
 * The contract engine: validates a plan, applies its template's law, generates
 * the chain's contract (compiled and executed where the chain allows) and
 * records the events. Owns the worker pools every CPU-heavy step runs in, so
 * that no request holds the event loop: solc, the EVM executions, the TON
 * compile and sandbox, the Solana parse and checks. Pools start on first use.
 */
export class ContractEngine {
  #pool: SolcPool | undefined;
  #ton: WorkerPool | undefined;
  #evm: WorkerPool | undefined;
  #solana: WorkerPool | undefined;
  readonly #opts: ContractEngineOptions;
  #closed = false;

  constructor(opts: ContractEngineOptions = {}) {
    this.#opts = opts;
  }

  /**
   * The solc pool, made on first use (one worker per core, started by the first compile the disk cache does not
   * answer). The service's own sources are kept compiled in the cache directory (./compile-cache.ts).
   */
  get pool(): SolcPool {
    this.#pool ??= new SolcPool({
      size: Math.max(1, os.availableParallelism()),
      maxWaitMs: this.#opts.maxWaitMs,
      disk: solcCompileCache(),
      ...this.#opts.solc,
    });
    return this.#pool;
  }

  /** FunC compiles and @ton/sandbox runs. */
  get ton(): WorkerPool {
    this.#ton ??= new WorkerPool({
      name: 'The TON compiler and sandbox',
      module: taskModule('./ton/tasks.ts', import.meta.url),
      size: 1,
      timeoutMs: 30_000,
      maxQueue: 100,
      typicalMs: 300,
      resourceLimits: { maxOldGenerationSizeMb: 512 },
      maxWaitMs: this.#opts.maxWaitMs,
      ...this.#opts.ton,
    });
    return this.#ton;
  }

  /** @ethereumjs/vm executions: the generation check and the gas measurement. */
  get evm(): WorkerPool {
    this.#evm ??= new WorkerPool({
      name: 'The EVM execution',
      module: taskModule('./evm/tasks.ts', import.meta.url),
      size: 1,
      timeoutMs: 30_000,
      maxQueue: 100,
      typicalMs: 300,
      resourceLimits: { maxOldGenerationSizeMb: 512 },
      maxWaitMs: this.#opts.maxWaitMs,
      ...this.#opts.evm,
    });
    return this.#evm;
  }

  /** tree-sitter parses and checks of Rust (generation and estimates). */
  get solana(): WorkerPool {
    this.#solana ??= new WorkerPool({
      name: 'The Rust parser',
      module: taskModule('./solana/tasks.ts', import.meta.url),
      size: 1,
      timeoutMs: 20_000,
      maxQueue: 100,
      typicalMs: 100,
      resourceLimits: { maxOldGenerationSizeMb: 256 },
      maxWaitMs: this.#opts.maxWaitMs,
      ...this.#opts.solana,
    });
    return this.#solana;
  }

  /**
   * Starts every pool's workers ahead of their first job, the EVM path first: its generator's modules in this thread
   * and the VM's worker side by side (all a generate needs when its shape's compile is in the disk cache), then solc
   * with one small compile per worker and the common shapes' compiles where the disk cache lacks them; then the TON
   * sandbox and the Rust parser, one after the other so that a request arriving meanwhile shares the machine with at
   * most one of them. A pool that fails to start is left to report it on its first job. Resolves with the
   * milliseconds it took, or undefined when the engine closed before it was done.
   */
  async warm(): Promise<number | undefined> {
    const t0 = performance.now();
    const steps: Array<() => Promise<unknown>> = [
      // The EVM generator (viem's utilities, the Solidity model) and the VM's worker: a first build's wait when its
      // shape is kept compiled.
      () => Promise.all([import('./evm/generate.js'), this.evm.warm(1)]),
      // solc, with the common shapes compiled ahead into the disk cache (the generator is loaded by now).
      () => import('./evm/generate.js').then((evm) => evm.warmUpEvm(this.pool)),
      () => this.ton.warm(1),
      () => this.solana.warm(1),
    ];
    for (const step of steps) {
      if (this.#closed) break;
      await step().catch(() => undefined);
    }
    return this.#closed ? undefined : performance.now() - t0;
  }

  /** How the solc workers loaded the compiler (./evm/solc-load.mjs), once the pool has started; never starts it. */
  async solcLoadInfo(): Promise<SolcLoadInfo | undefined> {
    if (this.#closed || !this.#pool) return undefined;
    return this.#pool.loadInfo().catch(() => undefined);
  }

  async close(): Promise<void> {
    this.#closed = true;
    const pools = [this.#pool, this.#ton, this.#evm, this.#solana];
    this.#pool = this.#ton = this.#evm = this.#solana = undefined;
    await Promise.all(pools.map((p) => p?.close()));
  }
}

/**
 * The TON emulator every sandbox blockchain of a thread runs its transactions and get-methods on.
 *
 * `Blockchain.create()` without an executor instantiates @ton/sandbox's emulator afresh: a WebAssembly instance of
 * the TON node's transaction emulator, 50 to 100 ms of CPU each time, and each scenario of a generated contract (and
 * each test harness) made one. The executor holds no blockchain's state: every call hands it the account, the
 * message and the configuration, and it keeps only the emulator built for the last configuration and verbosity (made
 * again when they change). So one per thread serves them all, each call running to its end before the next starts
 * (its calls are synchronous inside the WebAssembly instance).
 *
 * It also keeps WebAssembly code from being made and freed over and over in a long-running process: V8 tracks every
 * piece of JIT and WebAssembly code in one process-wide registry, and code freed while other threads compile or free
 * theirs has aborted Node 24 processes (a failed check in `ThreadIsolation::UnregisterWasmAllocation`, seen once in
 * this project's test runs, and in other projects whose tests make and drop WebAssembly instances at a high rate).
 */
import { Blockchain, Executor } from '@ton/sandbox';

let shared: Promise<Executor> | undefined;

/** This thread's emulator, made on first use; a failed start is tried again by the next caller. */
export function sandboxExecutor(): Promise<Executor> {
  shared ??= Executor.create().catch((err: unknown) => {
    shared = undefined;
    throw err;
  });
  return shared;
}

/**
 * A fresh sandbox blockchain on this thread's emulator, its logs off: `config` is @ton/sandbox's ('default', the
 * mainnet configuration it ships, when absent; 'slim' for behaviour alone).
 */
export async function sandboxBlockchain(config?: 'default' | 'slim'): Promise<Blockchain> {
  const blockchain = await Blockchain.create({ ...(config ? { config } : {}), executor: await sandboxExecutor() });
  blockchain.verbosity = { print: false, blockchainLogs: false, vmLogs: 'none', debugLogs: false };
  return blockchain;
}

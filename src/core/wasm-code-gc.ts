import { setFlagsFromString } from 'node:v8';

/**
 * V8 13.6 (Node 24) can free a WebAssembly import wrapper twice when one thread tiers the wrapper up while another
 * thread's garbage collection of WebAssembly code is freeing it: the process then aborts on the fatal check
 * `jit_page_->allocations_.erase(addr) == 1` in `ThreadIsolation::UnregisterWasmAllocation`. In V8 13.6 those
 * wrappers are shared by every thread of a process (Node 22's 12.4 kept them per module), and ours run solc, the FunC
 * compiler and the TON emulator in several worker threads at once, replacing a worker whenever a compile is cancelled
 * or runs out of time. V8 fixed it in 13.7 ("[wasm] Fix lookup of wrappers marked is_dying", crbug 409379692); Node 24
 * has not taken the fix. It aborted a test process about one full run in six (docs/architecture.md, "Contracts"), and
 * in a service it would end every request in flight.
 *
 * The only way around it on those versions is to turn the collection of dead WebAssembly code off: it is what frees
 * the wrapper the second time (`--no-wasm-tier-up` was reported not to help). V8 reads the flag each time code becomes
 * dead, so setting it before the first worker starts is enough. What it costs: code replaced by a faster tier, and
 * wrappers no instance uses any more, stay until their module is freed. Our modules are compiled once per process and
 * kept (solc's, the FunC compiler's, the emulator's), and wrappers are shared by signature, so that memory is bounded
 * by the code of the modules themselves; measured in docs/architecture.md. `scripts/wasm-abort-repro.mjs` brings the
 * abort out without the guard and checks that it stays away with it.
 */

/** Whether this V8 has the double free: 13.x up to 13.6 (13.7 has the fix; no Node release ships an earlier 13). */
export function hasWrapperDoubleFree(v8Version: string = process.versions.v8): boolean {
  const [major, minor] = v8Version.split('.').map((part) => Number.parseInt(part, 10));
  return major === 13 && minor !== undefined && minor <= 6;
}

let applied: boolean | undefined;

/**
 * Turns V8's collection of dead WebAssembly code off for this process when its V8 has the double free; returns
 * whether it did. Called before a worker pool starts its first thread (./worker-pool.ts); once per process.
 */
export function avoidWasmWrapperDoubleFree(): boolean {
  if (applied === undefined) {
    applied = hasWrapperDoubleFree();
    if (applied) setFlagsFromString('--no-wasm-code-gc');
  }
  return applied;
}

import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type { FuncCompiler } from '@ton-community/func-js';
import type { Cell } from '@ton/core';
import { ApiError, type ErrorDetail } from '../../core/errors.js';
import { CompileCache } from '../compile-cache.js';

export interface CompiledFunc {
  codeBoc: string;
  codeHash: string;
  code: Cell;
  warnings: string;
}

/** The file name the source is compiled under; compiler messages are located against it. */
const FILE = 'contract.fc';
/** Longest FunC source accepted from a client (the generated contracts are about 25 kB). */
export const MAX_FUNC_SOURCE = 200_000;
/** Deepest nesting of ( [ { accepted in a client's FunC source (the generated contracts stay under 10). */
export const MAX_FUNC_NESTING = 128;
/** At most this many located compiler errors are reported. */
const MAX_DETAILS = 50;

/**
 * Refuses FunC source that is too long or nested too deeply, before the
 * compiler sees it: one linear pass, skipping `;;` and `{- -}` comments
 * (which nest) and string literals.
 */
export function assertFuncShape(source: string, field = 'contractCode'): void {
  if (source.length > MAX_FUNC_SOURCE) {
    throw ApiError.validation('FunC source too large', [
      { field, reason: `at most ${MAX_FUNC_SOURCE} characters (got ${source.length})` },
    ]);
  }
  let depth = 0;
  let comment = 0;
  const n = source.length;
  for (let i = 0; i < n; i++) {
    const c = source.charCodeAt(i);
    const d = source.charCodeAt(i + 1);
    if (c === 123 /* { */ && d === 45 /* - */) {
      comment++;
      i++;
      continue;
    }
    if (comment > 0) {
      if (c === 45 && d === 125 /* -} */) {
        comment--;
        i++;
      }
      continue;
    }
    if (c === 59 && d === 59 /* ;; */) {
      const end = source.indexOf('\n', i);
      if (end < 0) break;
      i = end;
    } else if (c === 34 /* " */) {
      const end = source.indexOf('"', i + 1);
      if (end < 0) break;
      i = end;
    } else if (c === 40 || c === 91 || c === 123) {
      if (++depth > MAX_FUNC_NESTING) {
        throw ApiError.validation('FunC source nested too deeply', [
          { field, reason: `brackets nested deeper than ${MAX_FUNC_NESTING} levels (at offset ${i})` },
        ]);
      }
    } else if ((c === 41 || c === 93 || c === 125) && depth > 0) {
      depth--;
    }
  }
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 11 || c === 12;
}

function isFileChar(c: number): boolean {
  return isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 46 || c === 47 || c === 45;
}

/**
 * Compiler messages `contract.fc:LINE:COL: error: REASON` turned into error
 * details. A scan from each `.fc:` forward (no backtracking regular
 * expression): linear in the length of the message whatever it holds.
 */
export function parseFuncErrors(message: string): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const n = message.length;
  let from = 0;
  while (details.length < MAX_DETAILS) {
    const at = message.indexOf('.fc:', from);
    if (at < 0) break;
    from = at + 4;
    if (at === 0 || !isFileChar(message.charCodeAt(at - 1))) continue;
    let i = at + 4;
    const lineStart = i;
    while (i < n && isDigit(message.charCodeAt(i))) i++;
    if (i === lineStart || message.charCodeAt(i) !== 58 /* : */) continue;
    const line = Number(message.slice(lineStart, i));
    const colStart = ++i;
    while (i < n && isDigit(message.charCodeAt(i))) i++;
    if (i === colStart || message.charCodeAt(i) !== 58) continue;
    const column = Number(message.slice(colStart, i));
    i++;
    while (i < n && isSpace(message.charCodeAt(i))) i++;
    if (!message.startsWith('error:', i)) {
      from = Math.max(from, i);
      continue;
    }
    i += 6;
    while (i < n && isSpace(message.charCodeAt(i)) && message.charCodeAt(i) !== 10) i++;
    let end = message.indexOf('\n', i);
    if (end < 0) end = n;
    details.push({ field: 'contractCode', reason: message.slice(i, Math.min(end, i + 500)).trim(), line, column });
    from = end;
  }
  if (details.length === 0) {
    details.push({
      field: 'contractCode',
      reason: message
        .replace(/^FunC compilation error:\s*/, '')
        .trim()
        .slice(0, 500),
    });
  }
  return details;
}

type Listener = (...args: unknown[]) => void;
/** process.listeners / removeListener, loosely typed for the two events handled here. */
const proc = process as unknown as {
  listeners(ev: string): Listener[];
  removeListener(ev: string, l: Listener): void;
};
const EMSCRIPTEN_EVENTS = ['uncaughtException', 'unhandledRejection'] as const;

/**
 * func-js builds a fresh Emscripten module per compilation, and each one adds
 * process-wide `uncaughtException` / `unhandledRejection` listeners that
 * rethrow and are never removed: a leak in a long-running service. Remove the
 * ones a compilation added (recognised by their Emscripten bodies).
 */
function dropEmscriptenListeners(before: Map<string, Set<Listener>>): void {
  for (const ev of EMSCRIPTEN_EVENTS) {
    const known = before.get(ev)!;
    for (const l of proc.listeners(ev)) {
      if (known.has(l)) continue;
      const text = String(l);
      if (text.includes('ExitStatus') || /throw\s+reason/.test(text)) proc.removeListener(ev, l);
    }
  }
}

function currentListeners(): Map<string, Set<Listener>> {
  return new Map(EMSCRIPTEN_EVENTS.map((ev) => [ev, new Set(proc.listeners(ev))]));
}

/** What func-js-bin exports: the Emscripten factory of the compiler and its WebAssembly (see its index.d.ts). */
interface FuncWasmObject {
  schemaVersion: 1;
  funcVersion: string;
  module: (options: Record<string, unknown>) => Promise<unknown>;
  wasmBase64: string;
}

type FuncCompile = FuncCompiler['compileFunc'];

let compiler: Promise<FuncCompile> | undefined;

/**
 * func-js's compiler, its WebAssembly compiled once for this thread. func-js makes a fresh Emscripten instance per
 * compilation (the compiler keeps global state) from the bytes: V8 reuses the machine code of an instance still
 * alive, but once those were collected the code was freed, and made again by the next compile. Kept here, one
 * WebAssembly.Module serves every instance and its code is not freed and made again (./executor.ts says why that
 * churn matters). Each compilation still gets an instance, and so a compiler state, of its own.
 *
 * Emscripten's `instantiateWasm` hook has no way to fail: an error thrown there is logged and the module's promise
 * never settles. So an instantiation that fails rejects the module's creation here instead.
 */
function funcCompiler(): Promise<FuncCompile> {
  compiler ??= (async () => {
    const { FuncCompiler } = await import('@ton-community/func-js');
    // func-js-bin is func-js's dependency, resolved from func-js (as funcIdentity reads its version).
    const fromFuncJs = createRequire(createRequire(import.meta.url).resolve('@ton-community/func-js'));
    const { object } = fromFuncJs('@ton-community/func-js-bin') as { object: FuncWasmObject };
    const wasm = new WebAssembly.Module(Buffer.from(object.wasmBase64, 'base64'));
    const kept: FuncWasmObject = {
      ...object,
      module: (options) => {
        let failed!: (err: unknown) => void;
        const failure = new Promise<never>((_, reject) => {
          failed = reject;
        });
        const created = object.module({
          ...options,
          instantiateWasm(
            imports: WebAssembly.Imports,
            receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void,
          ) {
            try {
              const instance = new WebAssembly.Instance(wasm, imports);
              receive(instance, wasm);
              return instance.exports;
            } catch (err) {
              failed(err);
              return {};
            }
          },
        });
        return Promise.race([created, failure]);
      },
    };
    return new FuncCompiler(kept).compileFunc;
  })().catch((err: unknown) => {
    compiler = undefined;
    throw err;
  });
  return compiler;
}

async function compileNow(source: string): Promise<CompiledFunc> {
  assertFuncShape(source);
  // Loaded on first compile (before the listener snapshot, as when it was loaded with this module).
  const [funcCompile, { Cell }] = await Promise.all([funcCompiler(), import('@ton/core')]);
  let r;
  const listeners = currentListeners();
  try {
    r = await funcCompile({ targets: [FILE], sources: { [FILE]: source } });
  } catch (e) {
    throw ApiError.validation('FunC compilation failed', [
      { field: 'contractCode', reason: e instanceof Error ? e.message.slice(0, 500) : 'compiler failure' },
    ]);
  } finally {
    dropEmscriptenListeners(listeners);
  }
  if (r.status === 'error') {
    throw ApiError.validation('FunC compilation failed', parseFuncErrors(r.message));
  }
  const code = Cell.fromBase64(r.codeBoc);
  return { codeBoc: r.codeBoc, codeHash: code.hash().toString('hex'), code, warnings: r.warnings ?? '' };
}

/** Compiles by source text; results (and failures) are remembered for a bounded number of sources. */
const bySource = new Map<string, Promise<CompiledFunc>>();
const MAX_CACHED = 64;

/**
 * What names the directory of FunC results kept on disk (../compile-cache.ts): func-js's version, the compiler's
 * (its WebAssembly build), and the version of what is kept of a result here.
 */
export function funcIdentity(): string {
  const require = createRequire(import.meta.url);
  const version = (name: string) => (require(`${name}/package.json`) as { version: string }).version;
  const funcJs = require.resolve('@ton-community/func-js');
  const bin = createRequire(funcJs)('@ton-community/func-js-bin/package.json') as { version: string };
  return `func-${version('@ton-community/func-js')}-bin-${bin.version}-r1`;
}

/** The disk cache (undefined: SVC_CACHE_DIR is `off`, or not looked up yet) and whether it was looked up. */
let disk: CompileCache | undefined;
let diskLookedUp = false;
/** Compiles run by the compiler in this thread (not answered from memory or disk): for tests of the caches. */
let compiles = 0;

function diskCache(): CompileCache | undefined {
  if (!diskLookedUp) {
    try {
      disk = CompileCache.fromEnv(funcIdentity);
    } catch {
      // The compiler's packages could not be named (an unusual install): compile in every process, as without a cache.
      disk = undefined;
    }
    diskLookedUp = true;
  }
  return disk;
}

/** Replaces the disk cache (undefined: none), and forgets the results kept in memory: for tests. */
export function useFuncDiskCache(cache: CompileCache | undefined): void {
  disk = cache;
  diskLookedUp = true;
  bySource.clear();
}

/** How many compiles the compiler ran in this thread. */
export function funcCompiles(): number {
  return compiles;
}

/** What is kept on disk of a result: the code and the warnings (the cell and its hash follow from the code). */
interface KeptFunc {
  codeBoc: string;
  warnings: string;
}

async function fromKept(text: string): Promise<CompiledFunc | undefined> {
  try {
    const kept = JSON.parse(text) as KeptFunc;
    if (typeof kept.codeBoc !== 'string' || typeof kept.warnings !== 'string') return undefined;
    const { Cell } = await import('@ton/core');
    const code = Cell.fromBase64(kept.codeBoc);
    return { codeBoc: kept.codeBoc, codeHash: code.hash().toString('hex'), code, warnings: kept.warnings };
  } catch {
    return undefined;
  }
}

/** The result kept on disk for `key`, else compiled now and kept (a failed compile is not kept). */
async function compileKept(key: string, source: string, cache: CompileCache): Promise<CompiledFunc> {
  const text = await cache.read(key);
  const kept = text === undefined ? undefined : await fromKept(text);
  if (kept) return kept;
  const compiled = await compileCounted(source);
  cache.write(key, JSON.stringify({ codeBoc: compiled.codeBoc, warnings: compiled.warnings } satisfies KeptFunc));
  return compiled;
}

function compileCounted(source: string): Promise<CompiledFunc> {
  compiles++;
  return compileNow(source);
}

/**
 * Compiles `source`, or answers a result remembered in memory. `persist`: the source is the service's own (a
 * shape's contract, the jetton double), so its result is also kept on disk for the next processes, and read from
 * there when this one has not compiled it yet. Never for a caller's source.
 */
export function compileFuncCached(source: string, options: { persist?: boolean } = {}): Promise<CompiledFunc> {
  const key = createHash('sha256').update(source).digest('hex');
  const hit = bySource.get(key);
  if (hit) {
    // refresh its place in the LRU order
    bySource.delete(key);
    bySource.set(key, hit);
    return hit;
  }
  const cache = options.persist ? diskCache() : undefined;
  const p = cache ? compileKept(key, source, cache) : compileCounted(source);
  bySource.set(key, p);
  while (bySource.size > MAX_CACHED) {
    const oldest = bySource.keys().next().value as string;
    bySource.delete(oldest);
  }
  return p;
}

/** Compiles without consulting the cache (for benchmarks and the located-error path). */
export function compileFuncUncached(source: string): Promise<CompiledFunc> {
  return compileCounted(source);
}

import { createHash } from 'node:crypto';
import { compileFunc as funcCompile } from '@ton-community/func-js';
import { Cell } from '@ton/core';
import { ApiError, type ErrorDetail } from '../../core/errors.js';

export interface CompiledFunc {
  codeBoc: string;
  codeHash: string;
  code: Cell;
  warnings: string;
}

/** The file name the source is compiled under; compiler messages are located against it. */
const FILE = 'contract.fc';
const MAX_SOURCE = 200_000;

/** Compiler messages `contract.fc:LINE:COL: error: REASON` turned into error details. */
export function parseFuncErrors(message: string): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const re = /([\w./-]+\.fc):(\d+):(\d+):\s*error:\s*([^\n]*)/g;
  for (const m of message.matchAll(re)) {
    details.push({ field: 'contractCode', reason: (m[4] ?? '').trim(), line: Number(m[2]), column: Number(m[3]) });
  }
  if (details.length === 0) {
    details.push({ field: 'contractCode', reason: message.replace(/^FunC compilation error:\s*/, '').trim().slice(0, 500) });
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

async function compileNow(source: string): Promise<CompiledFunc> {
  if (source.length > MAX_SOURCE) {
    throw ApiError.validation('FunC source too large', [{ field: 'contractCode', reason: `at most ${MAX_SOURCE} characters` }]);
  }
  let r;
  const listeners = currentListeners();
  try {
    r = await funcCompile({ targets: [FILE], sources: { [FILE]: source } });
  } catch (e) {
    throw ApiError.validation('FunC compilation failed', [{ field: 'contractCode', reason: e instanceof Error ? e.message.slice(0, 500) : 'compiler failure' }]);
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

export function compileFuncCached(source: string): Promise<CompiledFunc> {
  const key = createHash('sha256').update(source).digest('hex');
  const hit = bySource.get(key);
  if (hit) {
    // refresh its place in the LRU order
    bySource.delete(key);
    bySource.set(key, hit);
    return hit;
  }
  const p = compileNow(source);
  bySource.set(key, p);
  while (bySource.size > MAX_CACHED) {
    const oldest = bySource.keys().next().value as string;
    bySource.delete(oldest);
  }
  return p;
}

/** Compiles without consulting the cache (for benchmarks and the located-error path). */
export function compileFuncUncached(source: string): Promise<CompiledFunc> {
  return compileNow(source);
}

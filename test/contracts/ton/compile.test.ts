import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Cell } from '@ton/core';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/core/errors.js';
import { CompileCache } from '../../../src/contracts/compile-cache.js';
import {
  assertFuncShape,
  compileFuncCached,
  compileFuncUncached,
  funcCompiles,
  funcIdentity,
  parseFuncErrors,
  useFuncDiskCache,
} from '../../../src/contracts/ton/compile.js';
import {
  allTonShapes,
  buildTonShape,
  compileFunc,
  shapeKey,
  tonContractSource,
} from '../../../src/contracts/ton/index.js';

const REFERENCE = tonContractSource({
  template: 'custom',
  deadMansSwitch: true,
  gracePeriod: true,
  guardians: true,
  jettons: true,
});

async function compileError(source: string): Promise<ApiError> {
  try {
    await compileFunc(source);
  } catch (e) {
    expect(e).toBeInstanceOf(ApiError);
    return e as ApiError;
  }
  throw new Error('expected a compile error');
}

describe('compileFunc', () => {
  it('compiles generated source to a code cell whose hash it reports', async () => {
    const r = await compileFunc(REFERENCE);
    const cell = Cell.fromBase64(r.codeBoc);
    expect(r.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(cell.hash().toString('hex')).toBe(r.codeHash);
    expect(cell.refs.length + cell.bits.length).toBeGreaterThan(0);
  });

  it('a broken contract fails with the line and column of the error', async () => {
    const lines = REFERENCE.split('\n');
    const at = lines.findIndex((l) => l.includes('ctx_last = now()'));
    expect(at).toBeGreaterThan(0);
    const col = lines[at]!.indexOf('now()');
    lines[at] = lines[at]!.replace('now()', 'no_such_function()');
    const err = await compileError(lines.join('\n'));
    expect(err.code).toBe('VALIDATION_ERROR');
    expect(err.status).toBe(400);
    const d = err.details!.find((x) => x.line === at + 1);
    expect(d, JSON.stringify(err.details)).toBeDefined();
    expect(d!.field).toBe('contractCode');
    expect(d!.column).toBe(col + 1);
    expect(d!.reason).toMatch(/no_such_function/);
  });

  it('a syntax error is located too', async () => {
    const src = [
      '() recv_internal(int balance, int value, cell msg, slice body) impure {',
      '    int x = 1 +;',
      '}',
    ].join('\n');
    const err = await compileError(src);
    expect(err.details![0]).toMatchObject({ field: 'contractCode', line: 2 });
    expect(err.details![0]!.column).toBeGreaterThan(1);
  });

  it('different source gives different code', async () => {
    const a = await compileFunc('() recv_internal() impure { }');
    const b = await compileFunc('() recv_internal() impure { throw(77); }');
    expect(a.codeHash).not.toBe(b.codeHash);
    // really compiled, not cached by mistake
    const again = await compileFuncUncached('() recv_internal() impure { throw(77); }');
    expect(again.codeHash).toBe(b.codeHash);
  });

  it('parses compiler messages into located details', () => {
    const d = parseFuncErrors(
      'FunC compilation error: contract.fc:12:7: error: undefined function `x`\n  x();\n      ^',
    );
    expect(d).toEqual([{ field: 'contractCode', reason: 'undefined function `x`', line: 12, column: 7 }]);
    expect(parseFuncErrors('something odd')[0]).toEqual({ field: 'contractCode', reason: 'something odd' });
  });

  it('parses every located error the way the former regular expression did, and skips what is not one', () => {
    const msg = [
      'contract.fc:3:1: error: first',
      'note: dir/other-file.fc:40:12:   error:   second  ',
      'contract.fc:5:2: warning: not an error',
      'contract.fc:x:2: error: no line number',
      '.fc:1:1: error: no file name',
      'stdlib.fc:7:9:\n  error: across a line break',
    ].join('\n');
    expect(parseFuncErrors(msg)).toEqual([
      { field: 'contractCode', reason: 'first', line: 3, column: 1 },
      { field: 'contractCode', reason: 'second', line: 40, column: 12 },
      { field: 'contractCode', reason: 'across a line break', line: 7, column: 9 },
    ]);
  });

  it('measures FunC nesting before compiling, skipping comments (which nest) and strings', () => {
    expect(() =>
      assertFuncShape(
        `{- ${'('.repeat(1_000)} {- -} ${'['.repeat(1_000)} -}\n;; ${'{'.repeat(1_000)}\nslice s = "${'('.repeat(1_000)}";\nint f() { return ((1)); }`,
      ),
    ).not.toThrow();
    expect(() => assertFuncShape(`int f() { return ${'('.repeat(200)}1${')'.repeat(200)}; }`)).toThrow(
      /nested too deeply/,
    );
    expect(() => assertFuncShape(';; x\n'.repeat(50_000))).toThrow(/too large/);
  });

  it('reads hostile compiler output in one pass: long runs of name characters and of ".fc:" give no details but the fallback, and at most 50 are kept', () => {
    // Inputs that made the unanchored /([\w./-]+\.fc):(\d+).../ scan quadratically.
    const names = parseFuncErrors('a'.repeat(200_000) + '.fc:1:');
    expect(names).toHaveLength(1);
    expect(names[0]!.reason.length).toBeLessThanOrEqual(500);
    expect(parseFuncErrors('x.fc:'.repeat(100_000))).toHaveLength(1);
    const many = parseFuncErrors(
      Array.from({ length: 500 }, (_, i) => `contract.fc:${i + 1}:1: error: e${i}`).join('\n'),
    );
    expect(many).toHaveLength(50);
    expect(many[49]).toMatchObject({ line: 50, reason: 'e49' });
  });
});

describe('every shape', () => {
  it('compiles without warnings, and shapes with different features have different code', async () => {
    const hashes = new Map<string, string>();
    for (const shape of allTonShapes()) {
      const { compiled } = await buildTonShape(shape);
      expect(compiled.warnings.trim(), shapeKey(shape)).toBe('');
      hashes.set(shapeKey(shape), compiled.codeHash);
    }
    expect(hashes.size).toBe(60);
    expect(new Set(hashes.values()).size).toBe(60);
  }, 240_000);

  it('is compiled once per shape', async () => {
    const shape = allTonShapes()[3]!;
    const [a, b] = await Promise.all([buildTonShape(shape), buildTonShape(shape)]);
    expect(a).toBe(b);
  });
});

describe('compiler hygiene', () => {
  it('leaves no process-wide listeners behind (func-js adds some per compilation)', async () => {
    const before = [process.listenerCount('uncaughtException'), process.listenerCount('unhandledRejection')];
    for (let i = 0; i < 3; i++) await compileFuncUncached(`() recv_internal() impure { throw(${100 + i}); }`);
    await compileFuncUncached('() recv_internal() impure { oops }').catch(() => undefined);
    expect([process.listenerCount('uncaughtException'), process.listenerCount('unhandledRejection')]).toEqual(before);
  });
});

describe('results kept on disk', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'svc-func-cache-'));
  const fresh = () => useFuncDiskCache(new CompileCache(root, funcIdentity()));
  const entries = () => readdirSync(path.join(root, 'compiled', funcIdentity()));
  afterAll(() => {
    // Back to the environment's cache, as the other tests of this worker expect.
    useFuncDiskCache(CompileCache.fromEnv(funcIdentity));
    rmSync(root, { recursive: true, force: true });
  });

  it("answers the service's own source in a new process from disk, as compiled", async () => {
    fresh();
    const before = funcCompiles();
    const first = await compileFuncCached(REFERENCE, { persist: true });
    expect(funcCompiles()).toBe(before + 1);
    expect(entries()).toHaveLength(1);
    // A new process: nothing in memory, the same directory.
    fresh();
    const again = await compileFuncCached(REFERENCE, { persist: true });
    expect(funcCompiles()).toBe(before + 1);
    expect(again.codeHash).toBe(first.codeHash);
    expect(again.code.hash().toString('hex')).toBe(first.codeHash);
    expect(again.codeBoc).toBe(first.codeBoc);
    expect(again.warnings).toBe(first.warnings);
    expect(funcIdentity()).toMatch(/^func-\d+\.\d+\.\d+-bin-\S+-r1$/);
  });

  it("never keeps a caller's source, nor a compile that failed", async () => {
    fresh();
    const n = entries().length;
    await compileFuncCached(`${REFERENCE}\n;; a caller's copy`);
    await expect(compileFuncCached('() recv_internal() impure { oops }', { persist: true })).rejects.toThrow(ApiError);
    expect(entries()).toHaveLength(n);
  });

  it('compiles again over an entry that was tampered with', async () => {
    fresh();
    await compileFuncCached(REFERENCE, { persist: true });
    const file = path.join(root, 'compiled', funcIdentity(), entries()[0]!);
    writeFileSync(file, readFileSync(file, 'utf8').replace(/"codeBoc":"./, '"codeBoc":"A'), { mode: 0o600 });
    fresh();
    const before = funcCompiles();
    const compiled = await compileFuncCached(REFERENCE, { persist: true });
    expect(funcCompiles()).toBe(before + 1);
    expect(compiled.codeHash).toBe((await compileFuncUncached(REFERENCE)).codeHash);
  });
});

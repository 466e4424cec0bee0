import { afterEach, describe, expect, it, vi } from 'vitest';
import { compileFuncUncached } from '../../../src/contracts/ton/compile.js';
import { ApiError } from '../../../src/core/errors.js';

// The FunC compiler's WebAssembly is compiled once per thread (src/contracts/ton/compile.ts): each compilation gets an
// instance of its own from the one module, never compiling the compiler again, the instances share no compiler
// state, and an instance that cannot be made fails its compilation at once rather than leaving it waiting.

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the FunC compiler, compiled once per thread', () => {
  it('makes each compilation an instance of its kept module, compiling no WebAssembly again', async () => {
    await compileFuncUncached('() recv_internal() impure { throw(300); }');
    const instantiate = vi.spyOn(WebAssembly, 'instantiate');
    const compile = vi.spyOn(WebAssembly, 'compile');
    const a = await compileFuncUncached('() recv_internal() impure { throw(301); }');
    const b = await compileFuncUncached('() recv_internal() impure { throw(302); }');
    expect(instantiate).not.toHaveBeenCalled();
    expect(compile).not.toHaveBeenCalled();
    expect(a.codeHash).not.toBe(b.codeHash);
  });

  it('gives each compilation a compiler state of its own: the same source compiles alike after an error', async () => {
    const source = '() recv_internal() impure { throw(303); }';
    const first = await compileFuncUncached(source);
    await expect(compileFuncUncached('() recv_internal() impure { oops }')).rejects.toThrow(/FunC compilation failed/);
    const again = await compileFuncUncached(source);
    expect(again.codeHash).toBe(first.codeHash);
    expect(again.warnings).toBe(first.warnings);
  });

  it('fails a compilation at once when its instance cannot be made, and compiles again once it can', async () => {
    await compileFuncUncached('() recv_internal() impure { throw(304); }');
    const failing = vi.spyOn(WebAssembly, 'Instance').mockImplementation(function (this: unknown) {
      throw new RangeError('WebAssembly.Instance(): Out of memory: Cannot allocate Wasm memory for new instance');
    } as never);
    const refused = await compileFuncUncached('() recv_internal() impure { throw(305); }').then(
      () => undefined,
      (err: unknown) => err as ApiError,
    );
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused?.details?.[0]?.reason).toMatch(/Out of memory/);
    failing.mockRestore();
    const after = await compileFuncUncached('() recv_internal() impure { throw(305); }');
    expect(after.codeHash).toMatch(/^[0-9a-f]{64}$/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/core/errors.js';
import { estimateSolana } from '../../../src/contracts/solana/index.js';
import {
  assertRustShape,
  MAX_RUST_NESTING,
  MAX_RUST_SOURCE,
  parseAnchorProgram,
} from '../../../src/contracts/solana/parser.js';
import { startTestServer, type TestServer } from '../../helpers.js';

// Inputs that used to stall the process (quadratic regular expressions) or answer 500 (stack overflow).
// The tests assert the answer, never the time.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ listen: false });
});
afterAll(async () => {
  await server?.close();
});

const estimate = (contractCode: string) =>
  server.app.inject({
    method: 'POST',
    url: '/api/v1/contracts/estimate-gas',
    headers: { authorization: `Bearer ${server.adminKey}` },
    payload: { blockchain: 'solana', contractCode },
  });

const nestedVec = (depth: number) =>
  `#[account]\npub struct V {\n    pub beneficiaries: ${'Vec<'.repeat(depth)}u8${'>'.repeat(depth)},\n}\n`;

function expectValidation(res: Awaited<ReturnType<typeof estimate>>, reason: RegExp): void {
  expect(res.statusCode).toBe(400);
  const body = res.json();
  expect(body.success).toBe(false);
  expect(body.error.code).toBe('VALIDATION_ERROR');
  expect(body.error.details).toEqual([
    expect.objectContaining({ field: 'contractCode', reason: expect.stringMatching(reason) }),
  ]);
}

describe('estimate_gas (solana) on hostile source', () => {
  it('refuses "#[]" repeated 333,000 times as too large', async () => {
    expectValidation(await estimate('#[]'.repeat(333_000)), /at most 200000 characters/);
  });

  it('refuses Vec<Vec<...>> nested 100,000 deep (once a 500) with details', async () => {
    expectValidation(await estimate(nestedVec(100_000)), /at most/);
  });

  it('refuses Vec<...> nested deeper than the limit within the size cap, naming the line', async () => {
    const res = await estimate(nestedVec(20_000));
    expectValidation(res, /nested deeper than 64 levels/);
    expect(res.json().error.details[0]).toMatchObject({ line: 3 });
  });

  it('refuses huge unbalanced braces', async () => {
    expectValidation(await estimate('pub struct A {'.repeat(70_000)), /at most/);
    expectValidation(await estimate('pub struct A {'.repeat(10_000)), /nested deeper/);
    expectValidation(await estimate('{'.repeat(150_000)), /nested deeper/);
  });

  it('refuses a type graph that doubles at each level (exponential sizing)', async () => {
    let code = '#[account]\npub struct S0 { pub a: S1, pub b: S1 }\n';
    for (let i = 1; i < 40; i++) code += `pub struct S${i} { pub a: S${i + 1}, pub b: S${i + 1} }\n`;
    code += 'pub struct S40 { pub x: u8 }\n';
    expectValidation(await estimate(code), /type look-ups/);
  });

  it('still estimates long but shallow input (attributes, closing braces, whitespace) under the cap', async () => {
    for (const code of [
      '#[]'.repeat(60_000),
      '}'.repeat(150_000),
      `#[account]\npub struct A { pub owner: Pubkey${' '.repeat(150_000)}, }`,
    ]) {
      const res = await estimate(code);
      expect(res.statusCode).toBe(200);
      expect(res.json().success).toBe(true);
    }
  });
});

describe('the Rust shape check', () => {
  it('accepts nesting up to the limit and counts generics, not comparisons or arrows', () => {
    expect(() => assertRustShape(nestedVec(MAX_RUST_NESTING))).not.toThrow();
    expect(() => assertRustShape(nestedVec(MAX_RUST_NESTING + 1))).toThrow(ApiError);
    const statements = Array.from(
      { length: 200 },
      (_, i) => `let x${i} = a<b; let y${i} = f() -> c; if a <= b {}`,
    ).join('\n');
    expect(() => assertRustShape(statements)).not.toThrow();
  });

  it('skips brackets inside comments, strings and char literals', () => {
    const hidden = `// ${'{'.repeat(1000)}\n/* ${'('.repeat(1000)} */\nlet s = "${'['.repeat(1000)}";\nlet c = '{';\nfn f<'a>(x: &'a u8) {}`;
    expect(() => assertRustShape(hidden)).not.toThrow();
  });

  it('refuses an oversized source before parsing it', () => {
    expect(() => assertRustShape('x'.repeat(MAX_RUST_SOURCE + 1))).toThrow(/too large/);
    expect(() => estimateSolana({ contractCode: 'x'.repeat(MAX_RUST_SOURCE + 1) })).toThrow(ApiError);
  });

  it('parseAnchorProgram refuses deep nesting with a validation error instead of recursing', async () => {
    await expect(parseAnchorProgram(nestedVec(5_000))).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
  });
});

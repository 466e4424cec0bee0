import { randomBytes } from 'node:crypto';
import bs58 from 'bs58';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  estimateSolana,
  isSolanaZeroAddress,
  isValidSolanaAddress,
  lamportsToSol,
  programForShape,
  rentExemptLamports,
  solanaAddressProblem,
  buildProgramModel,
} from '../../../src/contracts/solana/index.js';
import { accountSizes } from '../../../src/contracts/solana/program.js';

describe('rent', () => {
  it('matches the rent-exempt formula for known account sizes', () => {
    expect(rentExemptLamports(0)).toBe(890_880);
    expect(rentExemptLamports(165)).toBe(2_039_280); // SPL token account
    expect(rentExemptLamports(82)).toBe(1_461_600); // SPL mint
    expect(rentExemptLamports(36)).toBe(1_141_440); // upgradeable program account
  });
  it('is (128 + len) × 6960 for any size', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10 * 1024 * 1024 }),
        (len) => rentExemptLamports(len) === (128 + len) * 6960,
      ),
    );
  });
  it('rejects impossible sizes', () => {
    expect(() => rentExemptLamports(-1)).toThrow(RangeError);
    expect(() => rentExemptLamports(1.5)).toThrow(RangeError);
  });
  it('formats lamports as SOL exactly', () => {
    expect(lamportsToSol(890_880)).toBe('0.00089088');
    expect(lamportsToSol(1_000_000_000)).toBe('1');
    expect(lamportsToSol(1_500_000_001)).toBe('1.500000001');
    expect(lamportsToSol(0)).toBe('0');
  });
});

describe('estimateSolana', () => {
  const full = { template: 'custom', deadMansSwitch: true, multiSig: true, splTokens: true } as const;

  it('computes each account deposit from its byte size', async () => {
    const { source } = await programForShape(full);
    const e = estimateSolana({ contractCode: source, beneficiaries: 10, guardians: 3 });
    // Sizes from the program model (an independent path from the estimator's reading of the source).
    const sizes = accountSizes(buildProgramModel(full), 10, 3);
    // 121: the fixed fields, with the guardians' early_release_at (i64), vetoes_used (u8), and the plan's
    // guardian_wait (i64) and max_vetoes (u8)
    expect(sizes.Vault).toBe(8 + 121 + 10 * 42 + 3 * 32);
    const vault = e.items.find((i) => i.name.startsWith('Vault account rent'))!;
    expect(vault).toMatchObject({ lamports: rentExemptLamports(sizes.Vault!), basis: 'computed' });
    expect(vault.name).toContain(`${sizes.Vault} bytes`);
    expect(vault.sol).toBe(lamportsToSol(vault.lamports));
    expect(e.items.find((i) => i.name.startsWith('TokenLedger'))).toMatchObject({
      lamports: rentExemptLamports(sizes.TokenLedger!),
      basis: 'computed',
    });
    expect(e.items.find((i) => i.name.startsWith('ClaimRecord'))).toMatchObject({
      lamports: rentExemptLamports(sizes.ClaimRecord!),
      basis: 'computed',
    });
    expect(e.items.find((i) => i.name.startsWith('Associated token account'))).toMatchObject({
      lamports: 2_039_280,
      basis: 'computed',
    });
    expect(e.items.find((i) => i.name.startsWith('Rent per added beneficiary'))).toMatchObject({
      lamports: 42 * 6960,
      basis: 'computed',
    });
    expect(e.items.find((i) => i.name.startsWith('Signature fee'))).toMatchObject({
      lamports: 5000,
      basis: 'computed',
    });
    expect(e.items.find((i) => i.name.startsWith('Program data account'))?.basis).toBe('assumed');
    const cu = e.items.filter((i) => i.computeUnits !== undefined);
    expect(cu.map((i) => i.name.split(' ')[2])).toEqual(
      expect.arrayContaining(['initialize', 'claim_sol', 'claim_token', 'veto']),
    );
    expect(cu.every((i) => i.basis === 'assumed')).toBe(true);
    expect(e.currency).toBe('SOL');
    expect(e.deployment).toContain(lamportsToSol(vault.lamports));
    expect(e.update).toContain('292,320 lamports');
  });

  it('the printed BASE_LEN agrees with the struct layout', async () => {
    for (const multiSig of [false, true]) {
      const shape = { ...full, multiSig };
      const { source } = await programForShape(shape);
      const printed = Number(/pub const BASE_LEN: usize = (\d+);/.exec(source)![1]);
      expect(accountSizes(buildProgramModel(shape), 0, 0).Vault).toBe(8 + printed);
      const e = estimateSolana({ contractCode: source, beneficiaries: 1, guardians: 1 });
      const expected = 8 + printed + 42 + (multiSig ? 32 : 0);
      expect(e.items[0]).toMatchObject({ lamports: rentExemptLamports(expected) });
    }
  });

  it('scales with the number of beneficiaries', async () => {
    const { source } = await programForShape({ ...full, multiSig: false, splTokens: false });
    const a = estimateSolana({ contractCode: source, beneficiaries: 1 }).items[0]!;
    const b = estimateSolana({ contractCode: source, beneficiaries: 50 }).items[0]!;
    expect(b.lamports - a.lamports).toBe(49 * 42 * 6960);
  });

  it('falls back to the default program for code that is not an Anchor program', () => {
    const e = estimateSolana({ contractCode: 'pragma solidity ^0.8.0; contract A {}', beneficiaries: 3 });
    expect(e.method).toMatch(/has no #\[account\] struct/);
    expect(e.items[0]).toMatchObject({
      basis: 'computed',
      lamports: estimateSolana({ beneficiaries: 3 }).items[0]!.lamports,
    });
  });

  it('marks figures it had to assume', () => {
    const e = estimateSolana({});
    expect(e.items[0]).toMatchObject({ basis: 'assumed' });
    expect(e.items[0]!.name).toMatch(/2 beneficiaries assumed/);
    expect(e.method).toMatch(/default program/);
    const given = estimateSolana({ beneficiaries: 4 });
    expect(given.items[0]).toMatchObject({ basis: 'computed' });
    expect(given.items.some((i) => i.name.startsWith('TokenLedger'))).toBe(false);
  });
});

describe('Solana addresses', () => {
  it('accepts base58 32-byte keys', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (bytes) => isValidSolanaAddress(bs58.encode(bytes))),
    );
    expect(isValidSolanaAddress('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA')).toBe(true);
  });

  it('rejects other lengths, with the decoded length in the reason', () => {
    for (const n of [31, 33, 20, 64]) {
      const a = bs58.encode(Buffer.alloc(n, 0xa7));
      expect(isValidSolanaAddress(a)).toBe(false);
      expect(solanaAddressProblem(a)).toBe(`decodes to ${n} bytes; a Solana address is a 32-byte key`);
    }
    expect(solanaAddressProblem('2'.repeat(120))).toMatch(/120 characters long/);
  });

  it('names the offending character and its position', () => {
    const good = bs58.encode(randomBytes(32));
    const bad = good.slice(0, 5) + '0' + good.slice(6);
    expect(isValidSolanaAddress(bad)).toBe(false);
    expect(solanaAddressProblem(bad)).toBe(
      'contains "0" at position 6, which is not a base58 character (base58 excludes 0, O, I and l)',
    );
    expect(solanaAddressProblem('0x' + 'ab'.repeat(20))).toMatch(/"0" at position 1/);
    expect(solanaAddressProblem('')).toBe('is empty');
    expect(solanaAddressProblem(` ${good}`)).toMatch(/whitespace/);
  });

  it('treats the all-zero key as well-formed but not usable', () => {
    const zero = '11111111111111111111111111111111';
    expect(isValidSolanaAddress(zero)).toBe(true);
    expect(isSolanaZeroAddress(zero)).toBe(true);
    expect(solanaAddressProblem(zero)).toMatch(/all-zero key/);
    expect(solanaAddressProblem(zero, { rejectZero: false })).toBeUndefined();
  });
});

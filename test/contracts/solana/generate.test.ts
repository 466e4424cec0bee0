import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/core/errors.js';
import { TEMPLATE_TYPES } from '../../../src/law/templates.js';
import {
  checkAnchorProgram,
  generateSolana,
  programForShape,
  rustParser,
  type SolanaGenerated,
} from '../../../src/contracts/solana/index.js';
import { addr, FEATURE_SETS, featureLabel, makePlan, type FeatureSet } from './fixtures.js';

const COUNTS = [1, 2, 10, 50];
const EXPECTED_CHECKS = [
  'rust-syntax',
  'program-module',
  'declare-id',
  'accounts-structs',
  'account-types',
  'account-space',
  'mutable-accounts-checked',
  'signer-checks',
  'pda-state-accounts',
  'state-changes-emit-events',
  'owner-actions-prove-life',
  'idl-instructions',
  'idl-pda-seeds',
  'idl-types',
  'idl-events',
  'initialize-arguments',
];

function expectedInstructions(f: FeatureSet): string[] {
  return [
    'initialize',
    'deposit_sol',
    ...(f.deadMansSwitch ? ['check_in', 'trigger'] : ['release']),
    ...(f.multiSig ? ['confirm_release'] : []),
    ...(f.multiSig && f.deadMansSwitch ? ['veto'] : []),
    'update_beneficiaries',
    ...(f.multiSig ? ['update_guardians'] : []),
    'withdraw_sol',
    'cancel',
    'claim_sol',
    ...(f.splTokens ? ['deposit_token', 'withdraw_token', 'claim_token'] : []),
  ].sort();
}

/** Syntax diagnostics of a TypeScript snippet. */
function tsSyntaxErrors(code: string): string[] {
  const out = ts.transpileModule(code, {
    reportDiagnostics: true,
    compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
  });
  return (out.diagnostics ?? []).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe.concurrent('every template × feature set × beneficiary count', () => {
  for (const template of TEMPLATE_TYPES) {
    for (const f of FEATURE_SETS) {
      it(`${template} / ${featureLabel(f)}`, async () => {
        const results: SolanaGenerated[] = [];
        for (const n of COUNTS) {
          const plan = makePlan(template, f, n);
          const g = await generateSolana(plan);
          results.push(g);

          // Every check ran and passed.
          expect(g.checks.map((c) => c.name)).toEqual(EXPECTED_CHECKS);
          for (const c of g.checks) expect(c, `${c.name}: ${c.detail}`).toMatchObject({ passed: true });

          // The IDL lists exactly the instructions of the source, and those the features call for.
          const fromSource = [...g.contractCode.matchAll(/pub fn (\w+)\(ctx: Context<(\w+)>/g)]
            .map((m) => m[1]!)
            .sort();
          const fromIdl = (g.idl.instructions as Array<{ name: string }>).map((i) => i.name).sort();
          expect(fromIdl).toEqual(fromSource);
          expect(fromSource).toEqual(expectedInstructions(f));

          expect(g.features).toEqual(
            [f.deadMansSwitch && 'deadMansSwitch', f.multiSig && 'multiSig', f.splTokens && 'splTokens'].filter(
              Boolean,
            ),
          );
          expect(g.contractCode).toContain(`pub const TEMPLATE: &str = "${template}";`);
          // Per-plan values live in the initialize arguments, never in the program.
          for (const b of plan.beneficiaries) expect(g.contractCode).not.toContain(b.address);
          expect(g.contractCode).not.toContain(plan.ownerAddress);

          // The client snippet carries the plan's values and is valid TypeScript.
          for (const b of plan.beneficiaries) {
            expect(g.clientSnippet).toContain(
              `new PublicKey('${b.address}'), shareBps: ${Math.round(b.percentage * 100)} }`,
            );
          }
          const bpsSum = [...g.clientSnippet.matchAll(/shareBps: (\d+)/g)].reduce((s, m) => s + Number(m[1]), 0);
          expect(bpsSum).toBe(10_000);
          expect(g.clientSnippet.includes('intervalDays: 180')).toBe(f.deadMansSwitch);
          expect(g.clientSnippet.includes('threshold: 2')).toBe(f.multiSig);
          expect(g.clientSnippet).not.toContain('Heir '); // names stay off the snippet
          expect(tsSyntaxErrors(g.clientSnippet)).toEqual([]);

          expect(g.cargoToml.includes('anchor-spl')).toBe(f.splTokens);
          expect(g.anchorToml).toContain(`svc_inheritance = "${g.idl.address as string}"`);
          expect(g.contractCode).toContain(`declare_id!("${g.idl.address as string}");`);
          expect(g.buildInstructions.required).toBe('anchor build');
          expect(g.buildInstructions.commands).toContain('anchor build');
          expect(g.analysis.securityScore).toBeGreaterThanOrEqual(0);
          expect(g.analysis.securityScore).toBeLessThanOrEqual(100);
        }
        // The source depends only on the shape: identical for every beneficiary count.
        expect(new Set(results.map((r) => r.contractCode)).size).toBe(1);
        // The vault rent grows with the number of beneficiaries.
        const rents = results.map((r) => Number(/vault rent ([\d.]+) SOL/.exec(r.estimatedGas)?.[1]));
        expect(rents.every((x, i) => i === 0 || x > rents[i - 1]!)).toBe(true);
      });
    }
  }
});

describe('generateSolana', () => {
  it('gives different programs for different shapes, and the same id for the same shape', async () => {
    const a = await generateSolana(makePlan('custom', FEATURE_SETS[1]!, 2));
    const b = await generateSolana(makePlan('custom', FEATURE_SETS[3]!, 2));
    const c = await generateSolana(makePlan('civil-law', FEATURE_SETS[1]!, 2));
    expect(a.contractCode).not.toBe(b.contractCode);
    expect(a.idl.address).not.toBe(b.idl.address);
    expect(a.idl.address).not.toBe(c.idl.address);
    const again = await generateSolana(makePlan('custom', FEATURE_SETS[1]!, 7));
    expect(again.idl.address).toBe(a.idl.address);
  });

  it('returns a copy of the IDL, so callers cannot corrupt the cache', async () => {
    const a = await generateSolana(makePlan('custom', FEATURE_SETS[0]!, 1));
    (a.idl.instructions as unknown[]).length = 0;
    const b = await generateSolana(makePlan('custom', FEATURE_SETS[0]!, 1));
    expect((b.idl.instructions as unknown[]).length).toBeGreaterThan(0);
  });

  it('refuses to return a program whose checks fail (bad initialize arguments)', async () => {
    const plan = makePlan('custom', FEATURE_SETS[1]!, 2);
    plan.beneficiaries[0]!.address = '0xNotASolanaAddress';
    const err = await generateSolana(plan).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('INTERNAL_ERROR');
    expect((err as ApiError).details?.[0]?.field).toBe('checks.initialize-arguments');
    expect((err as ApiError).details?.[0]?.reason).toMatch(/not a base58 character/);
  });

  it('refuses shares that do not round to 10000 basis points', async () => {
    const plan = makePlan('custom', FEATURE_SETS[0]!, 2);
    plan.beneficiaries[0]!.percentage = 50.006; // 5001 bps
    plan.beneficiaries[1]!.percentage = 49.996; // 5000 bps
    await expect(generateSolana(plan)).rejects.toMatchObject({ code: 'INTERNAL_ERROR' });
  });

  it('documents the release path and flags risky settings', async () => {
    const noSwitch = await generateSolana(makePlan('custom', FEATURE_SETS[0]!, 2));
    expect(noSwitch.contractCode).toMatch(/Release: this plan has no dead man's switch/);
    expect(noSwitch.analysis.warnings.map((w) => w.id)).toContain('no-dead-mans-switch');
    const safer = await generateSolana(makePlan('custom', FEATURE_SETS[1]!, 2));
    expect(safer.analysis.warnings.map((w) => w.id)).not.toContain('no-dead-mans-switch');
    expect(safer.analysis.securityScore).toBeGreaterThan(noSwitch.analysis.securityScore);

    const risky = await generateSolana(
      makePlan('custom', FEATURE_SETS[3]!, 2, {
        deadMansSwitch: { enabled: true, intervalDays: 7, gracePeriodDays: 0 },
        guardians: { addresses: [addr('g1'), addr('g2'), addr('g3')], threshold: 1 },
        assets: [{ type: 'erc20', address: addr('x') }],
      }),
    );
    const ids = risky.analysis.warnings.map((w) => w.id);
    expect(ids).toEqual(
      expect.arrayContaining(['no-grace-period', 'short-interval', 'guardian-threshold-one', 'unsupported-assets']),
    );
    expect(risky.analysis.securityScore).toBeLessThan(safer.analysis.securityScore);
  });

  it('initialises the parser once and reuses it', async () => {
    const [p1, p2] = await Promise.all([rustParser(), rustParser()]);
    expect(p1).toBe(p2);
    expect(await rustParser()).toBe(p1);
  });
});

describe('build files', () => {
  it('Cargo.toml and Anchor.toml are well-formed TOML with the expected keys', async () => {
    const g = await generateSolana(makePlan('custom', FEATURE_SETS[7]!, 3));
    for (const toml of [g.cargoToml, g.anchorToml]) {
      for (const line of toml.split('\n').filter((l) => l.trim() !== '')) {
        expect(line).toMatch(/^\[[\w.-]+\]$|^[\w-]+ = ("(?:[^"\\]|\\.)*"|true|false|\d+|\[.*\]|\{ .* \})$/);
        const value = line.split(' = ')[1];
        if (value?.startsWith('"') || value?.startsWith('[')) expect(() => JSON.parse(value)).not.toThrow();
      }
    }
    expect(g.cargoToml).toContain('anchor-lang = { version = "0.31.1", features = ["init-if-needed"] }');
    expect(g.cargoToml).toContain('idl-build = ["anchor-lang/idl-build", "anchor-spl/idl-build"]');
    expect(g.anchorToml).toContain('[programs.devnet]');
    const plain = await generateSolana(makePlan('custom', FEATURE_SETS[0]!, 3));
    expect(plain.cargoToml).toContain('anchor-lang = "0.31.1"');
    expect(plain.cargoToml).not.toContain('init-if-needed');
  });
});

describe('snapshots of the sources', () => {
  for (const f of FEATURE_SETS) {
    it(`lib.rs (${featureLabel(f)})`, async () => {
      const { source } = await programForShape({ template: 'custom', ...f });
      await expect(source).toMatchFileSnapshot(`./__snapshots__/lib.${featureLabel(f)}.rs`);
    });
  }
  it('IDL (all features)', async () => {
    const { idl } = await programForShape({
      template: 'islamic-mirth',
      deadMansSwitch: true,
      multiSig: true,
      splTokens: true,
    });
    await expect(JSON.stringify(idl, null, 2) + '\n').toMatchFileSnapshot(
      './__snapshots__/idl.switch-multisig-spl.json',
    );
  });
  it('checkAnchorProgram without an IDL runs only the source checks', async () => {
    const { source } = await programForShape({
      template: 'custom',
      deadMansSwitch: true,
      multiSig: false,
      splTokens: false,
    });
    const checks = await checkAnchorProgram(source);
    expect(checks.map((c) => c.name)).toEqual(EXPECTED_CHECKS.slice(0, 11));
    expect(checks.every((c) => c.passed)).toBe(true);
  });
});

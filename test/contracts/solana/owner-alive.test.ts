import { describe, expect, it } from 'vitest';
import {
  GUARDIAN_WAIT_DAYS,
  GUARDIAN_WAIT_DAYS_MAX,
  GUARDIAN_WAIT_DAYS_MIN,
  MAX_VETOES_LIMIT,
} from '../../../src/contracts/guardians.js';
import { checkAnchorProgram, generateSolana, programForShape } from '../../../src/contracts/solana/index.js';
import { addr, FEATURE_SETS, featureLabel, makePlan } from './fixtures.js';

// A living owner stays in control of a Solana vault, checked on the generated Anchor source (no Solana toolchain
// here): every instruction the owner may sign that changes the vault is proof of life, and the guardians' early
// release waits for the owner's silence while their vetoes are bounded.

type Checks = Awaited<ReturnType<typeof checkAnchorProgram>>;
const check = (checks: Checks, name: string) => checks.find((c) => c.name === name);

/** The body of `fn <name>(` in the source, up to its closing brace at the same indentation. */
function fnBody(source: string, name: string): string {
  const at = source.search(new RegExp(`\\n( *)pub fn ${name}\\(`));
  expect(at, `fn ${name}`).toBeGreaterThan(0);
  const indent = /\n( *)pub fn/.exec(source.slice(at))![1]!;
  const end = source.indexOf(`\n${indent}}\n`, at + 1);
  return source.slice(at, end);
}

describe.concurrent('Solana: every owner instruction is proof of life', () => {
  for (const fs of FEATURE_SETS.filter((f) => f.deadMansSwitch || f.multiSig)) {
    it(`${featureLabel(fs)}: the structural check passes and each owner instruction calls prove_life`, async () => {
      const { source } = await programForShape({ template: 'custom', ...fs });
      const checks = await checkAnchorProgram(source);
      expect(check(checks, 'owner-actions-prove-life')).toMatchObject({ passed: true });
      const owned = [
        'update_beneficiaries',
        'withdraw_sol',
        'deposit_sol',
        ...(fs.deadMansSwitch ? ['check_in'] : []),
        ...(fs.multiSig ? ['update_guardians'] : []),
        ...(fs.splTokens ? ['withdraw_token', 'deposit_token'] : []),
      ];
      for (const ix of owned) expect(fnBody(source, ix), ix).toMatch(/\.prove_life\(now\)/);
      const prove = fnBody(source, 'prove_life');
      if (fs.deadMansSwitch) expect(prove).toMatch(/self\.last_check_in = now;/);
      if (fs.multiSig) expect(prove).toMatch(/self\.early_release_at = 0;/);
      if (fs.multiSig && fs.deadMansSwitch) expect(prove).toMatch(/self\.vetoes_used = 0;/);
      // A deposit is proof of life only when the owner signs it.
      expect(fnBody(source, 'deposit_sol')).toMatch(
        /if ctx\.accounts\.depositor\.key\(\) == ctx\.accounts\.vault\.owner/,
      );
    });
  }

  it('the check fails when an owner instruction does not move the deadline (as before this change)', async () => {
    const { source } = await programForShape({
      template: 'custom',
      deadMansSwitch: true,
      multiSig: true,
      splTokens: true,
    });
    const update = fnBody(source, 'update_beneficiaries');
    const broken = source.replace(update, update.replace(/\n\s*vault\.prove_life\(now\);/, ''));
    expect(broken).not.toBe(source);
    const c = check(await checkAnchorProgram(broken), 'owner-actions-prove-life');
    expect(c?.passed).toBe(false);
    expect(c?.detail).toMatch(/update_beneficiaries .* does not call prove_life/);
    // A withdrawal whose vault is read-only cannot move the deadline either.
    const ro = source.replace(/pub struct WithdrawToken<'info> \{([\s\S]*?)#\[account\(\s*mut,/, (m) =>
      m.replace(/mut,/, ''),
    );
    expect(ro).not.toBe(source);
    expect(check(await checkAnchorProgram(ro), 'owner-actions-prove-life')?.passed).toBe(false);
  });
});

describe.concurrent('Solana guardians cannot overrule a living owner', () => {
  it("confirm_release proposes a release the plan's wait later; claims_open needs it due; vetoes are bounded", async () => {
    const { source } = await programForShape({
      template: 'custom',
      deadMansSwitch: true,
      multiSig: true,
      splTokens: false,
    });
    // The wait and the veto bound are the plan's, set at initialization within bounds the program checks.
    expect(source).toContain(`pub const MIN_GUARDIAN_WAIT_DAYS: u16 = ${GUARDIAN_WAIT_DAYS_MIN};`);
    expect(source).toContain(`pub const MAX_GUARDIAN_WAIT_DAYS: u16 = ${GUARDIAN_WAIT_DAYS_MAX};`);
    expect(source).toContain(`pub const MAX_VETO_LIMIT: u8 = ${MAX_VETOES_LIMIT};`);
    const init = fnBody(source, 'initialize');
    expect(init).toContain(
      'require!(args.guardian_wait_days >= MIN_GUARDIAN_WAIT_DAYS && args.guardian_wait_days <= MAX_GUARDIAN_WAIT_DAYS, InheritanceError::InvalidGuardianWait);',
    );
    expect(init).toContain('require!(args.max_vetoes <= MAX_VETO_LIMIT, InheritanceError::InvalidVetoLimit);');
    expect(init).toContain('vault.guardian_wait = i64::from(args.guardian_wait_days) * 86_400;');
    expect(init).toContain('vault.max_vetoes = args.max_vetoes;');
    const confirm = fnBody(source, 'confirm_release');
    expect(confirm).not.toMatch(/VaultStatus::Released;/);
    expect(confirm).toMatch(/vault\.early_release_at = now\.saturating_add\(vault\.guardian_wait\);/);
    const open = fnBody(source, 'claims_open');
    expect(open).toMatch(/let by_guardians = self\.early_release_at > 0 && now >= self\.early_release_at;/);
    expect(open).toMatch(/VaultStatus::Active => by_guardians,/);
    const veto = fnBody(source, 'veto');
    expect(veto).toMatch(/require!\(vault\.vetoes_used < vault\.max_vetoes, InheritanceError::VetoLimitReached\);/);
    expect(veto).toMatch(/vault\.vetoes_used \+= 1;/);
    // The owner window closes once the guardians' release took effect.
    expect(fnBody(source, 'owner_window_open')).toMatch(/!self\.claims_open\(now\)/);
    const checks = await checkAnchorProgram(source);
    expect(checks.filter((c) => !c.passed)).toEqual([]);
  });

  it('the analysis explains every threshold, not only 1 of n', async () => {
    for (const [n, m] of [
      [3, 2],
      [3, 3],
      [5, 3],
    ] as const) {
      const guardians = { addresses: Array.from({ length: n }, (_, i) => addr(`g${i}`)), threshold: m };
      const plan = makePlan('custom', { deadMansSwitch: true, multiSig: true, splTokens: false }, 2, { guardians });
      const out = await generateSolana(plan);
      const w = out.analysis.warnings.find((x) => x.id === 'guardian-threshold');
      expect(w?.message).toContain(`${m} of ${n} guardians can propose an early release`);
      expect(w?.message).toContain(`${GUARDIAN_WAIT_DAYS} days`);
    }
  });

  it('a plan with a 14-day wait and one veto: the client snippet initializes the vault with them; the advice says so', async () => {
    const guardians = { addresses: [addr('g1'), addr('g2'), addr('g3')], threshold: 2, waitDays: 14, maxVetoes: 1 };
    const plan = makePlan('custom', { deadMansSwitch: true, multiSig: true, splTokens: false }, 2, { guardians });
    const out = await generateSolana(plan);
    const script = out.clientSnippet;
    expect(script).toContain('  guardianWaitDays: 14,');
    expect(script).toContain('  maxVetoes: 1,');
    expect(script).toContain('the claims open 14 days later unless the owner acts first');
    const w = out.analysis.warnings.find((x) => x.id === 'guardian-threshold');
    expect(w?.message).toContain('after 14 days');
    expect(w?.message).toContain('once after');
    expect(w?.message).toContain('the wait to 14 days instead of 30 and the veto bound to 1 instead of 2');
    // without a switch there is no veto, and no veto bound to pass
    const noSwitch = await generateSolana(
      makePlan('custom', { deadMansSwitch: false, multiSig: true, splTokens: false }, 2, { guardians }),
    );
    const s2 = noSwitch.clientSnippet;
    expect(s2).toContain('  guardianWaitDays: 14,');
    expect(s2).not.toContain('maxVetoes');
    expect(noSwitch.contractCode).not.toContain('max_vetoes');
  });
});

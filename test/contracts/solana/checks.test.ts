import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkAnchorProgram, generateSolana, programForShape } from '../../../src/contracts/solana/index.js';
import { FEATURE_SETS, featureLabel, makePlan } from './fixtures.js';
import { bytesOf, type IdlInstruction } from '../../../src/contracts/solana/idl.js';

// The structural checks must catch real problems: each test breaks a good
// program (or its IDL) in one way and expects exactly the matching check to fail.

let source = '';
let idl: Record<string, unknown> = {};

beforeAll(async () => {
  const out = await programForShape({ template: 'custom', deadMansSwitch: true, multiSig: true, splTokens: true });
  source = out.source;
  idl = out.idl;
});

type Checks = Awaited<ReturnType<typeof checkAnchorProgram>>;
const failed = (checks: Checks): string[] => checks.filter((c) => !c.passed).map((c) => c.name);
const detail = (checks: Checks, name: string): string => checks.find((c) => c.name === name)?.detail ?? '';
/** The IDL as these tests edit it: its instructions, and its events and account types by the parts they change. */
type EditableIdl = Record<string, unknown> & {
  instructions: IdlInstruction[];
  events: Array<{ name: string; discriminator: number[] }>;
  types: Array<{ name: string; type: { fields: unknown[] } }>;
};
const cloneIdl = (): EditableIdl => structuredClone(idl) as never;

/** The text of `pub struct <name><'info> { ... }` with its attributes, in the good source. */
function accountsStructText(name: string): string {
  const head = source.indexOf(`pub struct ${name}<'info> {`);
  expect(head).toBeGreaterThan(0);
  const attr = source.lastIndexOf('#[derive(Accounts)]', head);
  const end = source.indexOf('\n}\n', head) + 3;
  return source.slice(attr, end);
}

/** Replaces one exact occurrence inside the accounts struct `name`. */
function editStruct(name: string, from: string, to: string): string {
  const text = accountsStructText(name);
  expect(text).toContain(from);
  return source.replace(text, text.replace(from, to));
}

// A small program in another common style (lifetimes on Context, has_one without an error, InitSpace, CHECK docs):
// the checks are not tuned to the generator's own output.
const COUNTER = `use anchor_lang::prelude::*;

declare_id!("Fg6PaFpoGXkYsidMpWTK6W2BeZ7FEfcYkg476zPFsLnS");

#[program]
pub mod counter {
    use super::*;

    pub fn initialize(ctx: Context<Initialize>, start: u64) -> Result<()> {
        ctx.accounts.counter.count = start;
        ctx.accounts.counter.authority = ctx.accounts.authority.key();
        emit!(CounterSet { count: start });
        Ok(())
    }

    pub fn increment<'info>(ctx: Context<'_, '_, '_, 'info, Increment<'info>>) -> Result<()> {
        ctx.accounts.counter.count = ctx.accounts.counter.count.checked_add(1).unwrap();
        emit!(CounterSet { count: ctx.accounts.counter.count });
        Ok(())
    }
}

#[derive(Accounts)]
pub struct Initialize<'info> {
    #[account(init, payer = authority, space = 8 + Counter::INIT_SPACE, seeds = [b"counter", authority.key().as_ref()], bump)]
    pub counter: Account<'info, Counter>,
    #[account(mut)]
    pub authority: Signer<'info>,
    pub system_program: Program<'info, System>,
}

#[derive(Accounts)]
pub struct Increment<'info> {
    #[account(mut, seeds = [b"counter", authority.key().as_ref()], bump, has_one = authority)]
    pub counter: Account<'info, Counter>,
    pub authority: Signer<'info>,
    /// CHECK: only read, never written
    pub memo: UncheckedAccount<'info>,
}

#[account]
#[derive(InitSpace)]
pub struct Counter {
    pub authority: Pubkey,
    pub count: u64,
}

#[event]
pub struct CounterSet {
    pub count: u64,
}
`;

describe.concurrent('every state change emits an event', () => {
  it.each(FEATURE_SETS.map((f) => [featureLabel(f), f] as const))(
    '%s: every state-changing instruction emits a declared event listed in the IDL',
    async (_label, f) => {
      const out = await programForShape({ template: 'custom', ...f });
      const checks = await checkAnchorProgram(out.source, out.idl);
      expect(failed(checks)).toEqual([]);
      const ixs = (
        out.idl.instructions as Array<{ name: string; accounts: Array<{ writable?: boolean; signer?: boolean }> }>
      ).filter((i) => i.accounts.some((a) => a.writable && !a.signer));
      expect(detail(checks, 'state-changes-emit-events')).toBe(
        `${ixs.length} state-changing instructions, each emitting a declared event`,
      );
      const events = (out.idl.events as Array<{ name: string }>).map((e) => e.name);
      const types = (out.idl.types as Array<{ name: string }>).map((t) => t.name);
      for (const e of ['Deposited', 'Withdrawn', 'Claimed', 'VaultCancelled']) {
        expect(events).toContain(e);
        expect(types).toContain(e);
      }
      if (f.multiSig) expect(events).toContain('ReleaseApproved');
      if (f.multiSig && f.deadMansSwitch) expect(events).toContain('VetoCast');
      // the advice lists exactly the events of the program
      const g = await generateSolana(makePlan('custom', f, 2));
      const advice = g.analysis.warnings.find((w) => w.id === 'solana-events')?.message ?? '';
      const listed = /emits an Anchor event \(([^)]*)\)/.exec(advice)?.[1]?.split(', ') ?? [];
      expect([...listed].sort()).toEqual([...events].sort());
      // every instruction body that the IDL lists as changing state has an emit! in the source
      for (const ix of ixs) {
        const start = out.source.indexOf(`pub fn ${ix.name}(`);
        const end = out.source.indexOf('\n    }\n', start);
        expect(out.source.slice(start, end), ix.name).toMatch(/emit!\(/);
      }
    },
  );
});

describe.concurrent('broken variants are detected', () => {
  it('a third-party style program passes, and breaking it is caught', async () => {
    expect(failed(await checkAnchorProgram(COUNTER))).toEqual([]);
    const unbound = COUNTER.replace(', has_one = authority)]', ')]').replace(
      ', seeds = [b"counter", authority.key().as_ref()], bump)]\n    pub counter: Account<\'info, Counter>,\n    pub authority',
      ")]\n    pub counter: Account<'info, Counter>,\n    pub authority",
    );
    const checks = await checkAnchorProgram(
      unbound.replace('#[account(mut, seeds = [b"counter", authority.key().as_ref()], bump)]', '#[account(mut)]'),
    );
    expect(failed(checks)).toEqual(['mutable-accounts-checked', 'signer-checks', 'pda-state-accounts']);
  });

  it('the good program passes every check', async () => {
    const checks = await checkAnchorProgram(source, idl);
    expect(failed(checks)).toEqual([]);
    expect(checks.map((c) => c.name)).toEqual(expect.arrayContaining(['state-changes-emit-events', 'idl-events']));
  });

  it('a state-changing instruction that emits no event', async () => {
    // deposit_sol and withdraw_sol emitted nothing before: the check names them
    let broken = source;
    for (const ev of ['Deposited', 'Withdrawn']) {
      broken = broken.replace(new RegExp(`\\n\\s*emit!\\(${ev} \\{[^\\n]*mint: None[^\\n]*\\);`), '');
    }
    expect(broken).not.toBe(source);
    const checks = await checkAnchorProgram(broken, idl);
    expect(failed(checks)).toEqual(['state-changes-emit-events']);
    expect(detail(checks, 'state-changes-emit-events')).toMatch(
      /instruction deposit_sol \(line \d+\) changes vault but emits no event; instruction withdraw_sol \(line \d+\) changes vault but emits no event/,
    );
    // an emit! in a comment or a string is not an event
    const commented = source.replace(
      /(\n\s*)(emit!\(Deposited \{[^\n]*mint: None[^\n]*\);)/,
      '$1// $2$1msg!("emit!(Deposited {{ }})");',
    );
    expect(commented).not.toBe(source);
    expect(detail(await checkAnchorProgram(commented, idl), 'state-changes-emit-events')).toMatch(
      /^instruction deposit_sol \(line \d+\) changes vault but emits no event$/,
    );
    // the COUNTER program without its events fails the same check
    const quiet = COUNTER.replace(/\n\s*emit!\(CounterSet[^\n]*;/g, '');
    expect(failed(await checkAnchorProgram(quiet))).toEqual(['state-changes-emit-events']);
  });

  it('an emitted event that is not declared with #[event], and an IDL without an event', async () => {
    const undeclared = source.replace('#[event]\npub struct Deposited', 'pub struct Deposited');
    expect(undeclared).not.toBe(source);
    const checks = await checkAnchorProgram(undeclared, idl);
    expect(failed(checks)).toEqual(['state-changes-emit-events', 'idl-events']);
    expect(detail(checks, 'state-changes-emit-events')).toMatch(
      /emits Deposited, which is not a declared #\[event\] struct/,
    );

    const missing = cloneIdl();
    missing.events = missing.events.filter((e: { name: string }) => e.name !== 'Withdrawn');
    const c1 = await checkAnchorProgram(source, missing);
    expect(failed(c1)).toEqual(['idl-events']);
    expect(detail(c1, 'idl-events')).toMatch(/event Withdrawn is missing from the IDL events/);

    const disc = cloneIdl();
    disc.events[0]!.discriminator = [1, 2, 3, 4, 5, 6, 7, 8];
    expect(detail(await checkAnchorProgram(source, disc), 'idl-events')).toMatch(/wrong discriminator/);
  });

  it('a missing accounts struct', async () => {
    const broken = source.replace(accountsStructText('Cancel'), '');
    const checks = await checkAnchorProgram(broken, idl);
    expect(failed(checks)).toEqual(['accounts-structs']);
    expect(detail(checks, 'accounts-structs')).toMatch(
      /instruction cancel .* Context<Cancel> but no #\[derive\(Accounts\)\] struct Cancel/,
    );
  });

  it('an instruction without a Context', async () => {
    const broken = source.replace(
      'pub fn cancel(ctx: Context<Cancel>) -> Result<()> {',
      'pub fn cancel() -> Result<()> {',
    );
    expect(broken).not.toBe(source);
    const checks = await checkAnchorProgram(broken);
    expect(failed(checks)).toContain('accounts-structs');
    expect(detail(checks, 'accounts-structs')).toMatch(/cancel .* takes no Context/);
  });

  it('a mutable token account without a constraint', async () => {
    const broken = editStruct(
      'DepositToken',
      '#[account(mut, token::mint = mint, token::authority = depositor)]',
      '#[account(mut)]',
    );
    const checks = await checkAnchorProgram(broken, idl);
    expect(failed(checks)).toEqual(['mutable-accounts-checked']);
    expect(detail(checks, 'mutable-accounts-checked')).toMatch(
      /DepositToken\.depositor_token_account .* is mutable without/,
    );
  });

  it('a mutable vault without seeds or has_one', async () => {
    const text = accountsStructText('WithdrawSol');
    const attr = /#\[account\(\n(?:.*\n)*?\s*\)\]\n(\s*)pub vault/.exec(text)!;
    const broken = source.replace(text, text.replace(attr[0], `#[account(mut)]\n${attr[1]}pub vault`));
    const checks = await checkAnchorProgram(broken, idl);
    expect(failed(checks)).toEqual(
      expect.arrayContaining(['mutable-accounts-checked', 'signer-checks', 'pda-state-accounts', 'idl-pda-seeds']),
    );
    expect(detail(checks, 'signer-checks')).toMatch(/WithdrawSol\.owner signs but no has_one/);
    expect(detail(checks, 'pda-state-accounts')).toMatch(/WithdrawSol\.vault .* without seeds and bump/);
  });

  it('a guardian signer that nothing ties to the vault', async () => {
    const broken = editStruct(
      'ConfirmRelease',
      '        constraint = vault.guardian_index(&guardian.key()).is_some() @ InheritanceError::NotGuardian,\n',
      '',
    );
    const checks = await checkAnchorProgram(broken, idl);
    expect(failed(checks)).toEqual(['signer-checks']);
    expect(detail(checks, 'signer-checks')).toMatch(/ConfirmRelease\.guardian signs/);
  });

  it('an accounts struct with no signer at all', async () => {
    const broken = editStruct('Trigger', "pub caller: Signer<'info>,", "pub caller: SystemAccount<'info>,");
    const checks = await checkAnchorProgram(broken);
    expect(failed(checks)).toEqual(['signer-checks']);
    expect(detail(checks, 'signer-checks')).toMatch(/Trigger has no signer/);
  });

  it('an unchecked account without a CHECK comment', async () => {
    const broken = editStruct(
      'Trigger',
      "pub caller: Signer<'info>,",
      "pub caller: Signer<'info>,\n    pub extra: UncheckedAccount<'info>,",
    );
    const checks = await checkAnchorProgram(broken);
    expect(failed(checks)).toEqual(['account-types']);
    const documented = editStruct(
      'Trigger',
      "pub caller: Signer<'info>,",
      "pub caller: Signer<'info>,\n    /// CHECK: only logged\n    pub extra: UncheckedAccount<'info>,",
    );
    expect(failed(await checkAnchorProgram(documented))).toEqual([]);
  });

  it('a seed in the source that differs from the IDL', async () => {
    const broken = editStruct(
      'ClaimSol',
      'seeds = [b"vault", vault.owner.as_ref()]',
      'seeds = [b"vaults", vault.owner.as_ref()]',
    );
    const checks = await checkAnchorProgram(broken, idl);
    expect(failed(checks)).toEqual(['idl-pda-seeds']);
    expect(detail(checks, 'idl-pda-seeds')).toMatch(/^claim_sol\.vault: PDA seeds differ/);
  });

  it('a seed in the IDL that differs from the source', async () => {
    const bad = cloneIdl();
    const ix = bad.instructions.find((i) => i.name === 'claim_token')!;
    const rec = ix.accounts.find((a: { name: string }) => a.name === 'claim_record');
    (rec!.pda!.seeds[0] as { value: number[] }).value = bytesOf('claims');
    const checks = await checkAnchorProgram(source, bad);
    expect(failed(checks)).toEqual(['idl-pda-seeds']);
    expect(detail(checks, 'idl-pda-seeds')).toMatch(/claim_token\.claim_record/);

    const swapped = cloneIdl();
    const seeds = swapped.instructions
      .find((i) => i.name === 'claim_token')!
      .accounts.find((a: { name: string }) => a.name === 'ledger')!.pda!.seeds;
    [seeds[1], seeds[2]] = [seeds[2]!, seeds[1]!];
    expect(failed(await checkAnchorProgram(source, swapped))).toEqual(['idl-pda-seeds']);
  });

  it('a syntax error, reported with its line', async () => {
    const lines = source.split('\n');
    const at = lines.findIndex((l) => l.includes('pub fn trigger('));
    lines.splice(at + 1, 0, '        let broken = ;');
    const checks = await checkAnchorProgram(lines.join('\n'), idl);
    expect(failed(checks)).toContain('rust-syntax');
    expect(detail(checks, 'rust-syntax')).toMatch(new RegExp(`line ${at + 2}, column`));
    const unclosed = await checkAnchorProgram(source.replace(/\n}\n$/, '\n'));
    expect(failed(unclosed)).toContain('rust-syntax');
  });

  it('an IDL missing an instruction, with a wrong argument type or wrong flags', async () => {
    const missing = cloneIdl();
    missing.instructions = missing.instructions.filter((i) => i.name !== 'veto');
    expect(detail(await checkAnchorProgram(source, missing), 'idl-instructions')).toMatch(
      /instruction veto is missing from the IDL/,
    );

    const argType = cloneIdl();
    argType.instructions.find((i) => i.name === 'withdraw_sol')!.args[0]!.type = 'u32';
    const c1 = await checkAnchorProgram(source, argType);
    expect(failed(c1)).toEqual(['idl-instructions']);
    expect(detail(c1, 'idl-instructions')).toMatch(/withdraw_sol: arguments differ/);

    const flags = cloneIdl();
    delete flags.instructions.find((i) => i.name === 'claim_sol')!.accounts[1]!.writable;
    expect(detail(await checkAnchorProgram(source, flags), 'idl-instructions')).toMatch(
      /claim_sol: accounts differ at #1/,
    );

    const disc = cloneIdl();
    disc.instructions[0]!.discriminator = [0, 0, 0, 0, 0, 0, 0, 0];
    expect(detail(await checkAnchorProgram(source, disc), 'idl-instructions')).toMatch(
      /initialize: wrong discriminator/,
    );
  });

  it('an IDL whose account type differs from the source struct', async () => {
    const bad = cloneIdl();
    const vault = bad.types.find((t: { name: string }) => t.name === 'Vault');
    vault!.type.fields.pop();
    const checks = await checkAnchorProgram(source, bad);
    expect(failed(checks)).toEqual(['idl-types']);
    expect(detail(checks, 'idl-types')).toMatch(/type Vault: fields differ/);
  });

  it('a size constant that disagrees with its struct, and an init without space', async () => {
    const wrong = source.replace(
      /pub const BASE_LEN: usize = (\d+);/,
      (_m, n: string) => `pub const BASE_LEN: usize = ${Number(n) - 2};`,
    );
    const checks = await checkAnchorProgram(wrong, idl);
    expect(failed(checks)).toEqual(['account-space']);
    expect(detail(checks, 'account-space')).toMatch(/Vault::BASE_LEN is \d+ .* but Vault serialises to \d+ bytes/);

    const grown = source.replace(
      'pub total_claimed_lamports: u64,',
      'pub total_claimed_lamports: u64,\n    pub extra: u32,',
    );
    expect(detail(await checkAnchorProgram(grown), 'account-space')).toMatch(/Vault::BASE_LEN/);

    const noSpace = editStruct('ClaimToken', '        space = 8 + TokenLedger::LEN,\n', '');
    const c2 = await checkAnchorProgram(noSpace);
    expect(failed(c2)).toEqual(['account-space']);
    expect(detail(c2, 'account-space')).toMatch(/ClaimToken\.ledger .* initialises TokenLedger without a space/);
  });

  it('an IDL without the has_one relation', async () => {
    const bad = cloneIdl();
    const owner = bad.instructions
      .find((i) => i.name === 'check_in')!
      .accounts.find((a: { name: string }) => a.name === 'owner')!;
    expect(owner.relations).toEqual(['vault']);
    delete owner.relations;
    expect(detail(await checkAnchorProgram(source, bad), 'idl-instructions')).toMatch(
      /check_in: accounts differ at #0/,
    );
  });

  it('an invalid declare_id!', async () => {
    const broken = source.replace(/declare_id!\("[^"]+"\)/, 'declare_id!("0xdeadbeef")');
    const checks = await checkAnchorProgram(broken);
    expect(failed(checks)).toEqual(['declare-id']);
  });

  it('a program without a #[program] module', async () => {
    const checks = await checkAnchorProgram('use anchor_lang::prelude::*;\npub fn f() {}\n', idl);
    expect(failed(checks)).toEqual(expect.arrayContaining(['program-module', 'declare-id', 'idl-instructions']));
  });

  it('never throws on arbitrary input; every problem is a failed check', async () => {
    expect(failed(await checkAnchorProgram(''))).toEqual(expect.arrayContaining(['program-module', 'declare-id']));
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 400 }), async (text) => {
        const checks = await checkAnchorProgram(text, idl);
        return checks.length > 0 && checks.some((c) => !c.passed);
      }),
      { numRuns: 40 },
    );
  });
});

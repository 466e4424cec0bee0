import { describe, expect, it } from 'vitest';
import { generateSolana, programForShape } from '../../../src/contracts/solana/index.js';
import { FEATURE_SETS, featureLabel, makePlan } from './fixtures.js';

// SPL tokens on a Solana vault, checked on the generated Anchor source (no Solana toolchain here): after the release
// tokens of any mint in the vault, listed or not (an airdrop), are claimed by the beneficiaries by their shares; a
// claim is the share of all received of that mint (held plus claimed) minus what the claimant already took, so a
// deposit after an early claim gives the early claimant only its own share of it. A vault without token instructions
// says in its advice that tokens sent to it cannot be claimed.

/** The text from `start` up to the first line at the same indentation that closes it. */
function block(source: string, start: RegExp): string {
  const at = source.search(start);
  expect(at, String(start)).toBeGreaterThan(0);
  const indent = /\n( *)/.exec(source.slice(at))?.[1] ?? '';
  const end = source.indexOf(`\n${indent}}\n`, at + 1);
  return source.slice(at, end);
}

describe.concurrent('Solana: SPL tokens of any mint are shared, and later deposits stay fair', () => {
  it('claim_token takes any mint and pays the share of everything received of it minus what was claimed', async () => {
    const { source } = await programForShape({
      template: 'custom',
      deadMansSwitch: true,
      multiSig: true,
      splTokens: true,
    });
    // No list of mints in the vault: the mint account of a claim is only tied to the vault's own token account.
    const vault = block(source, /\n *pub struct Vault \{/);
    expect(vault).not.toMatch(/mint/i);
    const accounts = block(source, /\n *pub struct ClaimToken<'info> \{/);
    const mintField = /((?:\s*#\[account\([^\]]*\)\]\s*)?)\s*pub mint: /.exec(
      accounts.slice(accounts.indexOf('/// The SPL token mint.')),
    );
    expect(mintField?.[1]?.trim() ?? '').toBe('');
    expect(accounts).toMatch(/associated_token::mint = mint, associated_token::authority = vault/);
    // Per-mint books: the ledger and each claim record are keyed by the mint, so an unlisted mint gets its own.
    expect(accounts).toMatch(/seeds = \[b"ledger", vault\.key\(\)\.as_ref\(\), mint\.key\(\)\.as_ref\(\)\]/);
    expect(accounts).toMatch(
      /seeds = \[b"claim", vault\.key\(\)\.as_ref\(\), mint\.key\(\)\.as_ref\(\), beneficiary\.key\(\)\.as_ref\(\)\]/,
    );
    // The share is of all received (held now plus claimed by everyone), minus this claimant's own claims.
    const claim = block(source, /\n *pub fn claim_token\(/);
    expect(claim).toMatch(/claims_open\(now\)/);
    expect(claim).toMatch(
      /let total_received = ctx\.accounts\.vault_token_account\.amount\.checked_add\(ledger\.total_claimed\)/,
    );
    expect(claim).toMatch(/let due = entitlement\(total_received, share_bps, record\.claimed\)\?;/);
    expect(claim).toMatch(/record\.claimed = record\.claimed\.checked_add\(due\)/);
    expect(claim).toMatch(/ledger\.total_claimed = ledger\.total_claimed\.checked_add\(due\)/);
    const entitlement = block(source, /\n *fn entitlement\(/);
    expect(entitlement).toMatch(/checked_mul\(u128::from\(share_bps\)\)/);
    expect(entitlement).toMatch(/\/ u128::from\(BPS_TOTAL\)/);
    expect(entitlement).toMatch(/owed\.saturating_sub\(already_claimed\)/);
  });

  for (const fs of FEATURE_SETS) {
    it(`${featureLabel(fs)}: the advice says which tokens the heirs can claim`, async () => {
      const g = await generateSolana(makePlan('custom', fs, 3));
      const ids = g.analysis.warnings.map((w) => w.id);
      if (fs.splTokens) {
        expect(ids).toContain('spl-any-mint');
        expect(ids).not.toContain('spl-not-claimable');
        expect(g.contractCode).toMatch(/pub fn claim_token\(/);
      } else {
        expect(ids).toContain('spl-not-claimable');
        expect(g.contractCode).not.toMatch(/pub fn claim_token\(/);
        expect(g.analysis.suggestions.join(' ')).toMatch(/list one `spl` asset/);
      }
    });
  }
});

import { describe, expect, it } from 'vitest';
import { estimateSolana } from '../../src/contracts/solana/estimate.js';
import { coinFiguresOf } from '../../src/embed/ui/calls.js';
import type { Review } from '../../src/embed/ui/form.js';
import { texts } from '../../src/embed/ui/i18n/index.js';
import type { StepContext } from '../../src/embed/ui/steps/context.js';
import { costText } from '../../src/embed/ui/steps/review.js';

// The review writes TON and Solana costs from estimate_gas's raw figures, in the reader's conventions, as it does
// for EVM gas; the service's English text is only the fallback.

const review = (over: Partial<Review>): Review => ({
  warnings: [],
  findings: [],
  gas: { deployment: 'English deployment', claim: 'English claim', update: 'English update' },
  code: null,
  ...over,
});
const ctx = (locale: 'fr' | 'en' | 'ar') => ({ tx: texts(locale) }) as unknown as StepContext;

describe('costs on the review step', () => {
  it('writes TON fees from nanoton in French', () => {
    const coins = coinFiguresOf('ton', {
      nanoton: { deployment: 1_234_567_890, claim: 9_876_543, update: 12_345_678 },
      storageRent: { perYear: '0.01' },
    });
    const r = review({ coinFigures: coins! });
    expect(costText(ctx('fr'), r, 'deployment')).toBe('≈ 1,235 TON');
    expect(costText(ctx('fr'), r, 'claim')).toBe('≈ 0,009877 TON');
    expect(costText(ctx('fr'), r, 'update')).toBe('≈ 0,01235 TON');
    expect(costText(ctx('en'), r, 'deployment')).toBe('≈ 1.235 TON');
  });

  it('writes Solana fees from lamports and compute units in French, from a real estimate', () => {
    const e = estimateSolana({ beneficiaries: 3 });
    const figures = { items: e.items, ...e.figures };
    const r = review({ coinFigures: coinFiguresOf('solana', figures)! });
    const fr = new Intl.NumberFormat('fr', { maximumSignificantDigits: 4 });
    const sol = (lamports: number) => fr.format(lamports / 1e9);
    expect(costText(ctx('fr'), r, 'deployment')).toBe(`≈ ${sol(e.figures.lamports.deployment)} SOL`);
    expect(costText(ctx('fr'), r, 'deployment')).toMatch(/^≈ \d+,\d+ SOL$/);
    // 5,000 lamports and the claim's compute units, grouped the French way (a narrow no-break space).
    expect(costText(ctx('fr'), r, 'claim')).toBe(
      `≈ 0,000005 SOL + ≈ ${new Intl.NumberFormat('fr').format(e.figures.computeUnits.claim)} unités de calcul`,
    );
    expect(e.figures.computeUnits.claim).toBeGreaterThan(999);
    expect(costText(ctx('fr'), r, 'claim')).toMatch(/\d\u202f\d{3} unités/);
    expect(e.figures.lamportsPerAddedBeneficiary).toBeGreaterThan(0);
    expect(costText(ctx('fr'), r, 'update')).toBe(
      `≈ 0,000005 SOL + ${sol(e.figures.lamportsPerAddedBeneficiary)} SOL par bénéficiaire ajouté`,
    );
    expect(costText(ctx('ar'), r, 'update')).toContain('لكل مستفيد يُضاف');
  });

  it('keeps the service’s text when the figures are missing or incomplete (an older service)', () => {
    expect(coinFiguresOf('ton', { storageRent: {} })).toBeUndefined();
    expect(coinFiguresOf('solana', { lamports: { deployment: 1, claim: 2 } })).toBeUndefined();
    expect(coinFiguresOf('evm', { nanoton: { deployment: 1, claim: 2, update: 3 } })).toBeUndefined();
    expect(costText(ctx('fr'), review({}), 'claim')).toBe('English claim');
  });
});

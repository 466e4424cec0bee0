import { h, type ComponentChildren } from 'preact';
import { codePreview } from './code.js';
import type { StepContext } from './context.js';

/** Every warning and piece of advice of the plan's checks, in words (the review shows it, and the result again). */
export function findingsList(c: StepContext): ComponentChildren {
  const review = c.review;
  const { t } = c.tx;
  if (!review) return null;
  return [
    h('h3', null, t.findings),
    review.findings.length + review.warnings.length
      ? h(
          'ul',
          { class: 'svc-findings' },
          [...review.findings, ...review.warnings].map((f, i) =>
            h(
              'li',
              { key: i, class: `svc-sev-${f.severity}` },
              h('strong', null, `${t.severity[f.severity] ?? f.severity}: `),
              f.message,
            ),
          ),
        )
      : h('p', null, t.noFindings),
  ];
}

/**
 * One measured cost as the reader writes numbers. The service's text is English ("1,726,812 gas ≈ ..."), so when the
 * raw figures are known (EVM gas and its price; TON nanoton; Solana lamports and compute units) they are written here
 * by Intl; otherwise (not measured, or an older service) the text stays.
 */
export function costText(c: StepContext, review: NonNullable<StepContext['review']>, op: string): string {
  const { n, locale, t } = c.tx;
  const coins = review.coinFigures;
  if (coins && (op === 'deployment' || op === 'claim' || op === 'update')) {
    // Both coins have 9 decimals; four significant digits, as for ETH.
    const amount = (units: number) =>
      new Intl.NumberFormat(locale, { maximumSignificantDigits: 4 }).format(units / 1_000_000_000);
    const main = amount(coins.units[op]);
    if (op === 'claim' && coins.claimComputeUnits !== undefined)
      return t.claimCost(main, coins.coin, n(coins.claimComputeUnits));
    if (op === 'update' && coins.perAddedBeneficiary)
      return t.updateCost(main, coins.coin, amount(coins.perAddedBeneficiary));
    return t.coinCost(main, coins.coin);
  }
  const gas = review.gasFigures?.[op];
  const gwei = review.gasPriceGwei;
  if (typeof gas !== 'number' || gwei === undefined) return review.gas?.[op] ?? '';
  const eth = new Intl.NumberFormat(locale, { maximumSignificantDigits: 4 }).format((gas * gwei) / 1e9);
  return t.gasCost(n(gas), eth, new Intl.NumberFormat(locale, { maximumFractionDigits: 9 }).format(gwei));
}

export function reviewStep(c: StepContext): ComponentChildren {
  const review = c.review;
  const { t } = c.tx;
  if (!review) return null;
  return [
    findingsList(c),
    h('h3', null, t.costs),
    review.gas
      ? h(
          'dl',
          { class: 'svc-gas' },
          ['deployment', 'claim', 'update'].map((k) => [
            h('dt', { key: `t${k}` }, t.costNames[k] ?? k),
            h('dd', { key: `d${k}` }, costText(c, review, k)),
          ]),
        )
      : h('p', null, t.noCosts),
    review.gas ? h('p', { class: 'svc-hint' }, t.costsOfPlan) : null,
    review.code ? codePreview(c.tx, review.code, c.form.blockchain) : null,
  ];
}

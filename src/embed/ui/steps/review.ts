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
 * figures are known (EVM) they are written here by Intl; otherwise (not measured, TON, Solana) the text stays.
 */
export function costText(c: StepContext, review: NonNullable<StepContext['review']>, op: string): string {
  const gas = review.gasFigures?.[op];
  const gwei = review.gasPriceGwei;
  if (typeof gas !== 'number' || gwei === undefined) return review.gas?.[op] ?? '';
  const { n, locale } = c.tx;
  const eth = new Intl.NumberFormat(locale, { maximumSignificantDigits: 4 }).format((gas * gwei) / 1e9);
  return c.tx.t.gasCost(n(gas), eth, new Intl.NumberFormat(locale, { maximumFractionDigits: 9 }).format(gwei));
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

import { h, type ComponentChildren } from 'preact';
import { analysisInWords } from '../../../core/messages/advice.js';
import { LAW_RULES, lawFindingInWords } from '../../../core/messages/law-words.js';
import type { Finding } from '../form.js';
import { lawNames } from '../law-names.js';
import { codePreview } from './code.js';
import type { StepContext } from './context.js';

/**
 * Every warning and piece of advice of the plan's checks, in words (the review shows it, and the result again). A
 * law finding is said from its rule and params in the reader's language; a plan warning as the contract analysis
 * says it. What has no words stays as the service wrote it, marked as English. The law's findings come twice (from
 * check_plan, and among validate_plan's warnings): each is shown once.
 */
export function findingsList(c: StepContext): ComponentChildren {
  const review = c.review;
  const { t, locale } = c.tx;
  if (!review) return null;
  const names = lawNames(c.tx, c.jurisdictions);
  const lawKey = (rule: string, f: Finding) => `${rule} ${f.params ? JSON.stringify(f.params) : f.message}`;
  const seen = new Set(review.findings.map((f) => lawKey(f.rule ?? '', f)));
  const law = review.findings.map((f) => ({
    severity: f.severity,
    ...lawFindingInWords({ rule: f.rule ?? '', message: f.message, params: f.params }, locale, names),
  }));
  const lawRules = new Set<string>(LAW_RULES);
  const plan = review.warnings.flatMap((w) => {
    const rule = w.code ?? w.id ?? '';
    if (!lawRules.has(rule)) return [];
    if (seen.has(lawKey(rule, w))) return [];
    seen.add(lawKey(rule, w));
    return [
      { severity: w.severity, ...lawFindingInWords({ rule, message: w.message, params: w.params }, locale, names) },
    ];
  });
  const others = analysisInWords(
    {
      warnings: review.warnings
        .filter((w) => !lawRules.has(w.code ?? w.id ?? ''))
        .map((w) => ({
          id: w.id ?? '',
          severity: w.severity,
          message: w.message,
          ...(w.code !== undefined ? { code: w.code } : {}),
          ...(w.params ? { params: w.params } : {}),
        })),
      suggestions: [],
    },
    locale,
  ).warnings;
  const items = [...law, ...plan, ...others];
  return [
    h('h3', null, t.findings),
    items.length
      ? h(
          'ul',
          { class: 'svc-findings' },
          items.map((f, i) =>
            h(
              'li',
              { key: i, class: `svc-sev-${f.severity}` },
              h('strong', null, `${t.severity[f.severity] ?? f.severity}: `),
              f.english ? h('span', { lang: 'en' }, f.message) : f.message,
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

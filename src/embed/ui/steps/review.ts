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
            h('dd', { key: `d${k}` }, review.gas![k] ?? ''),
          ]),
        )
      : h('p', null, t.noCosts),
    review.gas ? h('p', { class: 'svc-hint' }, t.costsOfPlan) : null,
    review.code ? codePreview(c.tx, review.code, c.form.blockchain) : null,
  ];
}

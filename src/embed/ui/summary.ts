// The plan in words, beside the form at every step and updated as it changes:
// who receives what share, under which law, when the switch releases the
// estate and what the guardians can do.
import { h } from 'preact';
import type { Jurisdiction } from './calls.js';
import { guardianList, typedNumber } from './checks.js';
import type { Form } from './form.js';
import type { Texts } from './i18n/index.js';
import { places } from './steps/template.js';

/** The sentences of the plan, in order (also what the tests read). */
export function planSentences(tx: Texts, form: Form, jurisdictions: Jurisdiction[]): string[] {
  const { t, n, pct } = tx;
  const out: string[] = [];
  form.beneficiaries.forEach((b, i) => {
    const share = typedNumber(b.percentage);
    if (share === undefined) return;
    const who = b.name.trim() || t.beneficiary(n(i + 1));
    const rel = b.relationship.trim();
    out.push(rel ? t.planShareOf(who, t.relationships[rel] ?? rel, pct(share)) : t.planShare(who, pct(share)));
  });
  let place = '';
  if (form.jurisdiction) {
    for (const p of places(jurisdictions, tx.locale)) {
      if (p.j.id === form.jurisdiction) place = p.label;
      const r = p.regions.find((x) => x.j.id === form.jurisdiction);
      if (r) place = `${r.label} (${p.label})`;
    }
  }
  out.push(t.planLaw(t.templates[form.template]?.[0] ?? form.template, place));
  const days = typedNumber(form.intervalDays);
  const grace = typedNumber(form.gracePeriodDays);
  if (!form.switchEnabled) out.push(t.planNoSwitch);
  else if (days !== undefined) {
    out.push(t.planSwitch(n(days)));
    if (grace) out.push(t.planGrace(n(grace)));
  }
  const guardians = guardianList(form.guardians);
  const m = typedNumber(form.threshold);
  out.push(guardians.length && m !== undefined ? t.planGuardians(n(m), n(guardians.length)) : t.planNoGuardians);
  return out;
}

export function planSummary(tx: Texts, form: Form, jurisdictions: Jurisdiction[]) {
  return h(
    'aside',
    { class: 'svc-plan', 'aria-labelledby': 'svc-plan-title' },
    h('h3', { id: 'svc-plan-title' }, tx.t.planTitle),
    h(
      'ul',
      null,
      planSentences(tx, form, jurisdictions).map((s, i) => h('li', { key: i }, s)),
    ),
  );
}

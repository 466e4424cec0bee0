import { h, type ComponentChildren } from 'preact';
import type { Jurisdiction } from '../calls.js';
import { FieldError, Radios } from '../fields.js';
import type { StepContext } from './context.js';

const SCHOOLS = ['hanafi', 'maliki', 'shafii', 'hanbali', 'jafari'] as const;

interface Place {
  j: Jurisdiction;
  label: string;
  regions: Array<{ j: Jurisdiction; label: string }>;
}

/**
 * Jurisdictions as a person looks for them: countries (and the EU) by their name in the reader's language
 * (Intl.DisplayNames), sorted as the language sorts, each with its states, provinces or zones under it.
 */
export function places(list: Jurisdiction[], locale: string): Place[] {
  let regionNames: Intl.DisplayNames | undefined;
  try {
    regionNames = new Intl.DisplayNames([locale], { type: 'region' });
  } catch {
    regionNames = undefined;
  }
  const label = (j: Jurisdiction) => {
    if (!/^[a-z]{2}$/.test(j.id) || !regionNames) return j.name;
    try {
      return regionNames.of(j.id.toUpperCase()) ?? j.name;
    } catch {
      return j.name;
    }
  };
  const byName = new Intl.Collator(locale).compare;
  const ids = new Set(list.map((j) => j.id));
  return list
    .filter((j) => !j.parent || !ids.has(j.parent))
    .map((j) => ({
      j,
      label: label(j),
      regions: list
        .filter((r) => r.parent === j.id)
        .map((r) => ({ j: r, label: label(r) }))
        .sort((a, b) => byName(a.label, b.label)),
    }))
    .sort((a, b) => byName(a.label, b.label));
}

export function templateStep(c: StepContext): ComponentChildren {
  const { form, set, visible } = c;
  const { t } = c.tx;
  const option = (id: string, label: string) => h('option', { value: id, key: id }, label);
  return [
    h(
      'div',
      { class: 'svc-field' },
      h('label', { for: 'f-jurisdiction' }, t.jurisdictionLabel),
      h('p', { id: 'f-jurisdiction-hint', class: 'svc-hint' }, t.jurisdictionHint),
      h(
        'select',
        {
          id: 'f-jurisdiction',
          value: form.jurisdiction,
          'aria-describedby': 'f-jurisdiction-hint',
          onChange: (e: Event) => c.chooseJurisdiction((e.currentTarget as HTMLSelectElement).value),
        },
        h('option', { value: '' }, t.jurisdictionNone),
        places(c.jurisdictions, c.tx.locale).map((p) =>
          p.regions.length
            ? h(
                'optgroup',
                { label: p.label, key: p.j.id },
                option(p.j.id, t.wholeCountry(p.label)),
                p.regions.map((r) => option(r.j.id, r.label)),
              )
            : option(p.j.id, p.label),
        ),
      ),
      h(FieldError, { field: 'jurisdiction', errors: visible }),
    ),
    h(Radios, {
      legend: t.templateLegend,
      name: 'template',
      value: form.template,
      options: (c.templates.length ? c.templates : [{ type: form.template, name: form.template, description: '' }]).map(
        (tp) => ({
          id: tp.type,
          label: t.templates[tp.type]?.[0] ?? tp.name,
          hint: t.templates[tp.type]?.[1] ?? tp.description,
        }),
      ),
      onChange: (v) => set({ template: v }),
      field: 'inheritanceTemplate',
      errors: visible,
    }),
    form.template.startsWith('islamic')
      ? [
          h(Radios, {
            legend: t.schoolLegend,
            name: 'madhhab',
            value: form.madhhab,
            options: SCHOOLS.map((s) => ({ id: s, label: t.schools[s] ?? s })),
            onChange: (v) => set({ madhhab: v }),
            field: 'madhhab',
            errors: visible,
          }),
          h('p', { class: 'svc-hint' }, t.schoolHint),
        ]
      : null,
  ];
}

import { h, type ComponentChildren } from 'preact';
import { FieldError, Radios } from '../fields.js';
import type { StepContext } from './context.js';

export function templateStep(c: StepContext): ComponentChildren {
  const { form, set, visible } = c;
  const { t } = c.tx;
  return [
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
          onChange: (e: Event) => set({ jurisdiction: (e.currentTarget as HTMLSelectElement).value }),
        },
        h('option', { value: '' }, t.jurisdictionNone),
        c.jurisdictions.map((j) => h('option', { value: j.id, key: j.id }, j.name)),
      ),
      h(FieldError, { field: 'jurisdiction', errors: visible }),
    ),
  ];
}

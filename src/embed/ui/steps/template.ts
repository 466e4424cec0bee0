import { h, type ComponentChildren } from 'preact';
import { FieldError, Radios } from '../fields.js';
import type { StepContext } from './context.js';

export function templateStep(c: StepContext): ComponentChildren {
  const { form, set, visible } = c;
  return [
    h(Radios, {
      legend: 'Inheritance template',
      name: 'template',
      value: form.template,
      options: (c.templates.length ? c.templates : [{ type: form.template, name: form.template, description: '' }]).map(
        (t) => ({ id: t.type, label: t.name, hint: t.description }),
      ),
      onChange: (v) => set({ template: v }),
      field: 'inheritanceTemplate',
      errors: visible,
    }),
    h(
      'div',
      { class: 'svc-field' },
      h('label', { for: 'f-jurisdiction' }, 'Jurisdiction (optional)'),
      h(
        'p',
        { id: 'f-jurisdiction-hint', class: 'svc-hint' },
        "The plan is checked against this jurisdiction's inheritance law in the review.",
      ),
      h(
        'select',
        {
          id: 'f-jurisdiction',
          value: form.jurisdiction,
          'aria-describedby': 'f-jurisdiction-hint',
          onChange: (e: Event) => set({ jurisdiction: (e.currentTarget as HTMLSelectElement).value }),
        },
        h('option', { value: '' }, 'None'),
        c.jurisdictions.map((j) => h('option', { value: j.id, key: j.id }, j.name)),
      ),
      h(FieldError, { field: 'jurisdiction', errors: visible }),
    ),
  ];
}

import { h, type ComponentChildren } from 'preact';
import { errorId, FieldError, fieldId, Input } from '../fields.js';
import { emptyRow, num, type Row } from '../form.js';
import type { StepContext } from './context.js';

/** The relationships offered, in the order shown; the value sent is the English word the API reads. */
export const RELATIONSHIPS = [
  'husband',
  'wife',
  'son',
  'daughter',
  'father',
  'mother',
  'brother',
  'sister',
  'grandson',
  'granddaughter',
  'friend',
  'charity',
] as const;

/**
 * A relationship in the reader's words: a choice of the known ones, and a word the host page sent that is not one of
 * them kept as it is.
 */
function relationshipSelect(c: StepContext, b: Row, i: number) {
  const { t } = c.tx;
  const field = `beneficiaries.${i}.relationship`;
  const id = fieldId(field);
  const known = (RELATIONSHIPS as readonly string[]).includes(b.relationship);
  const invalid = Boolean(c.visible[field]);
  return h(
    'div',
    { class: 'svc-field' },
    h('label', { for: id }, t.relationship),
    h('p', { id: `${id}-hint`, class: 'svc-hint' }, t.relationshipHint),
    h(
      'select',
      {
        id,
        value: b.relationship,
        'aria-describedby': [`${id}-hint`, invalid ? errorId(field) : ''].filter(Boolean).join(' '),
        'aria-invalid': invalid ? 'true' : undefined,
        onChange: (e: Event) => c.setRow(i, { relationship: (e.currentTarget as HTMLSelectElement).value }),
      },
      h('option', { value: '' }, t.relationshipNone),
      RELATIONSHIPS.map((r) => h('option', { key: r, value: r }, t.relationships[r] ?? r)),
      !known && b.relationship ? h('option', { value: b.relationship }, b.relationship) : null,
    ),
    h(FieldError, { field, errors: c.visible }),
  );
}

/** One beneficiary's fieldset; `i` is its place in the list. */
function beneficiaryRow(c: StepContext, b: Row, i: number) {
  const { form, set, setRow, visible } = c;
  const { t, n } = c.tx;
  return h(
    'fieldset',
    { class: 'svc-row', key: i, id: `${fieldId(`beneficiaries.${i}`)}-group`, tabIndex: -1 },
    h('legend', null, t.beneficiary(n(i + 1))),
    h(Input, {
      field: `beneficiaries.${i}.name`,
      label: t.name,
      value: b.name,
      errors: visible,
      onInput: (v) => setRow(i, { name: v }),
    }),
    h(Input, {
      field: `beneficiaries.${i}.address`,
      label: t.walletAddress,
      value: b.address,
      errors: visible,
      onInput: (v) => setRow(i, { address: v }),
    }),
    h(Input, {
      field: `beneficiaries.${i}.percentage`,
      label: t.share,
      value: b.percentage,
      errors: visible,
      inputmode: 'decimal',
      onInput: (v) => setRow(i, { percentage: v }),
    }),
    relationshipSelect(c, b, i),
    h(FieldError, { field: `beneficiaries.${i}`, errors: visible }),
    form.beneficiaries.length > 1
      ? h(
          'button',
          {
            type: 'button',
            class: 'svc-secondary',
            onClick: () => set({ beneficiaries: form.beneficiaries.filter((_, j) => j !== i) }),
          },
          t.removeBeneficiary(n(i + 1)),
        )
      : null,
  );
}

export function beneficiariesStep(c: StepContext): ComponentChildren {
  const { form, set, errors, visible } = c;
  const { t, pct } = c.tx;
  const total = form.beneficiaries.reduce((s, b) => s + (num(b.percentage) ?? 0), 0);
  return [
    h(Input, {
      field: 'ownerAddress',
      label: t.ownerAddress,
      value: form.ownerAddress,
      errors: visible,
      onInput: (v) => set({ ownerAddress: v }),
    }),
    form.beneficiaries.map((b, i) => beneficiaryRow(c, b, i)),
    form.beneficiaries.length < 50
      ? h(
          'button',
          {
            type: 'button',
            class: 'svc-secondary',
            onClick: () => set({ beneficiaries: [...form.beneficiaries, emptyRow()] }),
          },
          t.addBeneficiary,
        )
      : null,
    form.template.startsWith('islamic')
      ? h(
          'div',
          { class: 'svc-field' },
          h(
            'p',
            { id: 'svc-faraid-hint', class: 'svc-hint' },
            t.faraidHintOf(
              RELATIONSHIPS.slice(0, 8)
                .map((r) => t.relationships[r] ?? r)
                .join(', '),
            ),
          ),
          h(
            'button',
            {
              type: 'button',
              id: 'svc-faraid',
              class: 'svc-secondary',
              'aria-describedby': 'svc-faraid-hint',
              disabled: Boolean(c.busy),
              onClick: () => c.fillFaraid(),
            },
            t.faraidButton,
          ),
          h('p', { class: 'svc-status', role: 'status' }, c.faraidStatus),
        )
      : null,
    h('p', { class: 'svc-total', role: 'status' }, t.total(pct(Math.round(total * 100) / 100), pct(100))),
    h(FieldError, { field: 'beneficiaries', errors: errors.beneficiaries && total > 0 ? errors : visible }),
  ];
}

import { h, type ComponentChildren } from 'preact';
import { FieldError, fieldId, Input } from '../fields.js';
import { emptyRow, type Row } from '../form.js';
import type { StepContext } from './context.js';

/** One beneficiary's fieldset; `i` is its place in the list. */
function beneficiaryRow(c: StepContext, b: Row, i: number) {
  const { form, set, setRow, visible } = c;
  return h(
    'fieldset',
    { class: 'svc-row', key: i, id: `${fieldId(`beneficiaries.${i}`)}-group`, tabIndex: -1 },
    h('legend', null, `Beneficiary ${i + 1}`),
    h(Input, {
      field: `beneficiaries.${i}.name`,
      label: 'Name',
      value: b.name,
      errors: visible,
      onInput: (v) => setRow(i, { name: v }),
    }),
    h(Input, {
      field: `beneficiaries.${i}.address`,
      label: 'Wallet address',
      value: b.address,
      errors: visible,
      onInput: (v) => setRow(i, { address: v }),
    }),
    h(Input, {
      field: `beneficiaries.${i}.percentage`,
      label: 'Share (%)',
      value: b.percentage,
      errors: visible,
      inputmode: 'decimal',
      onInput: (v) => setRow(i, { percentage: v }),
    }),
    h(Input, {
      field: `beneficiaries.${i}.relationship`,
      label: 'Relationship (optional)',
      hint: 'Needed for the Islamic templates, e.g. son, daughter, spouse.',
      value: b.relationship,
      errors: visible,
      onInput: (v) => setRow(i, { relationship: v }),
    }),
    h(FieldError, { field: `beneficiaries.${i}`, errors: visible }),
    form.beneficiaries.length > 1
      ? h(
          'button',
          {
            type: 'button',
            class: 'svc-secondary',
            onClick: () => set({ beneficiaries: form.beneficiaries.filter((_, j) => j !== i) }),
          },
          `Remove beneficiary ${i + 1}`,
        )
      : null,
  );
}

export function beneficiariesStep(c: StepContext): ComponentChildren {
  const { form, set, errors, visible } = c;
  const total = form.beneficiaries.reduce((s, b) => s + (Number(b.percentage) || 0), 0);
  return [
    h(Input, {
      field: 'ownerAddress',
      label: 'Owner wallet address',
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
          'Add a beneficiary',
        )
      : null,
    h('p', { class: 'svc-total', role: 'status' }, `Total: ${Math.round(total * 100) / 100}% of 100%`),
    h(FieldError, { field: 'beneficiaries', errors: errors.beneficiaries && total > 0 ? errors : visible }),
  ];
}

import { h, type ComponentChildren } from 'preact';
import { errorId, FieldError, fieldId, Input } from '../fields.js';
import type { StepContext } from './context.js';

export function switchStep(c: StepContext): ComponentChildren {
  const { form, set, visible } = c;
  const { t } = c.tx;
  return [
    h(
      'div',
      { class: 'svc-check' },
      h('input', {
        type: 'checkbox',
        id: 'f-deadMansSwitch-enabled',
        checked: form.switchEnabled,
        'aria-describedby': visible['deadMansSwitch.enabled'] ? errorId('deadMansSwitch.enabled') : undefined,
        onChange: (e: Event) => set({ switchEnabled: (e.currentTarget as HTMLInputElement).checked }),
      }),
      h('label', { for: 'f-deadMansSwitch-enabled' }, t.enableSwitch),
    ),
    h(FieldError, { field: 'deadMansSwitch.enabled', errors: visible }),
    h(Input, {
      field: 'deadMansSwitch.intervalDays',
      label: t.interval,
      hint: t.intervalHint,
      value: form.intervalDays,
      inputmode: 'numeric',
      errors: visible,
      onInput: (v) => set({ intervalDays: v }),
    }),
    h(Input, {
      field: 'deadMansSwitch.gracePeriodDays',
      label: t.grace,
      value: form.gracePeriodDays,
      inputmode: 'numeric',
      errors: visible,
      onInput: (v) => set({ gracePeriodDays: v }),
    }),
    h(
      'div',
      { class: 'svc-field' },
      h('label', { for: fieldId('guardians.addresses') }, t.guardians),
      h('textarea', {
        id: fieldId('guardians.addresses'),
        rows: 3,
        value: form.guardians,
        spellcheck: false,
        'aria-invalid': visible['guardians.addresses'] ? 'true' : undefined,
        'aria-describedby': visible['guardians.addresses'] ? errorId('guardians.addresses') : undefined,
        onInput: (e: Event) => set({ guardians: (e.currentTarget as HTMLTextAreaElement).value }),
      }),
      h(FieldError, { field: 'guardians.addresses', errors: visible }),
    ),
    h(Input, {
      field: 'guardians.threshold',
      label: t.threshold,
      value: form.threshold,
      inputmode: 'numeric',
      errors: visible,
      onInput: (v) => set({ threshold: v }),
    }),
  ];
}

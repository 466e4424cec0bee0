import { h, type ComponentChildren } from 'preact';
import { errorId, FieldError, fieldId, Input } from '../fields.js';
import type { StepContext } from './context.js';

export function switchStep(c: StepContext): ComponentChildren {
  const { form, set, visible } = c;
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
      h('label', { for: 'f-deadMansSwitch-enabled' }, "Enable the dead man's switch"),
    ),
    h(FieldError, { field: 'deadMansSwitch.enabled', errors: visible }),
    h(Input, {
      field: 'deadMansSwitch.intervalDays',
      label: 'Check-in interval (days)',
      hint: 'If the owner does not check in for this long, the estate can be released.',
      value: form.intervalDays,
      inputmode: 'numeric',
      errors: visible,
      onInput: (v) => set({ intervalDays: v }),
    }),
    h(Input, {
      field: 'deadMansSwitch.gracePeriodDays',
      label: 'Grace period (days)',
      value: form.gracePeriodDays,
      inputmode: 'numeric',
      errors: visible,
      onInput: (v) => set({ gracePeriodDays: v }),
    }),
    h(
      'div',
      { class: 'svc-field' },
      h('label', { for: fieldId('guardians.addresses') }, 'Guardian addresses (optional, one per line)'),
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
      label: 'Guardians needed to confirm',
      value: form.threshold,
      inputmode: 'numeric',
      errors: visible,
      onInput: (v) => set({ threshold: v }),
    }),
  ];
}

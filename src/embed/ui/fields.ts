// Form pieces shared by the wizard's steps: labelled inputs, radio groups,
// field errors tied to their inputs for screen readers, and copyable outputs.
import { h } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import type { Errors } from './form.js';
import type { Strings } from './i18n/index.js';

export const fieldId = (field: string) => `f-${field.replace(/[^A-Za-z0-9-]/g, '-')}`;
export const errorId = (field: string) => `e-${field.replace(/[^A-Za-z0-9-]/g, '-')}`;

export function FieldError(props: { field: string; errors: Errors }) {
  const message = props.errors[props.field];
  // Not an alert of its own: with every field's error shown at once, the summary at the top is the one alert.
  return message ? h('p', { id: errorId(props.field), class: 'svc-error' }, message) : null;
}

export interface InputProps {
  field: string;
  label: string;
  value: string;
  errors: Errors;
  onInput: (value: string) => void;
  type?: string;
  hint?: string;
  autocomplete?: string;
  inputmode?: string;
}

export function Input(p: InputProps) {
  const id = fieldId(p.field);
  const invalid = Boolean(p.errors[p.field]);
  const described = [p.hint ? `${id}-hint` : '', invalid ? errorId(p.field) : ''].filter(Boolean).join(' ');
  return h(
    'div',
    { class: 'svc-field' },
    h('label', { for: id }, p.label),
    p.hint ? h('p', { id: `${id}-hint`, class: 'svc-hint' }, p.hint) : null,
    h('input', {
      id,
      type: p.type ?? 'text',
      value: p.value,
      autocomplete: p.autocomplete ?? 'off',
      spellcheck: false,
      ...(p.inputmode ? { inputmode: p.inputmode } : {}),
      'aria-invalid': invalid ? 'true' : undefined,
      'aria-describedby': described || undefined,
      onInput: (e: Event) => p.onInput((e.currentTarget as HTMLInputElement).value),
    }),
    h(FieldError, { field: p.field, errors: p.errors }),
  );
}

export function Radios(p: {
  legend: string;
  name: string;
  value: string;
  options: Array<{ id: string; label: string; hint?: string }>;
  onChange: (v: string) => void;
  field: string;
  errors: Errors;
}) {
  return h(
    'fieldset',
    { class: 'svc-radios', 'aria-describedby': p.errors[p.field] ? errorId(p.field) : undefined },
    h('legend', null, p.legend),
    p.options.map((o) =>
      h(
        'div',
        { class: 'svc-radio', key: o.id },
        h('input', {
          type: 'radio',
          id: `${p.name}-${o.id}`,
          name: p.name,
          value: o.id,
          checked: p.value === o.id,
          onChange: () => p.onChange(o.id),
        }),
        h(
          'label',
          { for: `${p.name}-${o.id}` },
          o.label,
          o.hint ? h('span', { class: 'svc-hint' }, ` ${o.hint}`) : null,
        ),
      ),
    ),
    h(FieldError, { field: p.field, errors: p.errors }),
  );
}

export function Copyable(p: { t: Strings; label: string; text: string; filename: string; type: string }) {
  const [status, setStatus] = useState('');
  const url = useMemo(() => URL.createObjectURL(new Blob([p.text], { type: p.type })), [p.text, p.type]);
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(p.text);
      setStatus(p.t.copied(p.label));
    } catch {
      setStatus(p.t.copyRefused);
    }
  };
  return h(
    'section',
    { class: 'svc-output', 'aria-label': p.label },
    h('h3', null, p.label),
    h(
      'div',
      { class: 'svc-actions' },
      h('button', { type: 'button', onClick: copy }, p.t.copy(p.label)),
      h('a', { class: 'svc-button', href: url, download: p.filename }, p.t.download(p.filename)),
    ),
    h('p', { class: 'svc-status', role: 'status' }, status),
    h('pre', { tabIndex: 0, 'aria-label': p.label }, h('code', null, p.text)),
  );
}

// The frame around a step: header, step list, the step's heading, alert and
// status lines, the body, and the Back / Next buttons.
import { h, type ComponentChildren, type RefObject } from 'preact';
import { fieldId } from './fields.js';
import type { Errors, StepId, WizardConfig } from './form.js';
import type { Texts } from './i18n/index.js';
import { fieldLabel, stepTitle } from './messages.js';

export interface ShellProps {
  tx: Texts;
  options: NonNullable<WizardConfig['options']>;
  steps: StepId[];
  index: number;
  heading: RefObject<HTMLHeadingElement>;
  alert: string;
  busy: string;
  body: ComponentChildren;
  /** The plan in words, beside the step (below it on narrow screens); none on the first and last steps. */
  plan: ComponentChildren;
  errors: Errors;
  /** The error fields that belong to the current step. */
  stepFields: string[];
  /** The errors listed in the summary at the top (every field of the step, once the person asked to go on). */
  summary: Errors;
  /** Moves the focus to a field's input. */
  focusField: (field: string) => void;
  back: () => void;
  next: () => void;
}

/** Steps whose inputs show their own errors, so no list of problems is added below them. */
const SHOWS_OWN_ERRORS: StepId[] = ['beneficiaries', 'switch', 'generate', 'template', 'chain'];

function stepList(tx: Texts, steps: StepId[], index: number) {
  return h(
    'nav',
    { 'aria-label': tx.t.stepsLabel },
    h(
      'ol',
      { class: 'svc-steps' },
      steps.map((s, i) =>
        h(
          'li',
          { key: s, 'aria-current': i === index ? 'step' : undefined, class: i < index ? 'svc-done' : undefined },
          stepTitle(tx.t, s),
        ),
      ),
    ),
  );
}

/** Every problem of the step at once, each a link to its field (the fields show theirs beside them too). */
function errorSummary(tx: Texts, errors: Errors, focusField: (field: string) => void) {
  const fields = Object.keys(errors);
  if (!fields.length) return null;
  return h(
    'div',
    {
      class: 'svc-summary',
      id: 'svc-error-summary',
      role: 'alert',
      tabIndex: -1,
      'aria-labelledby': 'svc-summary-title',
    },
    h('h3', { id: 'svc-summary-title' }, fields.length === 1 ? tx.t.summaryOne : tx.t.summaryMany(tx.n(fields.length))),
    h(
      'ul',
      null,
      fields.map((f) =>
        h(
          'li',
          { key: f },
          h(
            'a',
            {
              href: `#${fieldId(f)}`,
              onClick: (e: Event) => {
                e.preventDefault();
                focusField(f);
              },
            },
            `${fieldLabel(tx.t, f)}: ${errors[f]}`,
          ),
        ),
      ),
    ),
  );
}

export function shell(p: ShellProps) {
  const { options, steps, index, tx } = p;
  const step = steps[index]!;
  const hasNext = index < steps.length - 1 && step !== 'generate';
  return h(
    'div',
    { class: 'svc-shell' },
    options.hideHeader
      ? null
      : h(
          'header',
          { class: 'svc-header' },
          options.logo ? h('img', { src: options.logo, alt: '', class: 'svc-logo' }) : null,
          h('p', { class: 'svc-title' }, tx.t.title),
        ),
    stepList(tx, steps, index),
    h(
      'div',
      { class: 'svc-layout' },
      h(
        'section',
        { class: 'svc-step', 'aria-labelledby': 'svc-step-title' },
        h(
          'h2',
          { id: 'svc-step-title', tabIndex: -1, ref: p.heading },
          tx.t.stepHeading(tx.n(index + 1), tx.n(steps.length), stepTitle(tx.t, step)),
        ),
        errorSummary(tx, p.summary, p.focusField),
        p.alert ? h('p', { class: 'svc-alert', role: 'alert' }, p.alert) : null,
        h('p', { class: 'svc-status', role: 'status', 'aria-live': 'polite' }, p.busy),
        p.body,
        p.stepFields.length && !SHOWS_OWN_ERRORS.includes(step)
          ? h(
              'ul',
              { class: 'svc-problems' },
              p.stepFields.map((f) => h('li', { key: f }, `${fieldLabel(tx.t, f)}: ${p.errors[f]}`)),
            )
          : null,
      ),
      p.plan,
    ),
    h(
      'div',
      { class: 'svc-nav' },
      index > 0 && step !== 'result'
        ? h('button', { type: 'button', class: 'svc-secondary', disabled: Boolean(p.busy), onClick: p.back }, tx.t.back)
        : null,
      hasNext
        ? h('button', { type: 'button', class: 'svc-primary', disabled: Boolean(p.busy), onClick: p.next }, tx.t.next)
        : null,
    ),
    options.hideFooter ? null : h('footer', { class: 'svc-footer' }, tx.t.poweredBy),
  );
}

import { h, type ComponentChildren } from 'preact';
import { stepOfField } from '../form.js';
import { fieldLabel, stepTitle } from '../messages.js';
import type { StepContext } from './context.js';

export function generateStep(c: StepContext): ComponentChildren {
  const { form, errors, steps } = c;
  const { t, n } = c.tx;
  return [
    h('p', null, t.generateIntro(form.blockchain.toUpperCase(), n(form.beneficiaries.length))),
    Object.keys(errors).length
      ? h(
          'ul',
          { class: 'svc-problems' },
          Object.entries(errors).map(([f, reason]) =>
            h(
              'li',
              { key: f },
              `${fieldLabel(t, f)}: ${reason} `,
              steps.includes(stepOfField(f)) && stepOfField(f) !== 'generate'
                ? h(
                    'button',
                    { type: 'button', class: 'svc-link', onClick: () => c.goTo(steps.indexOf(stepOfField(f))) },
                    t.goTo(stepTitle(t, stepOfField(f))),
                  )
                : null,
            ),
          ),
        )
      : null,
    h(
      'button',
      { type: 'button', class: 'svc-primary', disabled: Boolean(c.busy), onClick: () => c.generate() },
      t.generateButton,
    ),
  ];
}

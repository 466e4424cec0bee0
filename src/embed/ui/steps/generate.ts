import { h, type ComponentChildren } from 'preact';
import { stepOfField } from '../form.js';
import { STEP_TITLES } from '../messages.js';
import type { StepContext } from './context.js';

export function generateStep(c: StepContext): ComponentChildren {
  const { form, errors, steps } = c;
  return [
    h(
      'p',
      null,
      `Generate the ${form.blockchain.toUpperCase()} contract for ${form.beneficiaries.length} beneficiar${form.beneficiaries.length === 1 ? 'y' : 'ies'}. It is compiled and tested before it is shown.`,
    ),
    Object.keys(errors).length
      ? h(
          'ul',
          { class: 'svc-problems' },
          Object.entries(errors).map(([f, reason]) =>
            h(
              'li',
              { key: f },
              `${f || 'plan'}: ${reason} `,
              steps.includes(stepOfField(f)) && stepOfField(f) !== 'generate'
                ? h(
                    'button',
                    { type: 'button', class: 'svc-link', onClick: () => c.goTo(steps.indexOf(stepOfField(f))) },
                    `Go to ${STEP_TITLES[stepOfField(f)]}`,
                  )
                : null,
            ),
          ),
        )
      : null,
    h(
      'button',
      { type: 'button', class: 'svc-primary', disabled: Boolean(c.busy), onClick: () => c.generate() },
      'Generate contract',
    ),
  ];
}

import { h, type ComponentChildren } from 'preact';
import { Radios } from '../fields.js';
import { CHAINS } from '../messages.js';
import type { StepContext } from './context.js';

export function chainStep(c: StepContext): ComponentChildren {
  return h(Radios, {
    legend: 'Which blockchain is the contract for?',
    name: 'chain',
    value: c.form.blockchain,
    options: CHAINS.map((ch) => ({ id: ch.id, label: ch.label })),
    onChange: (v) => c.set({ blockchain: v }),
    field: 'blockchain',
    errors: c.visible,
  });
}

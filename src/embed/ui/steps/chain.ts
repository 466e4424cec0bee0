import { h, type ComponentChildren } from 'preact';
import { Radios } from '../fields.js';
import { CHAIN_IDS } from '../messages.js';
import type { StepContext } from './context.js';

export function chainStep(c: StepContext): ComponentChildren {
  return h(Radios, {
    legend: c.tx.t.chainLegend,
    name: 'chain',
    value: c.form.blockchain,
    options: CHAIN_IDS.map((id) => ({ id, label: c.tx.t.chains[id] })),
    onChange: (v) => c.set({ blockchain: v }),
    field: 'blockchain',
    errors: c.visible,
  });
}

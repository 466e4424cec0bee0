import { h, type ComponentChildren } from 'preact';
import { Copyable } from '../fields.js';
import type { StepContext } from './context.js';
import { findingsList } from './review.js';

/** The source file's name for the chain the contract was made for. */
const sourceName = (blockchain: string) =>
  blockchain === 'evm' ? 'Inheritance.sol' : blockchain === 'ton' ? 'inheritance.fc' : 'lib.rs';

export function resultStep(c: StepContext): ComponentChildren {
  const result = c.result;
  const { t } = c.tx;
  if (!result) return h('p', null, t.generateFirst);
  return [
    h(Copyable, {
      t,
      label: t.sourceCode,
      text: result.contractCode,
      filename: sourceName(result.contractInfo.blockchain),
      type: 'text/plain',
    }),
    result.compiled.abi
      ? h(Copyable, {
          t,
          label: t.abi,
          text: JSON.stringify(result.compiled.abi, null, 2),
          filename: 'Inheritance.abi.json',
          type: 'application/json',
        })
      : null,
    result.compiled.bytecode
      ? h(Copyable, {
          t,
          label: t.bytecode,
          text: result.compiled.bytecode,
          filename: 'Inheritance.bin',
          type: 'text/plain',
        })
      : null,
    c.review ? findingsList(c) : null,
    h('button', { type: 'button', class: 'svc-secondary', onClick: () => c.startOver() }, t.startOver),
  ];
}

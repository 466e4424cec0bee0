import { h, type ComponentChildren } from 'preact';
import { Copyable } from '../fields.js';
import type { StepContext } from './context.js';

/** The source file's name for the chain the contract was made for. */
const sourceName = (blockchain: string) =>
  blockchain === 'evm' ? 'Inheritance.sol' : blockchain === 'ton' ? 'inheritance.fc' : 'lib.rs';

export function resultStep(c: StepContext): ComponentChildren {
  const result = c.result;
  if (!result) return h('p', null, 'Generate the contract first.');
  return [
    h(Copyable, {
      label: 'Source code',
      text: result.contractCode,
      filename: sourceName(result.contractInfo.blockchain),
      type: 'text/plain',
    }),
    result.compiled.abi
      ? h(Copyable, {
          label: 'ABI',
          text: JSON.stringify(result.compiled.abi, null, 2),
          filename: 'Inheritance.abi.json',
          type: 'application/json',
        })
      : null,
    result.compiled.bytecode
      ? h(Copyable, {
          label: 'Bytecode',
          text: result.compiled.bytecode,
          filename: 'Inheritance.bin',
          type: 'text/plain',
        })
      : null,
    h('button', { type: 'button', class: 'svc-secondary', onClick: () => c.startOver() }, 'Start over'),
  ];
}

import { createRequire } from 'node:module';
import { GUARDIAN_WAIT_DAYS, MAX_VETOES } from '../guardians.js';
import type { TemplateType } from '../../law/templates.js';
import { EvmContractBuilder } from './builder.js';
import { addCancel } from './features/cancel.js';
import { addCore, constructorOf } from './features/core.js';
import { addGuardians } from './features/guardians.js';
import { addNfts } from './features/nfts.js';
import { addRescue } from './features/rescue.js';
import { addSwitch } from './features/switch.js';
import { addTokens } from './features/tokens.js';
import { shapeKey, type EvmShape } from './shape.js';
import { printSource, type SourceUnit } from './solidity.js';

export { MAX_BENEFICIARIES } from './features/core.js';
export { MAX_GUARDIANS } from './features/guardians.js';
export { MAX_TOKENS } from './features/tokens.js';
export { MAX_NFTS } from './features/nfts.js';
export { GUARDIAN_WAIT_DAYS, MAX_VETOES };

/** The installed solc version: generated sources pin exactly this compiler. */
export const SOLC_VERSION: string = (createRequire(import.meta.url)('solc/package.json') as { version: string })
  .version;

const CONTRACT_NAMES: Record<TemplateType, string> = {
  'common-law': 'CommonLawInheritance',
  'civil-law': 'CivilLawInheritance',
  'islamic-mirth': 'IslamicMirathInheritance',
  'islamic-wasiyyah': 'IslamicWasiyyahInheritance',
  custom: 'CustomInheritance',
};

const TEMPLATE_NOTES: Record<TemplateType, string> = {
  'common-law': 'Shares follow a common-law plan (freedom of testation), checked off-chain before deployment.',
  'civil-law':
    'Shares follow a civil-law plan that respects the reserved portions, checked off-chain before deployment.',
  'islamic-mirth': "Shares follow the fara'id shares computed off-chain before deployment.",
  'islamic-wasiyyah':
    "Shares follow a wasiyyah of at most one third plus fara'id shares, checked off-chain before deployment.",
  custom: 'Shares follow a custom split chosen by the owner.',
};

export function contractName(shape: EvmShape): string {
  return CONTRACT_NAMES[shape.template];
}

/**
 * Builds the model of the contract for a shape, one feature at a time. The
 * order matters only for the extension points: the release features run
 * first, the asset features before cancel(), and the core last, since it
 * assembles what the others registered. Where each item is printed is fixed
 * by EVM_LAYOUT in builder.ts.
 */
export function buildContractModel(s: EvmShape): SourceUnit {
  const b = new EvmContractBuilder(s);
  addSwitch(b);
  addGuardians(b);
  addTokens(b);
  addNfts(b);
  addCancel(b);
  addRescue(b);
  addCore(b);
  const name = contractName(s);
  return {
    license: 'MIT',
    solidityVersion: SOLC_VERSION,
    interfaces: b.list('interfaces'),
    contract: {
      name,
      natspec: {
        title: `${name}: inheritance contract (${shapeKey(s)})`,
        notice: TEMPLATE_NOTES[s.template],
        dev: [
          b.releaseDoc,
          'Pull payments, accounting by total received; bounded loops; authorization by msg.sender only.',
        ].join(' '),
      },
      structs: b.list('structs'),
      constants: b.list('constants'),
      state: b.list('state'),
      errors: b.list('errors'),
      events: b.list('events'),
      modifiers: b.list('modifiers'),
      ctor: constructorOf(b),
      functions: b.list('functions'),
    },
  };
}

const sourceCache = new Map<string, string>();

/** The fixed Solidity source of a shape (memoized). */
export function contractSource(s: EvmShape): string {
  const key = shapeKey(s);
  let src = sourceCache.get(key);
  if (src === undefined) {
    src = printSource(buildContractModel(s));
    sourceCache.set(key, src);
  }
  return src;
}

// What every step body is drawn from. Step bodies are plain functions of this
// context (not components), so the wizard renders one vnode tree as before.
import type { Jurisdiction, Template } from '../calls.js';
import type { Errors, Form, Result, Review, Row, StepId } from '../form.js';
import type { Texts } from '../i18n/index.js';
import type { ChainMismatch, DeployFailure, Deployment } from '../wallet.js';

export interface StepContext {
  /** The words and number formats of the wizard's locale. */
  tx: Texts;
  form: Form;
  /** All field errors of the last check. */
  errors: Errors;
  /** The errors to show now (those of empty inputs wait until the user asks to go on). */
  visible: Errors;
  set: (patch: Partial<Form>) => void;
  setRow: (i: number, patch: Partial<Row>) => void;
  templates: Template[];
  jurisdictions: Jurisdiction[];
  review: Review | null;
  result: Result | null;
  busy: string;
  steps: StepId[];
  goTo: (index: number) => void;
  generate: () => void;
  startOver: () => void;
  /** Chooses a jurisdiction, and preselects the template and school its law records. */
  chooseJurisdiction: (id: string) => void;
  /** Fills the shares from the fara'id calculator, by the beneficiaries' relationships. */
  fillFaraid: () => void;
  /** What the last fill from the calculator said. */
  faraidStatus: string;
  /** The host page gave a wallet: the result offers to deploy with it (EVM only). */
  canDeploy: boolean;
  deploy: () => void;
  /** Asks the host's wallet to move to this chain (offered when it is on one the service does not read). */
  switchChain: (chainId: number) => void;
  deployState: DeployState;
}

/** Where deploying with the host's wallet stands. */
export type DeployState =
  | { phase: 'idle' }
  | { phase: 'working'; stage: string }
  | { phase: 'done'; deployment: Deployment }
  | { phase: 'failed'; reason: DeployFailure; detail: string; chain?: ChainMismatch }
  /** The wallet was asked to switch chains: where it is now (nothing has been sent yet). */
  | { phase: 'switched'; chainId: number; ok: boolean; chain: ChainMismatch };

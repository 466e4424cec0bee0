// The wizard's form state and the pure functions around it: the empty form, the
// plan sent to the API, and how API field errors map back to steps and inputs.
import { humanMessage, type Locale } from '../../core/messages/index.js';
import type { ApiProblem } from './api.js';
import { formIssues, guardianList, typedNumber } from './checks.js';
import type { Prefill } from './protocol.js';

export interface WizardConfig {
  version: string;
  apiBase: string;
  token: string | null;
  origins: string[];
  options: {
    theme: 'light' | 'dark' | 'auto';
    /** The language asked for (page query or SDK option); the browser's when absent. */
    locale?: string;
    blockchain?: 'evm' | 'solana' | 'ton';
    template?: string;
    steps: StepId[];
    logo?: string;
    primaryColor?: string;
    hideHeader: boolean;
    hideFooter: boolean;
    /** The host page gave the SDK a wallet (EIP-1193 provider): the result offers to deploy with it. */
    wallet?: boolean;
    /** The EVM chain ids the service reads: deployments are registered and verified only there. */
    networks?: number[];
  } | null;
  error: { code: string; message: string } | null;
}

export type StepId = 'chain' | 'template' | 'beneficiaries' | 'switch' | 'review' | 'generate' | 'result';

export interface Row {
  name: string;
  address: string;
  percentage: string;
  relationship: string;
}

export interface Form {
  blockchain: string;
  template: string;
  jurisdiction: string;
  /** School of Islamic law for the Islamic templates ('' lets the jurisdiction's recorded school apply). */
  madhhab: string;
  ownerAddress: string;
  beneficiaries: Row[];
  switchEnabled: boolean;
  intervalDays: string;
  gracePeriodDays: string;
  guardians: string;
  threshold: string;
}

/** Field path (as the API names it) → the reason shown under the input. */
export type Errors = Record<string, string>;

export interface Result {
  /** The stored contract's id (ctr_...), for registering its deployment. */
  id?: string;
  contractCode: string;
  compiled: { abi?: unknown[]; bytecode?: string; deployData?: string } & Record<string, unknown>;
  contractInfo: { blockchain: string } & Record<string, unknown>;
  /** Generation's findings and advice (the service's English; the result step puts them in the reader's words). */
  analysis?: {
    warnings: Array<{
      id: string;
      severity: string;
      message: string;
      code?: string;
      params?: Record<string, number | string>;
    }>;
    suggestions: string[];
  };
}

/** A law finding (check_plan: `rule`) or a plan warning (validate_plan: `id`, and `code` when it has words). */
export interface Finding {
  severity: string;
  message: string;
  rule?: string;
  id?: string;
  code?: string;
  params?: Record<string, number | string>;
}

/** A TON or Solana estimate's raw figures (both coins have 9 decimals). */
export interface CoinFigures {
  coin: 'TON' | 'SOL';
  /** Smallest units per operation: nanoton or lamports. */
  units: { deployment: number; claim: number; update: number };
  /** Solana: the compute units one claim assumes. */
  claimComputeUnits?: number;
  /** Solana: the rent each added beneficiary costs an update, in lamports. */
  perAddedBeneficiary?: number;
}

/** What the review step shows: plan warnings, law findings and the measured gas. */
export interface Review {
  warnings: Finding[];
  findings: Finding[];
  gas: Record<string, string> | null;
  /** The measured gas per operation (EVM), so the review writes the figures in the reader's conventions. */
  gasFigures?: Record<string, number | null>;
  /** The gas price the estimate assumes (EVM), in gwei. */
  gasPriceGwei?: number;
  /** The fees per operation in the coin's smallest unit (TON: nanoton, Solana: lamports), for the same reason. */
  coinFigures?: CoinFigures;
  /** The plan's source, as generation will write it (the preview). */
  code: string | null;
}

export const emptyRow = (): Row => ({ name: '', address: '', percentage: '', relationship: '' });

export function initialForm(options: NonNullable<WizardConfig['options']>): Form {
  return {
    blockchain: options.blockchain ?? '',
    template: options.template ?? 'custom',
    jurisdiction: '',
    madhhab: '',
    ownerAddress: '',
    beneficiaries: [emptyRow()],
    switchEnabled: true,
    intervalDays: '365',
    gracePeriodDays: '0',
    guardians: '',
    threshold: '1',
  };
}

/** A number as typed (`30,5` is 30.5); undefined when the text is not one, so the API names the field. */
export const num = (text: string): number | undefined => typedNumber(text);

/** The API's plan (generate_contract / validate_plan input) from the form. */
export function planOf(form: Form): Record<string, unknown> {
  const guardians = guardianList(form.guardians);
  return {
    blockchain: form.blockchain,
    ownerAddress: form.ownerAddress,
    beneficiaries: form.beneficiaries.map((b) => ({
      name: b.name,
      address: b.address,
      percentage: num(b.percentage),
      ...(b.relationship.trim() ? { relationship: b.relationship.trim() } : {}),
    })),
    inheritanceTemplate: form.template,
    deadMansSwitch: {
      enabled: form.switchEnabled,
      intervalDays: num(form.intervalDays),
      gracePeriodDays: num(form.gracePeriodDays),
    },
    ...(guardians.length ? { guardians: { addresses: guardians, threshold: num(form.threshold) } } : {}),
    ...(form.jurisdiction ? { jurisdiction: form.jurisdiction } : {}),
    ...(form.madhhab && form.template.startsWith('islamic') ? { madhhab: form.madhhab } : {}),
  };
}

/** The form with the fields a host page sent (svc:wizard:setData) filled in. */
export function withPrefill(f: Form, p: Prefill): Form {
  return {
    ...f,
    ...(p.blockchain !== undefined ? { blockchain: p.blockchain } : {}),
    ...(p.ownerAddress !== undefined ? { ownerAddress: p.ownerAddress } : {}),
    ...(p.beneficiaries !== undefined
      ? {
          beneficiaries: p.beneficiaries.length
            ? p.beneficiaries.map((b) => ({
                name: b.name,
                address: b.address,
                percentage: String(b.percentage),
                relationship: b.relationship ?? '',
              }))
            : [emptyRow()],
        }
      : {}),
  };
}

/** Which step shows the input an API `details[].field` names. */
export function stepOfField(field: string): StepId {
  if (field === 'blockchain') return 'chain';
  if (field === 'inheritanceTemplate' || field === 'jurisdiction' || field === 'madhhab') return 'template';
  if (field === 'ownerAddress' || field.startsWith('beneficiaries')) return 'beneficiaries';
  if (field.startsWith('deadMansSwitch') || field.startsWith('guardians')) return 'switch';
  return 'generate';
}

/**
 * Fields whose problems the wizard finds by itself (./checks.ts): for them its own message, in the reader's language
 * and up to date as they type, replaces the API's. Addresses are checked here on EVM only.
 */
function checkedHere(field: string, blockchain: string): boolean {
  if (/^(beneficiaries(\.\d+\.(name|percentage))?|deadMansSwitch\.\w+|guardians\.threshold)$/.test(field)) return true;
  return blockchain === 'evm' && /^(ownerAddress|beneficiaries\.\d+\.address|guardians\.addresses)$/.test(field);
}

/** Every field's problem at once: the wizard's own checks, and what the API found beyond them. */
export function allErrors(form: Form, api: Errors, locale: Locale): Errors {
  const out: Errors = {};
  for (const [field, reason] of Object.entries(api)) if (!checkedHere(field, form.blockchain)) out[field] = reason;
  for (const [field, issue] of Object.entries(formIssues(form))) out[field] = humanMessage(issue, locale);
  return out;
}

export function errorsOf(problem: ApiProblem): Errors {
  const out: Errors = {};
  for (const d of problem.details) {
    const field = d.field.replace(/^guardians\.addresses\.\d+$/, 'guardians.addresses');
    out[field] = out[field] ? `${out[field]}; ${d.reason}` : d.reason;
  }
  return out;
}

/** Whether the input behind an error holds something (errors of empty inputs wait until the user asks to go on). */
export function fieldHasValue(form: Form, field: string): boolean {
  const m = /^beneficiaries\.(\d+)\.(name|address|percentage|relationship)$/.exec(field);
  if (m) return Boolean(form.beneficiaries[Number(m[1])]?.[m[2] as keyof Row]?.trim());
  if (field === 'ownerAddress') return form.ownerAddress.trim() !== '';
  if (field === 'guardians.addresses') return form.guardians.trim() !== '';
  return field !== 'beneficiaries';
}

/** The errors to show: all once the user asked to go on, before that only those of inputs that hold something. */
export function visibleErrors(form: Form, errors: Errors, showAll: boolean): Errors {
  return showAll ? errors : Object.fromEntries(Object.entries(errors).filter(([f]) => fieldHasValue(form, f)));
}

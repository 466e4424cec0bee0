/**
 * Solana cost estimate. Rent-exempt deposits are computed from account byte
 * sizes with the rent formula; signature fees from the fee per signature;
 * compute units and the program binary size are assumptions (no Solana
 * toolchain runs here) and are marked so.
 */
import { ApiError } from '../../core/errors.js';
import { layoutsOf, type Layouts } from './estimate-layouts.js';
import { borshSize, type EnumItem, type StructItem } from './model.js';
import { buildProgramModel } from './program.js';
import { printProgram } from './model.js';
import { assertRustShape } from './parser.js';

/** Account storage overhead counted by the rent formula, in bytes. */
export const ACCOUNT_STORAGE_OVERHEAD = 128;
/** Default rent: lamports per byte-year. */
export const LAMPORTS_PER_BYTE_YEAR = 3480;
/** Years of rent an account must hold to be exempt. */
export const EXEMPTION_THRESHOLD_YEARS = 2;
/** Default fee per signature, in lamports. */
export const LAMPORTS_PER_SIGNATURE = 5000;
export const LAMPORTS_PER_SOL = 1_000_000_000;
/** Size of an SPL token account. */
export const TOKEN_ACCOUNT_LEN = 165;
/** Size of an upgradeable-loader program account and of the program data header. */
export const PROGRAM_ACCOUNT_LEN = 36;
export const PROGRAM_DATA_HEADER_LEN = 45;

/** Rent-exempt minimum balance of an account holding `dataLen` bytes: (128 + len) × 3480 × 2 lamports. */
export function rentExemptLamports(dataLen: number): number {
  if (!Number.isInteger(dataLen) || dataLen < 0) throw new RangeError('dataLen must be a non-negative integer');
  return (ACCOUNT_STORAGE_OVERHEAD + dataLen) * LAMPORTS_PER_BYTE_YEAR * EXEMPTION_THRESHOLD_YEARS;
}

export function lamportsToSol(lamports: number): string {
  const whole = Math.floor(lamports / LAMPORTS_PER_SOL);
  const frac = String(lamports % LAMPORTS_PER_SOL)
    .padStart(9, '0')
    .replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : String(whole);
}

export interface EstimateItem {
  name: string;
  lamports: number;
  sol: string;
  basis: 'computed' | 'assumed';
  formula?: string;
  /** For compute-unit items: the assumed compute units. */
  computeUnits?: number;
}

export interface SolanaEstimate {
  items: EstimateItem[];
  deployment: string;
  claim: string;
  update: string;
  currency: 'SOL';
  method: string;
  /** The summaries' amounts as raw figures, so a reader writes them in its own conventions. */
  figures: SolanaCostFigures;
}

/** The amounts behind the deployment, claim and update summaries. */
export interface SolanaCostFigures {
  /** Lamports per operation: deployment (program, vault rent, fees), one claim and one update (signature fees). */
  lamports: { deployment: number; claim: number; update: number };
  /** Compute units assumed for one claim (claim_sol); no priority fee is assumed. */
  computeUnits: { claim: number };
  /** Rent for each beneficiary an update adds (the vault grows), in lamports; 0 when the vault has no list. */
  lamportsPerAddedBeneficiary: number;
}

/** Type definitions looked up, at most, while sizing the accounts of one estimate (a type graph that doubles at each level stops here). */
const MAX_TYPE_LOOKUPS = 20_000;

// ------------------------------------------------------------------ estimate

let defaultSource: string | undefined;
function defaultProgram(): string {
  defaultSource ??= printProgram(
    buildProgramModel({ template: 'custom', deadMansSwitch: true, multiSig: false, splTokens: false }),
  );
  return defaultSource;
}

/** Compute units assumed per instruction (typical Anchor figures; not measured here). */
function assumedComputeUnits(ix: string, beneficiaries: number): number | undefined {
  const table: Record<string, number> = {
    initialize: 18_000 + 1_200 * beneficiaries,
    deposit_sol: 6_000,
    check_in: 5_000,
    trigger: 5_000,
    release: 5_000,
    confirm_release: 6_000,
    veto: 6_000,
    update_beneficiaries: 12_000 + 1_200 * beneficiaries,
    update_guardians: 10_000,
    withdraw_sol: 6_000,
    cancel: 6_000,
    claim_sol: 8_000 + 600 * beneficiaries,
    deposit_token: 30_000,
    withdraw_token: 25_000,
    claim_token: 60_000 + 600 * beneficiaries,
  };
  return table[ix];
}

/** Sizes an account struct of the program (discriminator included) for given counts; undefined when it cannot be sized. */
function accountSizer(layouts: Layouts): (s: StructItem, b: number, g: number) => number | undefined {
  const byName = new Map<string, StructItem | EnumItem>();
  for (const x of [...layouts.types, ...layouts.state]) if (!byName.has(x.name)) byName.set(x.name, x);
  let lookups = 0;
  const lookup = (n: string) => {
    if (++lookups > MAX_TYPE_LOOKUPS) {
      throw ApiError.validation("The program's account types are too large to size", [
        {
          field: 'contractCode',
          reason: `sizing its #[account] structs needs more than ${MAX_TYPE_LOOKUPS} type look-ups (types nested or repeated too often)`,
        },
      ]);
    }
    return byName.get(n);
  };

  return (s: StructItem, b: number, g: number): number | undefined => {
    try {
      const size =
        8 +
        borshSize({ kind: 'defined', name: s.name }, lookup, (f) =>
          f === 'beneficiaries' ? b : f === 'guardians' ? g : 0,
        );
      return Number.isSafeInteger(size) ? size : undefined;
    } catch (err) {
      if (err instanceof ApiError) throw err;
      return undefined; // an unknown or recursive type: this account cannot be sized
    }
  };
}

type PushItem = (
  name: string,
  lamports: number,
  basis: 'computed' | 'assumed',
  formula?: string,
  computeUnits?: number,
) => void;

/** The estimate's item list and the function that appends to it. */
function itemList(): { items: EstimateItem[]; push: PushItem } {
  const items: EstimateItem[] = [];
  const push: PushItem = (name, lamports, basis, formula, computeUnits) => {
    items.push({
      name,
      lamports,
      sol: lamportsToSol(lamports),
      basis,
      ...(formula ? { formula } : {}),
      ...(computeUnits !== undefined ? { computeUnits } : {}),
    });
  };
  return { items, push };
}

/** Appends the program, deployment, signature and compute-unit items; returns the amounts the summaries quote. */
function pushProgramItems(
  push: PushItem,
  layouts: Layouts,
  hasGuardians: boolean,
  beneficiaries: number,
): { programRent: number; programDataRent: number; deployFees: number; binary: number } {
  const programRent = rentExemptLamports(PROGRAM_ACCOUNT_LEN);
  push(
    `Program account rent (${PROGRAM_ACCOUNT_LEN} bytes)`,
    programRent,
    'computed',
    `(128 + ${PROGRAM_ACCOUNT_LEN}) × 3480 × 2`,
  );
  const binary = (layouts.spl ? 300_000 : 200_000) + (hasGuardians ? 20_000 : 0);
  const programDataRent = rentExemptLamports(PROGRAM_DATA_HEADER_LEN + binary);
  push(
    `Program data account rent (${binary.toLocaleString('en-US')}-byte binary assumed + ${PROGRAM_DATA_HEADER_LEN}-byte header)`,
    programDataRent,
    'assumed',
    `(128 + ${PROGRAM_DATA_HEADER_LEN} + ${binary}) × 3480 × 2`,
  );
  const writes = Math.ceil(binary / 1000) + 3;
  const deployFees = writes * LAMPORTS_PER_SIGNATURE;
  push(
    `Deployment transaction fees (≈ ${writes} transactions of ~1,000 bytes each)`,
    deployFees,
    'assumed',
    `${writes} × 5000`,
  );
  push(
    'Signature fee (per transaction with one signer)',
    LAMPORTS_PER_SIGNATURE,
    'computed',
    '1 signature × 5000 lamports',
  );

  for (const ix of layouts.instructions) {
    const cu = assumedComputeUnits(ix, beneficiaries);
    if (cu === undefined) continue;
    push(
      `Compute units: ${ix} (≈ ${cu.toLocaleString('en-US')} CU; no priority fee)`,
      0,
      'assumed',
      'CU × 0 micro-lamports per CU',
      cu,
    );
  }
  return { programRent, programDataRent, deployFees, binary };
}

export function estimateSolana(input: {
  contractCode?: string;
  beneficiaries?: number;
  guardians?: number;
}): SolanaEstimate {
  const code =
    typeof input.contractCode === 'string' && input.contractCode.trim().length > 0 ? input.contractCode : undefined;
  // Length and nesting are checked in one linear pass before anything reads the code.
  if (code !== undefined) assertRustShape(code, 'contractCode');
  const given = code !== undefined ? layoutsOf(code) : undefined;
  // Code without any #[account] struct (not an Anchor program) cannot give sizes: the default program is used and the method says so.
  const fromCode = !!given && given.state.length > 0;
  const layouts = fromCode ? given! : layoutsOf(defaultProgram());
  const countGiven =
    typeof input.beneficiaries === 'number' && Number.isInteger(input.beneficiaries) && input.beneficiaries >= 1;
  const beneficiaries = countGiven ? Math.min(input.beneficiaries!, 50) : 2;
  const sizeOf = accountSizer(layouts);
  const { items, push } = itemList();

  const vault = layouts.state.find((s) => s.fields.some((f) => f.name === 'beneficiaries')) ?? layouts.state[0];
  const hasGuardians = !!vault?.fields.some((f) => f.name === 'guardians');
  const guardiansGiven =
    typeof input.guardians === 'number' && Number.isInteger(input.guardians) && input.guardians >= 1;
  const guardians = hasGuardians ? (guardiansGiven ? Math.min(input.guardians!, 10) : 3) : 0;
  let vaultRent = 0;
  let perBeneficiary = 0;
  for (const s of layouts.state) {
    const size = sizeOf(s, beneficiaries, guardians);
    if (size === undefined) continue;
    const rent = rentExemptLamports(size);
    if (s === vault) {
      vaultRent = rent;
      const note =
        `${beneficiaries} beneficiar${beneficiaries === 1 ? 'y' : 'ies'}${countGiven ? '' : ' assumed'}` +
        (hasGuardians ? `, ${guardians} guardian${guardians === 1 ? '' : 's'}${guardiansGiven ? '' : ' assumed'}` : '');
      const exact = countGiven && (!hasGuardians || guardiansGiven);
      push(
        `${s.name} account rent (${size} bytes, ${note})`,
        rent,
        exact ? 'computed' : 'assumed',
        `(128 + ${size}) × 3480 × 2`,
      );
      const one = sizeOf(s, beneficiaries + 1, guardians);
      if (one !== undefined) perBeneficiary = (one - size) * LAMPORTS_PER_BYTE_YEAR * EXEMPTION_THRESHOLD_YEARS;
    } else {
      push(`${s.name} account rent (${size} bytes)`, rent, 'computed', `(128 + ${size}) × 3480 × 2`);
    }
  }
  const ataRent = rentExemptLamports(TOKEN_ACCOUNT_LEN);
  if (layouts.spl)
    push(
      `Associated token account rent (${TOKEN_ACCOUNT_LEN} bytes, per holder and mint)`,
      ataRent,
      'computed',
      `(128 + ${TOKEN_ACCOUNT_LEN}) × 3480 × 2`,
    );
  if (perBeneficiary > 0)
    push(
      `Rent per added beneficiary (${perBeneficiary / 6960} bytes)`,
      perBeneficiary,
      'computed',
      `${perBeneficiary / 6960} × 3480 × 2`,
    );

  const { programRent, programDataRent, deployFees, binary } = pushProgramItems(
    push,
    layouts,
    hasGuardians,
    beneficiaries,
  );

  const claimCu = assumedComputeUnits('claim_sol', beneficiaries)!;
  const tokenClaimRent = layouts.spl
    ? ataRent +
      layouts.state
        .filter((s) => s !== vault)
        .reduce((n, s) => n + rentExemptLamports(sizeOf(s, beneficiaries, guardians) ?? 0), 0)
    : 0;
  const deployment =
    `≈ ${lamportsToSol(programRent + programDataRent + deployFees + vaultRent + LAMPORTS_PER_SIGNATURE)} SOL: ` +
    `program ${lamportsToSol(programRent + programDataRent + deployFees)} SOL (assumed ${Math.round(binary / 1000)} KB binary) + ` +
    `vault rent ${lamportsToSol(vaultRent)} SOL (computed) + ${LAMPORTS_PER_SIGNATURE} lamports fee`;
  const claim =
    `${LAMPORTS_PER_SIGNATURE} lamports (one signature) + ≈ ${claimCu.toLocaleString('en-US')} CU for claim_sol` +
    (layouts.spl
      ? `; claim_token ≈ ${assumedComputeUnits('claim_token', beneficiaries)!.toLocaleString('en-US')} CU and up to ${lamportsToSol(tokenClaimRent)} SOL rent on a beneficiary's first claim of a mint`
      : '');
  const update =
    `${LAMPORTS_PER_SIGNATURE} lamports (one signature)` +
    (perBeneficiary
      ? ` + ${perBeneficiary.toLocaleString('en-US')} lamports rent per added beneficiary (the vault only grows; its rent returns to the owner on cancel)`
      : '');
  return {
    items,
    deployment,
    claim,
    update,
    currency: 'SOL',
    figures: {
      lamports: {
        deployment: programRent + programDataRent + deployFees + vaultRent + LAMPORTS_PER_SIGNATURE,
        claim: LAMPORTS_PER_SIGNATURE,
        update: LAMPORTS_PER_SIGNATURE,
      },
      computeUnits: { claim: claimCu },
      lamportsPerAddedBeneficiary: perBeneficiary,
    },
    method:
      `Rent-exempt deposits computed from account byte sizes${
        fromCode
          ? ' read from the given program'
          : `${given ? ' (the given code has no #[account] struct)' : ''} of the default program (dead man's switch, SOL only)`
      } ` +
      'with (128 + bytes) × 3480 lamports/byte-year × 2 years; fee 5000 lamports per signature. Compute units and the program binary size are assumptions: ' +
      'no Solana toolchain runs here, so nothing was executed.',
  };
}

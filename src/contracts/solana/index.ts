/**
 * Solana generator: an Anchor program (a PDA vault per owner, heartbeat,
 * trigger, per-beneficiary claims of SOL and SPL tokens, owner update and
 * cancel, guardians), its IDL, a TypeScript client snippet, build files, the
 * checks it passed, and a cost estimate. Domain code: no transport imports.
 */
import { ApiError } from '../../core/errors.js';
import { guardianRulesText, guardianTiming } from '../guardians.js';
import type { Plan } from '../plan.js';
import type { SolanaAdviceCode, SolanaTechnicalCode, SolanaWarningCode } from '../../core/messages/solana-words.js';
import { solanaAddressProblem } from './address.js';
import type { Check } from './check-result.js';
import { checkAnchorProgram } from './checks.js';
import { estimateSolana } from './estimate.js';
import { buildIdl } from './idl.js';
import { printProgram } from './model.js';
import { buildProgramModel, placeholderProgramId, shapeFeatures, type SolanaShape } from './program.js';
import { anchorToml, buildInstructions, cargoToml, clientSnippet } from './workspace.js';

export { checkAnchorProgram } from './checks.js';
export { estimateSolana, rentExemptLamports, lamportsToSol } from './estimate.js';
export { isValidSolanaAddress, isSolanaZeroAddress, solanaAddressProblem, SOLANA_ZERO_ADDRESS } from './address.js';
export {
  buildProgramModel,
  accountSizes,
  shapeFeatures,
  placeholderProgramId,
  SOLANA_FEATURES,
  type SolanaShape,
  type SolanaFeature,
} from './program.js';
export { rustParser } from './parser.js';
export type { Check } from './check-result.js';
export type { EstimateItem, SolanaEstimate } from './estimate.js';

export const SOLANA_NETWORK = 'solana-devnet';

export interface SolanaWarning {
  id: string;
  severity: 'low' | 'medium' | 'high' | 'info';
  message: string;
  /** Stable code of the sentence (src/core/messages/solana-words.ts); translations read it with `params`. */
  code: SolanaWarningCode | SolanaTechnicalCode;
  /** The figures and strings of the message, as data. */
  params: Record<string, number | string>;
}

/** A suggestion with its code and params: `message` is the suggestion's English text, as in `suggestions`. */
export interface SolanaAdvice {
  code: SolanaAdviceCode | SolanaTechnicalCode;
  params: Record<string, number | string>;
  message: string;
}

export interface SolanaGenerated {
  contractCode: string /* lib.rs */;
  idl: Record<string, unknown>;
  clientSnippet: string;
  cargoToml: string;
  anchorToml: string;
  buildInstructions: { required: 'anchor build'; commands: string[]; note: string };
  checks: Array<{ name: string; passed: boolean; detail?: string }>;
  features: string[];
  estimatedGas: string;
  network: string;
  analysis: {
    securityScore: number;
    warnings: SolanaWarning[];
    suggestions: string[];
    /** The suggestions again, coded, in the same order. */
    advice: SolanaAdvice[];
  };
}

/** The program's shape: everything the Rust source depends on. */
export function solanaShape(plan: Plan): SolanaShape {
  return {
    template: plan.inheritanceTemplate ?? 'custom',
    deadMansSwitch: plan.deadMansSwitch?.enabled === true,
    multiSig: (plan.guardians?.addresses.length ?? 0) > 0,
    splTokens: (plan.assets ?? []).some((a) => a.type === 'spl'),
  };
}

const shapeKey = (s: SolanaShape): string => `${s.template}|${shapeFeatures(s).join('+')}`;

interface ShapeOutput {
  source: string;
  idl: Record<string, unknown>;
  checks: Check[];
}

// Source, IDL and their checks depend only on the shape (5 templates × 8 feature sets): built and checked once each.
const byShape = new Map<string, Promise<ShapeOutput>>();

/** Source, IDL and checks for one shape; cached. Exposed for tests and benchmarks. */
export function programForShape(shape: SolanaShape): Promise<ShapeOutput> {
  const key = shapeKey(shape);
  let out = byShape.get(key);
  if (!out) {
    out = (async () => {
      const model = buildProgramModel(shape);
      const source = printProgram(model);
      const idl = buildIdl(
        model,
        `svc inheritance vault (${shape.template}; ${shapeFeatures(shape).join(', ') || 'no optional features'})`,
      );
      const checks = await checkAnchorProgram(source, idl);
      return { source, idl, checks };
    })();
    out.catch(() => byShape.delete(key));
    byShape.set(key, out);
  }
  return out;
}

/** Forgets the per-shape cache (benchmarks measure cold generation with it). */
export function clearSolanaCache(): void {
  byShape.clear();
}

/** Checks of the per-plan values passed to `initialize` (the program itself does not depend on them). */
function planChecks(plan: Plan, shape: SolanaShape): Check[] {
  const problems: string[] = [];
  const bps = plan.beneficiaries.map((b) => Math.round(b.percentage * 100));
  const sum = bps.reduce((a, b) => a + b, 0);
  if (sum !== 10_000) problems.push(`shares sum to ${sum} basis points, not 10000`);
  if (bps.some((b) => b <= 0 || b > 10_000)) problems.push('every share must be 1 to 10000 basis points');
  if (plan.beneficiaries.length < 1 || plan.beneficiaries.length > 50)
    problems.push('1 to 50 beneficiaries are allowed');
  const addrs = [plan.ownerAddress, ...plan.beneficiaries.map((b) => b.address), ...(plan.guardians?.addresses ?? [])];
  for (const a of addrs) {
    const p = solanaAddressProblem(a);
    if (p) problems.push(`address ${a.slice(0, 48)} ${p}`);
  }
  if (shape.multiSig && plan.guardians) {
    const g = plan.guardians;
    if (g.threshold < 1 || g.threshold > g.addresses.length)
      problems.push(`guardian threshold ${g.threshold} is not between 1 and ${g.addresses.length}`);
  }
  return [
    problems.length
      ? { name: 'initialize-arguments', passed: false, detail: problems.join('; ') }
      : {
          name: 'initialize-arguments',
          passed: true,
          detail: `${bps.length} shares summing to 10000 bps; all addresses are base58 32-byte keys`,
        },
  ];
}

function analyse(plan: Plan, shape: SolanaShape): SolanaGenerated['analysis'] {
  const warnings: SolanaWarning[] = [
    {
      id: 'solana-not-compiled',
      code: 'solana.not-compiled',
      params: {},
      severity: 'info',
      message:
        'The program was parsed and checked structurally but not compiled: run `anchor build` (see buildInstructions).',
    },
    {
      id: 'solana-placeholder-program-id',
      code: 'solana.placeholder-program-id',
      params: {},
      severity: 'info',
      message: 'declare_id! holds a placeholder key; `anchor keys sync` sets the real program id before deployment.',
    },
  ];
  const advice: SolanaAdvice[] = [];
  const suggest = (message: string, code: SolanaAdvice['code'], params: SolanaAdvice['params'] = {}) => {
    advice.push({ code, params, message });
  };
  suggest(
    'Run `anchor build` and `anchor test` on a local validator, then deploy to devnet before mainnet.',
    'solana.advice-build',
  );
  suggest(
    'Have the program audited before it holds significant value; keep the upgrade authority in a multisig or make the program immutable.',
    'solana.advice-audit',
  );
  const sw = plan.deadMansSwitch;
  const timing = guardianTiming(plan.guardians);
  if (!shape.deadMansSwitch) {
    warnings.push({
      id: 'no-dead-mans-switch',
      ...(shape.multiSig
        ? { code: 'solana.owner-or-guardians-release' as const, params: { waitDays: timing.waitDays } }
        : { code: 'solana.owner-release-only' as const, params: {} }),
      severity: shape.multiSig ? 'low' : 'medium',
      message: shape.multiSig
        ? `No dead man's switch: claims open when the owner calls \`release\`, or ${timing.waitDays} days after the guardians confirm (m of n) if the owner stays silent.`
        : "No dead man's switch: claims open only when the owner (or an executor holding the owner key) calls `release`.",
    });
    suggest(
      "Enable the dead man's switch so the estate is released even if nobody holds the owner key.",
      'solana.advice-enable-switch',
    );
  } else {
    if ((sw?.gracePeriodDays ?? 0) === 0) {
      warnings.push({
        id: 'no-grace-period',
        code: 'solana.no-grace-period',
        params: {},
        severity: 'low',
        message: 'Grace period of 0 days: a trigger after a missed check-in opens the claims at once.',
      });
      suggest(
        'Set a grace period (for example 30 days) so a missed check-in can be corrected.',
        'solana.advice-add-grace',
        {
          exampleDays: 30,
        },
      );
    }
    if ((sw?.intervalDays ?? 365) < 30) {
      warnings.push({
        id: 'short-interval',
        code: 'solana.short-interval',
        params: { intervalDays: sw?.intervalDays ?? 0 },
        severity: 'low',
        message: `Check-in interval of ${sw?.intervalDays} days: a short absence could release the estate.`,
      });
    }
  }
  if (shape.multiSig && plan.guardians) {
    const { threshold, addresses } = plan.guardians;
    warnings.push({
      id: 'guardian-threshold',
      code: 'solana.guardian-rules',
      params: { threshold, guardians: addresses.length, waitDays: timing.waitDays },
      severity: threshold === 1 && addresses.length > 1 ? 'medium' : 'info',
      message: guardianRulesText(addresses.length, threshold, shape.deadMansSwitch, timing),
    });
    suggest(
      'Tell your guardians that `confirm_release` only starts a waiting period, and that any instruction you sign (a check-in, a deposit) cancels it.',
      'solana.advice-tell-guardians',
    );
    if (threshold === 1 && addresses.length > 1) {
      warnings.push({
        id: 'guardian-threshold-one',
        code: 'solana.any-one-guardian',
        params: { guardians: addresses.length, waitDays: timing.waitDays },
        severity: 'medium',
        message: `Any one of ${addresses.length} guardians can propose an early release (the owner has ${timing.waitDays} days to cancel it).`,
      });
    }
    if (threshold === addresses.length && addresses.length > 1) {
      warnings.push({
        id: 'guardian-threshold-all',
        code: 'solana.all-guardians',
        params: {},
        severity: 'low',
        message: 'Every guardian must confirm: one lost guardian key blocks early release and vetoes.',
      });
    }
    if (addresses.includes(plan.ownerAddress)) {
      warnings.push({
        id: 'owner-is-guardian',
        code: 'solana.owner-is-guardian',
        params: {},
        severity: 'high',
        message: 'The owner is listed as a guardian; `initialize` rejects this.',
      });
    }
  }
  const foreign = (plan.assets ?? []).filter((a) => a.type !== 'native' && a.type !== 'spl');
  if (foreign.length > 0) {
    warnings.push({
      id: 'unsupported-assets',
      code: 'solana.unsupported-assets',
      params: { count: foreign.length, types: [...new Set(foreign.map((a) => a.type))].join(', ') },
      severity: 'medium',
      message: `${foreign.length} asset(s) of type ${[...new Set(foreign.map((a) => a.type))].join(', ')} cannot be held by a Solana program and are ignored.`,
    });
  }
  if (shape.splTokens) {
    warnings.push({
      id: 'spl-token-program',
      code: 'solana.spl-token-program',
      params: {},
      severity: 'info',
      message: 'Token claims use the SPL Token program; Token-2022 mints are not supported by this program.',
    });
    warnings.push({
      id: 'spl-cancel-withdraw-first',
      code: 'solana.spl-cancel-withdraw-first',
      params: {},
      severity: 'low',
      message:
        '`cancel` closes the vault and returns its SOL only; it does not move tokens. Withdraw every token with `withdraw_token` first: tokens left in the vault token accounts can then only be reached by initializing a vault again for the same owner (same address) and withdrawing them.',
    });
    suggest('Before cancelling, withdraw each token with `withdraw_token`.', 'solana.advice-withdraw-tokens');
  }
  if (shape.splTokens) {
    warnings.push({
      id: 'spl-any-mint',
      code: 'solana.spl-any-mint',
      params: {},
      severity: 'info',
      message:
        'After the release, `claim_token` pays each beneficiary its share of every token of any mint in the vault, listed in the plan or not (an airdrop included): each claim is its share of all the vault ever received of that mint (held now plus claimed) minus what it already claimed, so a deposit after an early claim gives the early claimant only its own share of that deposit.',
    });
  } else {
    warnings.push({
      id: 'spl-not-claimable',
      code: 'solana.spl-not-claimable',
      params: {},
      severity: 'low',
      message:
        'This vault has no token instructions because the plan lists no SPL token: tokens sent to its token accounts (an airdrop included) can never be claimed by the heirs nor withdrawn.',
    });
    suggest(
      "If the estate may ever hold SPL tokens, list one `spl` asset: the vault then shares tokens of every mint, listed or not, by the beneficiaries' shares.",
      'solana.advice-list-spl',
    );
  }
  warnings.push({
    id: 'solana-events',
    code: 'solana.events',
    params: {},
    severity: 'info',
    message:
      'Every instruction that changes the vault emits an Anchor event (VaultInitialized, Deposited, Withdrawn, BeneficiariesUpdated, VaultReleased, Claimed, VaultCancelled' +
      (shape.deadMansSwitch ? ', CheckedIn' : '') +
      (shape.multiSig ? ', GuardiansUpdated, ReleaseApproved, ReleaseProposed' : '') +
      (shape.multiSig && shape.deadMansSwitch ? ', VetoCast, TriggerVetoed' : '') +
      '), listed with its fields in the IDL; heirs and indexers can follow every change from the transaction logs. Events are program log entries (`emit!`), which an RPC node may truncate in very long transactions.',
  });
  warnings.push({
    id: 'rounding-dust',
    code: 'solana.rounding-dust',
    params: {},
    severity: 'info',
    message:
      'Shares are rounded down per claim; up to one lamport (or token unit) per beneficiary can stay in the vault.',
  });
  const penalty = { high: 25, medium: 10, low: 4, info: 0 } as const;
  const securityScore = Math.max(0, 95 - warnings.reduce((n, w) => n + penalty[w.severity], 0));
  return { securityScore, warnings, suggestions: advice.map((a) => a.message), advice };
}

/** Generates and checks the Solana program for a validated plan; throws INTERNAL_ERROR if any of its own checks fails. */
export async function generateSolana(
  plan: Plan,
  onStage?: (stage: 'compile' | 'measure') => void,
): Promise<SolanaGenerated> {
  const shape = solanaShape(plan);
  onStage?.('compile');
  const { source, idl, checks: programChecks } = await programForShape(shape);
  const checks = [...programChecks, ...planChecks(plan, shape)];
  const failed = checks.filter((c) => !c.passed);
  if (failed.length > 0) {
    throw new ApiError(
      'INTERNAL_ERROR',
      'The generated Solana program failed its own checks; no unchecked program is returned.',
      failed.map((c) => ({ field: `checks.${c.name}`, reason: c.detail ?? 'failed' })),
    );
  }
  onStage?.('measure');
  const estimate = estimateSolana({
    contractCode: source,
    beneficiaries: plan.beneficiaries.length,
    guardians: plan.guardians?.addresses.length ?? 0,
  });
  const estimatedGas =
    `Deploy and initialise ${estimate.deployment}. Claim: ${estimate.claim}. ` +
    'Rent computed from account sizes; program size and compute units assumed (not run: no Solana toolchain here).';
  return {
    contractCode: source,
    idl: structuredClone(idl),
    clientSnippet: clientSnippet(plan, shape),
    cargoToml: cargoToml(shape),
    anchorToml: anchorToml(placeholderProgramId(shape)),
    buildInstructions: buildInstructions(),
    checks,
    features: shapeFeatures(shape),
    estimatedGas,
    network: SOLANA_NETWORK,
    analysis: analyse(plan, shape),
  };
}

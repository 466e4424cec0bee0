import { ApiError, type ErrorDetail } from '../core/errors.js';
import {
  evmAddressIssue,
  hasMoreThanTwoDecimals,
  humanMessage,
  issueDetail,
  sumIssue,
} from '../core/messages/index.js';
import { DEFAULT_SWITCH_INTERVAL_DAYS, type AssetType, type Blockchain, type Plan } from './plan.js';
import { isSolanaZeroAddress, solanaAddressProblem } from './solana/address.js';
import { Address, isValidTonAddress } from './ton/address.js';
import { TON_MAX_JETTONS } from './ton/limits.js';

/**
 * Validation of a plan before any contract is built (docs/decisions.md, Contracts):
 * addresses valid for the chain (EIP-55 checksum when mixed case, base58 32-byte
 * Solana keys, TON raw or user-friendly with CRC16), percentages with at most two
 * decimals summing to exactly 100, no duplicates, no zero address, the owner not
 * an heir, assets that fit the chain (one token never listed twice nor as two
 * kinds, and never the zero address, the owner or a beneficiary), and a way to
 * release the estate: the dead man's switch (the default when omitted) or
 * guardians. One `details` entry per problem.
 */

const ASSETS_BY_CHAIN: Record<Blockchain, readonly AssetType[]> = {
  evm: ['native', 'erc20', 'erc721'],
  solana: ['native', 'spl'],
  ton: ['native', 'jetton'],
};

const EVM_ZERO = '0x0000000000000000000000000000000000000000';

/** Why an address is not valid for the chain, or undefined. */
export function addressProblem(chain: Blockchain, address: string): string | undefined {
  switch (chain) {
    case 'evm': {
      const issue = evmAddressIssue(address);
      return issue ? humanMessage(issue) : undefined;
    }
    case 'solana':
      return solanaAddressProblem(address, { rejectZero: false });
    case 'ton':
      return isValidTonAddress(address)
        ? undefined
        : 'not a TON address (raw 0:<64 hex> or the 48-character user-friendly form with a valid CRC16)';
  }
}

/** A canonical form, so that the same account written two ways is one account. */
export function canonicalAddress(chain: Blockchain, address: string): string {
  switch (chain) {
    case 'evm':
      return address.toLowerCase();
    case 'ton':
      try {
        return Address.parse(address).toRawString();
      } catch {
        return address;
      }
    case 'solana':
      return address;
  }
}

function isZero(chain: Blockchain, address: string): boolean {
  switch (chain) {
    case 'evm':
      return address.toLowerCase() === EVM_ZERO;
    case 'solana':
      return isSolanaZeroAddress(address);
    case 'ton':
      return /^0:0{64}$/.test(canonicalAddress('ton', address));
  }
}

/** A note about a default applied to the plan, shown in the answer's analysis. */
export interface PlanNote {
  id: string;
  severity: 'info';
  message: string;
  /** Stable code of the message (src/core/messages/evm-words.ts, `plan.*`), with its figures as params. */
  code: 'plan.default-switch';
  params: Record<string, number | string>;
  suggestion: string;
  /** Stable code of the suggestion, with the same params. */
  suggestionCode: 'plan.advice-default-switch';
}

/**
 * Applies the plan defaults that change what the contract does, on every chain:
 * without `deadMansSwitch`, the default switch (enabled, every
 * DEFAULT_SWITCH_INTERVAL_DAYS, no grace period). Returns the plan to build and
 * a note for each default.
 */
export function withPlanDefaults<P extends Plan>(plan: P): { plan: P; notes: PlanNote[] } {
  if (plan.deadMansSwitch !== undefined) return { plan, notes: [] };
  return {
    plan: {
      ...plan,
      deadMansSwitch: { enabled: true, intervalDays: DEFAULT_SWITCH_INTERVAL_DAYS, gracePeriodDays: 0 },
    },
    notes: [
      {
        id: 'default-dead-mans-switch',
        severity: 'info',
        code: 'plan.default-switch',
        suggestionCode: 'plan.advice-default-switch',
        params: { intervalDays: DEFAULT_SWITCH_INTERVAL_DAYS },
        message: `No deadMansSwitch was given, so the default applies: the dead man's switch is enabled with a check-in interval of ${DEFAULT_SWITCH_INTERVAL_DAYS} days and no grace period. Without it the estate could never be released after the owner's death.`,
        suggestion: `The default dead man's switch (${DEFAULT_SWITCH_INTERVAL_DAYS} days) was applied: check in at least once every ${DEFAULT_SWITCH_INTERVAL_DAYS} days, or set deadMansSwitch to choose another interval or a grace period.`,
      },
    ],
  };
}

const UINT256_MAX = (1n << 256n) - 1n;

/** An address's problem as a `details` entry (EVM's in the caller's words, see `issueDetail`), or undefined. */
function addressDetail(chain: Blockchain, field: string, address: string): ErrorDetail | undefined {
  if (chain === 'evm') {
    const issue = evmAddressIssue(address);
    return issue ? issueDetail(field, issue) : undefined;
  }
  const problem = addressProblem(chain, address);
  return problem ? { field, reason: problem } : undefined;
}

/** The plan's problems, one entry each (empty when the plan is valid). */
export function planProblems(plan: Plan): ErrorDetail[] {
  const chain = plan.blockchain;
  const details: ErrorDetail[] = [];
  if (plan.deadMansSwitch?.enabled === false && !(plan.guardians && plan.guardians.addresses.length > 0)) {
    details.push(issueDetail('deadMansSwitch.enabled', { code: 'no_release' }));
  }
  const ownerProblem = addressDetail(chain, 'ownerAddress', plan.ownerAddress);
  if (ownerProblem) details.push(ownerProblem);
  else if (isZero(chain, plan.ownerAddress)) details.push(issueDetail('ownerAddress', { code: 'zero_owner' }));
  const owner = canonicalAddress(chain, plan.ownerAddress);

  const seen = new Map<string, number>();
  plan.beneficiaries.forEach((b, i) => {
    const field = `beneficiaries.${i}`;
    const problem = addressDetail(chain, `${field}.address`, b.address);
    if (problem) details.push(problem);
    else if (isZero(chain, b.address)) details.push(issueDetail(`${field}.address`, { code: 'zero_address' }));
    else {
      const key = canonicalAddress(chain, b.address);
      if (key === owner) details.push(issueDetail(`${field}.address`, { code: 'owner_is_beneficiary' }));
      const first = seen.get(key);
      if (first !== undefined)
        details.push(issueDetail(`${field}.address`, { code: 'duplicate_beneficiary', other: first }));
      else seen.set(key, i);
    }
    if (hasMoreThanTwoDecimals(b.percentage))
      details.push(issueDetail(`${field}.percentage`, { code: 'percentage_decimals' }));
  });
  const sum = sumIssue(plan.beneficiaries.map((b) => b.percentage));
  if (sum) details.push(issueDetail('beneficiaries', sum));

  if (plan.guardians) {
    const g = plan.guardians;
    const seenG = new Set<string>();
    // A token contract cannot sign: as a guardian it could never confirm a release nor veto one.
    const tokens = new Set(
      (plan.assets ?? []).flatMap((a) =>
        a.type !== 'native' && a.address && ASSETS_BY_CHAIN[chain].includes(a.type)
          ? [canonicalAddress(chain, a.address)]
          : [],
      ),
    );
    g.addresses.forEach((a, i) => {
      const problem = addressDetail(chain, `guardians.addresses.${i}`, a);
      if (problem) return details.push(problem);
      if (isZero(chain, a)) return details.push(issueDetail(`guardians.addresses.${i}`, { code: 'zero_guardian' }));
      const key = canonicalAddress(chain, a);
      if (key === owner) details.push(issueDetail(`guardians.addresses.${i}`, { code: 'guardian_is_owner' }));
      else if (seenG.has(key)) details.push(issueDetail(`guardians.addresses.${i}`, { code: 'guardian_duplicate' }));
      else if (tokens.has(key))
        details.push({
          field: `guardians.addresses.${i}`,
          reason: 'This is a token contract listed in assets: it could never confirm or veto a release.',
        });
      seenG.add(key);
      return undefined;
    });
    if (g.threshold > g.addresses.length) {
      details.push(issueDetail('guardians.threshold', { code: 'threshold_exceeds', count: g.addresses.length }));
    }
  }

  const jettons = (plan.assets ?? []).filter((a) => a.type === 'jetton').length;
  if (chain === 'ton' && jettons > TON_MAX_JETTONS)
    details.push({
      field: 'assets',
      reason: `A TON contract holds at most ${TON_MAX_JETTONS} jettons; this plan lists ${jettons}.`,
    });

  const allowed = ASSETS_BY_CHAIN[chain];
  const beneficiaryKeys = new Set(plan.beneficiaries.map((b) => canonicalAddress(chain, b.address)));
  // A token contract is no one's wallet: as the owner it could never sign, as a beneficiary never claim.
  const tokenClash = (field: string, address: string): ErrorDetail | undefined => {
    const key = canonicalAddress(chain, address);
    const heir = plan.beneficiaries.findIndex((b) => canonicalAddress(chain, b.address) === key);
    let reason: string | undefined;
    if (isZero(chain, address)) reason = "The zero address is no token contract: give the token's own address.";
    // Jetton masters and their wallets live in the basechain; the contract is deployed and tried there.
    else if (chain === 'ton' && Address.parse(address).workChain !== 0)
      reason =
        'A jetton master lives in the basechain (workchain 0, raw 0:...); this address is in the masterchain (-1).';
    else if (key === owner) reason = "This is the owner's address, not a token contract.";
    else if (heir >= 0)
      reason = `This is the address of beneficiaries.${heir}: a token contract cannot be a beneficiary, it could never claim.`;
    return reason ? { field: `${field}.address`, reason } : undefined;
  };
  const nfts = new Map<string, number>();
  const kinds = new Map<string, { type: AssetType; index: number }>();
  (plan.assets ?? []).forEach((a, i) => {
    const field = `assets.${i}`;
    if (!allowed.includes(a.type)) {
      details.push({
        field: `${field}.type`,
        reason: `There are no ${a.type} assets on ${chain}: use one of ${allowed.join(', ')}.`,
      });
      return;
    }
    if (a.type === 'native') return;
    if (!a.address)
      details.push({ field: `${field}.address`, reason: `Every ${a.type} asset needs its token address.` });
    else {
      const problem = addressDetail(chain, `${field}.address`, a.address) ?? tokenClash(field, a.address);
      if (problem) details.push(problem);
      else {
        const key = canonicalAddress(chain, a.address);
        const other = kinds.get(key);
        if (other && other.type !== a.type) {
          details.push({
            field: `${field}.address`,
            reason: `The same contract is listed as ${other.type} in assets.${other.index}: one address is one kind of token.`,
          });
        } else if (other && a.type !== 'erc721') {
          // One contract holds several NFTs (told apart by token id below); a fungible token is listed once.
          details.push({ field: `${field}.address`, reason: `This token is already listed as assets.${other.index}.` });
        } else if (!other) kinds.set(key, { type: a.type, index: i });
      }
    }
    if (a.type === 'erc721') {
      if (a.tokenId === undefined)
        details.push({ field: `${field}.tokenId`, reason: 'An erc721 item needs its tokenId.' });
      else if (BigInt(a.tokenId) > UINT256_MAX)
        details.push({ field: `${field}.tokenId`, reason: 'This is larger than the largest token id (a uint256).' });
      if (!a.beneficiary)
        details.push({
          field: `${field}.beneficiary`,
          reason: 'An erc721 item names the beneficiary address that receives it.',
        });
      else if (!beneficiaryKeys.has(canonicalAddress(chain, a.beneficiary))) {
        details.push({
          field: `${field}.beneficiary`,
          reason: 'This must be the address of one of the beneficiaries.',
        });
      }
      if (a.tokenId !== undefined && a.address) {
        // Token ids are numbers: "7" and "007" name the same token.
        const nftKey = `${canonicalAddress(chain, a.address)}#${BigInt(a.tokenId).toString()}`;
        const first = nfts.get(nftKey);
        if (first !== undefined)
          details.push({
            field: `${field}.tokenId`,
            reason: `This is the same NFT as assets.${first} (token ids are compared as numbers).`,
          });
        else nfts.set(nftKey, i);
      }
    }
  });
  return details;
}

/** Throws VALIDATION_ERROR listing every problem of the plan. */
export function validatePlan(plan: Plan): void {
  const details = planProblems(plan);
  if (details.length) throw ApiError.validation('The plan is not valid.', details);
}

/**
 * The constructor inputs and arguments of a generated EVM contract, and the list lengths its measured updates use:
 * what the main thread needs to build a contract, without the VM (./vm.ts, loaded by the execution check's worker,
 * ./scenario.ts).
 */
import type { Abi, Hex } from 'viem';
import { getAddress } from 'viem/utils';
import { ApiError } from '../../core/errors.js';
import { guardianTiming } from '../guardians.js';
import type { Plan } from '../plan.js';
import { MAX_BENEFICIARIES } from './contract.js';
import type { EvmShape } from './shape.js';

/** Constructor inputs of a generated contract. */
export interface ConstructorInputs {
  owner: Hex;
  beneficiaries: Hex[];
  /** Basis points, summing to 10000. */
  shares: number[];
  intervalDays: number;
  graceDays: number;
  guardians: Hex[];
  threshold: number;
  /** The plan's guardian wait in days (default when absent). */
  guardianWaitDays?: number;
  /** The plan's veto bound (default when absent). */
  maxVetoes?: number;
  tokens: Hex[];
  nfts: Array<{ token: Hex; tokenId: bigint; recipient: Hex }>;
}

const addr = (a: string): Hex => getAddress(a.toLowerCase()) as Hex;

/** Percent (≤ 2 decimals) to basis points, exactly. */
export function toBasisPoints(percentage: number): number {
  return Math.round(percentage * 100);
}

/** The constructor inputs a plan gives. */
export function planInputs(plan: Plan): ConstructorInputs {
  const shares = plan.beneficiaries.map((b) => toBasisPoints(b.percentage));
  const tiny = shares.flatMap((s, i) =>
    s <= 0 ? [{ field: `beneficiaries.${i}.percentage`, reason: 'below 0.01 (one basis point)' }] : [],
  );
  if (tiny.length > 0) throw ApiError.validation('Every share must be at least 0.01%', tiny);
  const sum = shares.reduce((a, b) => a + b, 0);
  if (sum !== 10_000) {
    throw ApiError.validation('Beneficiary percentages must sum to exactly 100', [
      { field: 'beneficiaries', reason: `sum is ${sum / 100}`, expected: '100' },
    ]);
  }
  const assets = plan.assets ?? [];
  const tokens: Hex[] = [];
  for (const a of assets) {
    if (a.type !== 'erc20') continue;
    if (!a.address)
      throw ApiError.validation('An erc20 asset needs its token address', [
        { field: 'assets', reason: 'erc20 asset without address' },
      ]);
    const t = addr(a.address);
    if (!tokens.includes(t)) tokens.push(t);
  }
  const nfts: ConstructorInputs['nfts'] = [];
  assets.forEach((a, i) => {
    if (a.type !== 'erc721') return;
    const problems: string[] = [];
    if (!a.address) problems.push('address');
    if (a.tokenId === undefined) problems.push('tokenId');
    if (!a.beneficiary) problems.push('beneficiary');
    if (problems.length > 0) {
      throw ApiError.validation(
        'An erc721 asset needs its contract address, token id and receiving beneficiary',
        problems.map((f) => ({ field: `assets.${i}.${f}`, reason: 'required for erc721' })),
      );
    }
    const nft = { token: addr(a.address!), tokenId: BigInt(a.tokenId!), recipient: addr(a.beneficiary!) };
    const first = nfts.findIndex((x) => x.token === nft.token && x.tokenId === nft.tokenId);
    if (first >= 0)
      throw ApiError.validation('The same NFT is listed twice', [
        {
          field: `assets.${i}.tokenId`,
          reason: `the same NFT as the erc721 item ${first + 1} (token ids are compared as numbers)`,
        },
      ]);
    if (tokens.includes(nft.token))
      throw ApiError.validation('One address is listed as erc20 and erc721', [
        { field: `assets.${i}.address`, reason: 'also listed as an erc20 token' },
      ]);
    nfts.push(nft);
  });
  const owner = addr(plan.ownerAddress);
  const beneficiaries = plan.beneficiaries.map((b) => addr(b.address));
  const dupes = beneficiaries.flatMap((b, i) =>
    beneficiaries.indexOf(b) !== i
      ? [{ field: `beneficiaries.${i}.address`, reason: 'duplicate beneficiary address' }]
      : [],
  );
  if (dupes.length > 0) throw ApiError.validation('Duplicate beneficiary addresses', dupes);
  const contracts = new Set([...tokens, ...nfts.map((n) => n.token)]);
  const clash = beneficiaries.flatMap((b, i) =>
    contracts.has(b)
      ? [{ field: `beneficiaries.${i}.address`, reason: 'is a token contract listed in assets; it could never claim' }]
      : [],
  );
  if (clash.length > 0) throw ApiError.validation('A beneficiary is a listed token contract', clash);
  const guardians = (plan.guardians?.addresses ?? []).map(addr);
  if (plan.guardians) {
    const problems: Array<{ field: string; reason: string }> = [];
    guardians.forEach((g, i) => {
      if (g === owner) problems.push({ field: `guardians.addresses.${i}`, reason: 'the owner cannot be a guardian' });
      if (guardians.indexOf(g) !== i)
        problems.push({ field: `guardians.addresses.${i}`, reason: 'duplicate guardian' });
      if (BigInt(g) === 0n) problems.push({ field: `guardians.addresses.${i}`, reason: 'zero address' });
    });
    if (plan.guardians.threshold > guardians.length)
      problems.push({ field: 'guardians.threshold', reason: `greater than the ${guardians.length} guardian(s)` });
    if (problems.length > 0) throw ApiError.validation('Invalid guardians', problems);
  }
  return {
    owner,
    beneficiaries,
    shares,
    intervalDays: plan.deadMansSwitch?.intervalDays ?? 365,
    graceDays: plan.deadMansSwitch?.gracePeriodDays ?? 0,
    guardians,
    threshold: plan.guardians?.threshold ?? 0,
    ...(plan.guardians
      ? {
          guardianWaitDays: guardianTiming(plan.guardians).waitDays,
          maxVetoes: guardianTiming(plan.guardians).maxVetoes,
        }
      : {}),
    tokens,
    nfts,
  };
}

/** Constructor arguments in ABI order for a shape. */
export function constructorArgs(shape: EvmShape, i: ConstructorInputs): unknown[] {
  const args: unknown[] = [i.owner, i.beneficiaries, i.shares];
  if (shape.deadMansSwitch) args.push(BigInt(i.intervalDays));
  if (shape.gracePeriod) args.push(BigInt(i.graceDays));
  if (shape.guardians) {
    const t = guardianTiming({ waitDays: i.guardianWaitDays, maxVetoes: i.maxVetoes });
    args.push(i.guardians, [BigInt(i.threshold), BigInt(t.waitDays), BigInt(shape.gracePeriod ? t.maxVetoes : 0)]);
  }
  if (shape.erc20) args.push(i.tokens);
  if (shape.erc721)
    args.push(
      i.nfts.map((n) => n.token),
      i.nfts.map((n) => n.tokenId),
      i.nfts.map((n) => n.recipient),
    );
  return args;
}

export interface Compiled {
  abi: Abi;
  bytecode: Hex;
}

export interface Mocks {
  erc20Runtime?: Hex;
  erc20Abi?: Abi;
  erc721Runtime?: Hex;
  erc721Abi?: Abi;
}

export interface ScenarioResult {
  gas: Record<string, number>;
  checks: string[];
  contractAddress: Hex;
}

/**
 * `count` addresses that play no role in the plan and were never touched, for
 * measuring an update the way a real one runs (new addresses, cold slots).
 */
export function freshAddresses(count: number, taken: ReadonlySet<string>): Hex[] {
  const out: Hex[] = [];
  for (let i = 1; out.length < count; i++) {
    const a = getAddress(`0x5eed${i.toString(16).padStart(36, '0')}`) as Hex;
    if (!taken.has(a.toLowerCase())) out.push(a);
  }
  return out;
}

/** The list length the growing update measures: twice the plan's, within the contract's limit. */
export function growCount(n: number): number {
  return Math.min(2 * n, MAX_BENEFICIARIES);
}

/** The list length the shrinking update measures: half the plan's (rounded down), at least one. */
export function shrinkCount(n: number): number {
  return Math.max(1, Math.floor(n / 2));
}

/** `m` shares in basis points, as even as possible, summing to exactly 10000 (the first takes the remainder). */
export function evenShares(m: number): number[] {
  const each = Math.floor(10_000 / m);
  return Array.from({ length: m }, (_, i) => (i === 0 ? 10_000 - each * (m - 1) : each));
}

import { defaultConfigSeqno, loadConfig } from '@ton/sandbox';
import type { Cell } from '@ton/core';
import { CLAIM_WINDOW_SECONDS } from './contract.js';
import { sandboxBlockchain } from './executor.js';
import { TON_MAX_BENEFICIARIES } from './shape.js';
import { standInPlanData, worstCaseData, type TonPlanData, type TonRent } from './data.js';

export { CLAIM_WINDOW_SECONDS };

/**
 * Storage rent of the TON contract. Every account pays, at each transaction,
 * ceil((bits x bit_price + cells x cell_price) x seconds / 65536) nanotons for
 * the time since its last one. The contract keeps a reserve out of the estate
 * that covers this rent from the last check-in through the deadline, the grace
 * period and a claim window, so that an estate nobody touches for years is
 * neither frozen nor eaten by rent (see contract.ts, `reserve()`).
 */

export const DAY = 86_400;
export const YEAR = 365 * DAY;
/** The reserve is this multiple (numerator / denominator) of the rent it must cover. */
export const RENT_MARGIN = { num: 3n, den: 2n } as const;
/** Never less than this, whatever the interval. */
export const MIN_RESERVE = 50_000_000n;

export interface StoragePrices {
  bitPricePs: bigint;
  cellPricePs: bigint;
  /** Where the figures come from. */
  source: string;
}

/**
 * Basechain storage prices of the mainnet configuration @ton/sandbox ships
 * (its `defaultConfig`, the whole config cell of a mainnet masterchain block;
 * parameter 18, the latest entry): 1 nanoton per bit and 500 per cell, per
 * 65536 seconds. No network is asked.
 */
let prices: Promise<StoragePrices> | undefined;
export function basechainStoragePrices(): Promise<StoragePrices> {
  prices ??= (async () => {
    const bc = await sandboxBlockchain('default');
    const p18 = (
      loadConfig(bc.config) as unknown as Record<
        number,
        { anon0: { values(): Iterable<{ utime_since: number; bit_price_ps: bigint; _cell_price_ps: bigint }> } }
      >
    )[18];
    const entries = [...p18!.anon0.values()].sort((a, b) => a.utime_since - b.utime_since);
    const last = entries[entries.length - 1];
    if (!last) throw new Error('the sandbox configuration has no storage prices');
    return {
      bitPricePs: BigInt(last.bit_price_ps),
      cellPricePs: BigInt(last._cell_price_ps),
      source: `@ton/sandbox mainnet configuration (masterchain block ${defaultConfigSeqno}), parameter 18 (basechain storage prices)`,
    };
  })();
  prices.catch(() => {
    prices = undefined;
  });
  return prices;
}

/** Distinct cells and their bits under the given roots (shared cells counted once, as the network does). */
export function cellStats(roots: Cell[]): { cells: number; bits: number } {
  const seen = new Set<string>();
  let cells = 0;
  let bits = 0;
  const walk = (c: Cell) => {
    const h = c.hash().toString('hex');
    if (seen.has(h)) return;
    seen.add(h);
    cells++;
    bits += c.bits.length;
    c.refs.forEach(walk);
  };
  roots.forEach(walk);
  return { cells, bits };
}

/**
 * The account's own cell (address, storage info, balance, state header) adds
 * to code and data; these bounds are above what the sandbox reports for it.
 */
const ACCOUNT_OVERHEAD = { cells: 1, bits: 1023 };

/**
 * Worst-case storage of the contract for this plan: code, the largest data it can hold with `count` beneficiaries
 * (default: those its reserve is reckoned for), and the account cell.
 */
export function worstCaseStorage(
  code: Cell,
  plan: TonPlanData,
  count = plan.rent.count ?? plan.beneficiaries.length,
): StorageSize {
  worstCases++;
  const s = cellStats([code, worstCaseData(plan, count)]);
  return { cells: s.cells + ACCOUNT_OVERHEAD.cells, bits: s.bits + ACCOUNT_OVERHEAD.bits };
}

export interface StorageSize {
  cells: number;
  bits: number;
}

/** Worst cases built in this thread (`worstCaseStorage` calls): for the test of the stand-ins below. */
let worstCases = 0;
export function worstCasesBuilt(): number {
  return worstCases;
}

/**
 * The worst-case sizes of stand-in plans (`standInPlanData`), by structure (the code, the number of guardians and
 * of jettons) and then by count, filled as counts are asked for. Building a worst case and hashing its cells takes
 * 2 to 20 ms, and the reserve needs one for every count from the plan's up to the cap: 150 to 300 ms of every TON
 * generate, once per plan, for figures that depend on the plan's structure alone. The map is bounded by the shapes
 * and their guardian and jetton counts; past MAX_STRUCTURES it starts over.
 */
const standIns = new Map<string, StorageSize[]>();
const MAX_STRUCTURES = 512;

function standInSizes(code: Cell, plan: TonPlanData): (count: number) => StorageSize {
  const key = `${code.hash().toString('hex')}/${plan.guardians?.addresses.length ?? '-'}/${plan.jettons?.length ?? 0}`;
  const sizes = standIns.get(key) ?? [];
  if (!standIns.has(key)) {
    if (standIns.size >= MAX_STRUCTURES) standIns.clear();
    standIns.set(key, sizes);
  }
  let standIn: TonPlanData | undefined;
  return (count) => (sizes[count] ??= worstCaseStorage(code, (standIn ??= standInPlanData(plan)), count));
}

/** Rent in nanotons for `seconds` at `rate` (nanotons per 65536 s), rounded up. */
export function rentFor(rate: bigint, seconds: number): bigint {
  return (rate * BigInt(seconds) + 65535n) / 65536n;
}

/** What the reserve must cover: interval, grace period and the claim window after the release. */
export function coveredSeconds(plan: Pick<TonPlanData, 'intervalSeconds' | 'graceSeconds'>): number {
  return plan.intervalSeconds + plan.graceSeconds + CLAIM_WINDOW_SECONDS;
}

/**
 * The rent reserve for a plan (its rent fields are ignored: they are fixed-width in the data cell): the rate of the
 * largest state reachable with the plan's beneficiaries, and `step`, the largest rise of that rate for one more
 * beneficiary up to the cap, by which the contract raises the rate (and the reserve in proportion, paid by the owner)
 * when an update adds beneficiaries.
 */
export async function rentReserveFor(code: Cell, plan: Omit<TonPlanData, 'rent'>): Promise<TonRent> {
  const p = await basechainStoragePrices();
  const probe: TonPlanData = { ...plan, rent: { reserve: 0n, rate: 0n } };
  const n = plan.beneficiaries.length;
  const own = worstCaseStorage(code, probe, n);
  // Past the plan's own count, the worst case adds distinct stand-in beneficiaries to the plan's values. When the
  // plan's worst case has the size of its stand-in's (no two of its cells identical, which its validation makes
  // so), the counts above it have the stand-in's sizes too: the added cells are the same distinct ones in both. Else
  // each count is built with the plan's own values.
  if (n >= TON_MAX_BENEFICIARIES) return reserveFromSizes(plan, n, p, () => own);
  const standIn = standInSizes(code, probe);
  const its = standIn(n);
  const same = its.cells === own.cells && its.bits === own.bits;
  return reserveFromSizes(plan, n, p, (count) =>
    count === n ? own : same ? standIn(count) : worstCaseStorage(code, probe, count),
  );
}

/** Nanotons of rent per 65536 seconds for a state of `size` at the prices `p`. */
export function storageRate(size: StorageSize, p: StoragePrices): bigint {
  return BigInt(size.bits) * p.bitPricePs + BigInt(size.cells) * p.cellPricePs;
}

/**
 * The reserve, rate and step of a plan of `n` beneficiaries from the worst-case size at each count from `n` up to
 * the cap (`sizeAt`): the rate at `n`, the largest rise of one more beneficiary, and the reserve covering the plan's
 * interval, grace period and claim window with the margin.
 */
export function reserveFromSizes(
  plan: Pick<TonPlanData, 'intervalSeconds' | 'graceSeconds'>,
  n: number,
  p: StoragePrices,
  sizeAt: (count: number) => StorageSize,
): TonRent {
  const rate = storageRate(sizeAt(n), p);
  let step = 0n;
  let previous = rate;
  for (let count = n + 1; count <= TON_MAX_BENEFICIARIES; count++) {
    const next = storageRate(sizeAt(count), p);
    if (next - previous > step) step = next - previous;
    previous = next;
  }
  let reserve = (rentFor(rate, coveredSeconds(plan)) * RENT_MARGIN.num + RENT_MARGIN.den - 1n) / RENT_MARGIN.den;
  if (reserve < MIN_RESERVE) reserve = MIN_RESERVE;
  return { reserve, rate, step, count: n };
}

/** The reserve after an owner update to `count` beneficiaries, mirroring `on_update` in the FunC (what to attach: the difference). */
export function grownRent(rent: TonRent, count: number): TonRent {
  const base = rent.count ?? 0;
  if (count <= base) return rent;
  const rate = rent.rate + BigInt(count - base) * (rent.step ?? 0n);
  const reserve = (rent.reserve * rate) / (rent.rate > 0n ? rent.rate : 1n) + 1n;
  return { reserve, rate, step: rent.step ?? 0n, count };
}

/** The reserve the contract holds back at `now`, mirroring `reserve()` in the FunC. */
export function reserveAt(rent: TonRent, lastCheckIn: number, now: number): bigint {
  const floor = (rent.rate * BigInt(CLAIM_WINDOW_SECONDS)) / 65536n;
  const left = rent.reserve - (rent.rate * BigInt(Math.max(0, now - lastCheckIn))) / 65536n;
  return left > floor ? left : floor;
}

export interface TonRentFigures {
  /** Nanotons of rent per year at the worst-case state size. */
  perYear: bigint;
  /** Rent over the interval plus the grace period. */
  overInterval: bigint;
  /** The reserve held back at each check-in. */
  reserve: bigint;
  /** How long the reserve alone keeps the contract alive, in days. */
  reserveLastsDays: number;
  cells: number;
  bits: number;
  prices: StoragePrices;
}

export async function rentFigures(code: Cell, plan: TonPlanData): Promise<TonRentFigures> {
  const p = await basechainStoragePrices();
  const size = worstCaseStorage(code, plan);
  return {
    perYear: rentFor(plan.rent.rate, YEAR),
    overInterval: rentFor(plan.rent.rate, plan.intervalSeconds + plan.graceSeconds),
    reserve: plan.rent.reserve,
    reserveLastsDays:
      plan.rent.rate === 0n ? Infinity : Number((plan.rent.reserve * 65536n) / plan.rent.rate / BigInt(DAY)),
    cells: size.cells,
    bits: size.bits,
    prices: p,
  };
}

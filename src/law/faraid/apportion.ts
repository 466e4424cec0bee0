import { Fraction } from './fraction.js';

/**
 * Largest-remainder rounding, person by person. Each person gets the floor of
 * share x units; the units left over (fewer than the number of persons, since
 * the shares sum to 1) go one each to the persons with the largest discarded
 * remainder; ties go to the earlier person in the list (heirs in HEIR_KEYS
 * order, then persons of one heir type in their order). The result sums to
 * exactly `units` and no person is ever more than one unit from the exact value.
 */
export function apportion(shares: readonly Fraction[], units: bigint): bigint[] {
  const floors = shares.map((s) => {
    const scaled = s.mul(units);
    return scaled.num / scaled.den; // shares are non-negative: division truncates = floor
  });
  const rems = shares.map((s, i) => s.mul(units).sub(Fraction.of(floors[i]!)));
  let left = units - floors.reduce((a, b) => a + b, 0n);
  const order = shares.map((_, i) => i).sort((a, b) => rems[b]!.cmp(rems[a]!) || a - b);
  for (const i of order) {
    if (left <= 0n) break;
    if (rems[i]!.isZero()) continue;
    floors[i]! += 1n;
    left -= 1n;
  }
  if (left !== 0n) throw new Error(`apportion: shares do not sum to 1 (${left} units left)`);
  return floors;
}

/** Formats an integer amount of 10^-scale units as a decimal string ("1234.50"). */
export function formatUnits(units: bigint, scale: number): string {
  const neg = units < 0n;
  const abs = neg ? -units : units;
  if (scale === 0) return `${neg ? '-' : ''}${abs}`;
  const s = abs.toString().padStart(scale + 1, '0');
  return `${neg ? '-' : ''}${s.slice(0, -scale)}.${s.slice(-scale)}`;
}

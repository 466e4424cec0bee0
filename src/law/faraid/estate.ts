import type { z } from 'zod';
import { ApiError } from '../../core/errors.js';
import { apportion, formatUnits } from './apportion.js';
import { Fraction } from './fraction.js';
import { HEIR_LABELS, type HeirKey } from './heirs.js';
import { DECIMAL_RE, type EstateInputSchema, type FaraidResult } from './schema.js';
import type { EngineResult, Step } from './types.js';

/**
 * The estate in amounts: funeral costs and debts first, then bequests (at
 * most one third, none to an inheriting heir, unless the heirs consent), then
 * the heirs' amounts, all exact in units of 10^-scale.
 */

type EstateInput = z.infer<typeof EstateInputSchema>;

interface Decimal {
  units: bigint;
  scale: number;
}

function parseAmount(v: string | number, field: string): Decimal {
  const text = typeof v === 'number' ? String(v) : v;
  const m = DECIMAL_RE.exec(text);
  if (!m)
    throw ApiError.validation('Invalid amount', [
      { field, reason: 'must be a non-negative decimal with at most 24 integer digits and 18 decimals' },
    ]);
  const [int, frac = ''] = text.split('.') as [string, string?];
  return { units: BigInt(int + frac), scale: frac.length };
}

function toScale(d: Decimal, scale: number): bigint {
  return d.units * 10n ** BigInt(scale - d.scale);
}

interface Bequest {
  units: bigint;
  heir: HeirKey | undefined;
  voidToHeir: boolean;
}

/** Bequests: void to an inheriting heir and cut to one third unless the heirs consent; each paid in proportion. */
function payBequests(
  bequests: Bequest[],
  net: bigint,
  consent: boolean,
  steps: Step[],
  f: (u: bigint) => string,
): { requested: bigint; valid: bigint; allowed: bigint; paid: bigint[] } {
  const oneThird = net / 3n;
  for (const q of bequests)
    if (q.voidToHeir)
      steps.push({
        kind: 'estate',
        detail: `A bequest of ${f(q.units)} to the ${HEIR_LABELS[q.heir!]}, an inheriting heir, is void without the other heirs' consent ("no bequest to an heir").`,
      });
  const requested = bequests.reduce((a, q) => a + q.units, 0n);
  const valid = bequests.reduce((a, q) => a + (q.voidToHeir ? 0n : q.units), 0n);
  const limit = consent ? net : oneThird;
  const allowed = valid > limit ? limit : valid;
  const paid =
    valid === 0n
      ? bequests.map(() => 0n)
      : apportion(
          bequests.map((q) => (q.voidToHeir ? Fraction.ZERO : Fraction.of(q.units, valid))),
          allowed,
        );
  if (valid > 0n)
    steps.push({
      kind: 'estate',
      detail:
        allowed < valid
          ? `Bequests of ${f(valid)} exceed ${consent ? 'the net estate' : `one third of it (${f(oneThird)}) and the heirs have not consented`}; ${f(allowed)} is paid, each bequest reduced in proportion.`
          : `Bequests of ${f(valid)} are paid${valid > oneThird ? " (above one third, with the heirs' consent)" : ' (within one third)'}.`,
    });
  return { requested, valid, allowed, paid };
}

/**
 * Settles the estate and divides what the heirs receive among the persons
 * (shares in the order of `personShares`). Steps are appended to `steps`.
 */
export function settleEstate(
  estate: EstateInput,
  engine: EngineResult,
  personShares: Fraction[],
  steps: Step[],
): { estate: NonNullable<FaraidResult['estate']>; amounts: bigint[]; scale: number } {
  const rawBequests: Array<{ amount: Decimal; heir?: HeirKey }> = Array.isArray(estate.bequests)
    ? estate.bequests.map((q, i) => ({
        amount: parseAmount(q.amount, `estate.bequests.${i}.amount`),
        ...(q.heir ? { heir: q.heir } : {}),
      }))
    : [{ amount: parseAmount(estate.bequests ?? '0', 'estate.bequests') }];
  const raw = {
    total: parseAmount(estate.total, 'estate.total'),
    funeral: parseAmount(estate.funeral ?? '0', 'estate.funeral'),
    debts: parseAmount(estate.debts ?? '0', 'estate.debts'),
  };
  const scale = Math.max(2, ...Object.values(raw).map((d) => d.scale), ...rawBequests.map((q) => q.amount.scale));
  const total = toScale(raw.total, scale);
  const funeral = toScale(raw.funeral, scale);
  const debts = toScale(raw.debts, scale);
  const net = total - funeral - debts;
  if (net < 0n)
    throw ApiError.validation('Funeral costs and debts exceed the estate', [
      { field: 'estate.debts', reason: 'funeral costs and debts exceed the total; nothing is left to divide' },
    ]);
  const f = (u: bigint): string => formatUnits(u, scale);
  steps.push({
    kind: 'estate',
    detail: `Estate ${f(total)}: funeral costs ${f(funeral)} and debts ${f(debts)} are paid first, leaving ${f(net)}.`,
  });
  const oneThird = net / 3n;
  const consent = estate.heirsConsent ?? false;
  const inheriting = new Set(engine.shares.filter((s) => s.share.num > 0n).map((s) => s.heir));
  const bequests: Bequest[] = rawBequests.map((q) => {
    const units = toScale(q.amount, scale);
    const toHeir = q.heir !== undefined && inheriting.has(q.heir);
    return { units, heir: q.heir, voidToHeir: toHeir && !consent && units > 0n };
  });
  const { requested, valid, allowed, paid } = payBequests(bequests, net, consent, steps, f);
  const distributable = net - allowed;
  steps.push({
    kind: 'estate',
    detail: `The heirs divide ${f(distributable)}; amounts are rounded to ${scale} decimals by the same largest-remainder rule as basis points.`,
  });
  const amounts = apportion(personShares, distributable);
  return {
    amounts,
    scale,
    estate: {
      total: f(total),
      funeral: f(funeral),
      debts: f(debts),
      netEstate: f(net),
      oneThird: f(oneThird),
      bequestsRequested: f(requested),
      bequestsAllowed: f(allowed),
      bequestsReduced: allowed < requested,
      bequestsOverOneThird: valid > oneThird,
      bequests: bequests.map((q, i) => ({
        requested: f(q.units),
        paid: f(paid[i]!),
        ...(q.heir ? { heir: q.heir } : {}),
        status: q.voidToHeir
          ? ('void-bequest-to-heir' as const)
          : paid[i]! < q.units
            ? ('reduced' as const)
            : ('paid' as const),
      })),
      heirsConsent: consent,
      distributable: f(distributable),
      scale,
    },
  };
}

import { Fraction } from './fraction.js';
import type { HeirKey } from './heirs.js';
import { baseOf, count, type EngineState, F, L, type Residuary } from './state.js';

/**
 * Settlement of the general case: the fixed shares, then the residue to the
 * residuaries; 'awl when the fixed shares exceed the whole, radd when they
 * fall short and no residuary takes the rest.
 */

const units = (st: EngineState, res: readonly Residuary[]): number =>
  res.reduce((s, r) => s + r.weight * count(st, r.heir), 0);

/** 'Awl: every fixed share reduced in proportion; residuaries take nothing. */
function applyAwl(st: EngineState, fixed: Map<HeirKey, Fraction>, res: readonly Residuary[], total: Fraction): void {
  st.awl = true;
  st.awlBase = total.mul(st.base).num;
  st.steps.push({
    kind: 'awl',
    detail: `'Awl: the fixed shares add up to ${total}, more than the whole; the base is raised from ${st.base} to ${st.awlBase} and every fixed share is reduced in proportion.`,
  });
  for (const [k, f] of fixed) st.result.set(k, f.div(total));
  for (const r of res) if (!st.result.has(r.heir)) st.result.set(r.heir, Fraction.ZERO);
  if (res.length > 0) st.steps.push({ kind: 'residuary', detail: 'Nothing is left for the residuaries.' });
}

/** The residue to the residuaries by weight per head. */
function shareResidue(st: EngineState, res: readonly Residuary[], residue: Fraction): void {
  const u = units(st, res);
  for (const r of res) {
    const part = residue.mul(F(r.weight * count(st, r.heir), u));
    st.result.set(r.heir, (st.result.get(r.heir) ?? Fraction.ZERO).add(part));
  }
  st.steps.push({
    kind: 'residuary',
    detail: residue.isZero()
      ? 'The fixed shares exhaust the estate; the residuaries take nothing.'
      : res.length === 1
        ? `The ${L[res[0]!.heir]}${count(st, res[0]!.heir) > 1 ? `s (${count(st, res[0]!.heir)}, in equal parts) take` : ' takes'} ${residue.eq(Fraction.ONE) ? 'the whole estate' : `the residue, ${residue}`}, as residuary.`
        : `The residue ${residue} goes to the residuaries: ${res.map((r) => `${L[r.heir]} ${r.weight} part${r.weight > 1 ? 's' : ''} per head`).join(', ')}.`,
  });
}

/** A spouse as the only heir: the surplus by radd to the spouse, or to the treasury (per spouseRadd). */
function spouseAlone(st: EngineState, fixed: Map<HeirKey, Fraction>, residue: Fraction): void {
  const k = [...fixed.keys()][0]!;
  const source = st.spouseRaddSource
    ? ` Setting spouseRadd: ${st.spouseRadd} (${st.spouseRaddSource}).`
    : ` Setting spouseRadd: ${st.spouseRadd}.`;
  if (st.spouseRadd) {
    st.result.set(k, Fraction.ONE);
    st.steps.push({
      kind: 'radd',
      detail: `Radd: the ${L[k]} is the only heir, so the surplus ${residue} returns to the ${L[k]} (the later Hanafi position and modern practice, in the absence of any other heir).${source}`,
    });
    return;
  }
  st.radd = false;
  st.treasury = residue;
  st.steps.push({
    kind: 'radd',
    detail: `No radd to a spouse: the ${L[k]} is the only heir and keeps the fixed share ${fixed.get(k)}; the surplus ${residue} goes to the public treasury (bayt al-mal), the classical position of the four schools.${source}`,
  });
}

/** Radd: the surplus returns to the sharers other than a spouse, in proportion. */
function applyRadd(
  st: EngineState,
  fixed: Map<HeirKey, Fraction>,
  residue: Fraction,
  spouse: HeirKey | undefined,
): void {
  st.radd = true;
  const others = [...fixed.keys()].filter((k) => k !== 'husband' && k !== 'wife');
  if (others.length === 0) {
    spouseAlone(st, fixed, residue);
    return;
  }
  const spouseShare = spouse ? (fixed.get(spouse) ?? Fraction.ZERO) : Fraction.ZERO;
  const pool = Fraction.ONE.sub(spouseShare);
  const otherTotal = Fraction.sum(others.map((k) => fixed.get(k)!));
  for (const k of others) st.result.set(k, pool.mul(fixed.get(k)!.div(otherTotal)));
  st.steps.push({
    kind: 'radd',
    detail: `Radd: no residuary; the surplus ${residue} returns to ${others.map((k) => `the ${L[k]}`).join(', ')} in proportion to their shares${spouse ? `, not to the ${L[spouse]}` : ''}.`,
  });
}

/** Settles the case from the given fixed shares and residuaries. */
export function settle(
  st: EngineState,
  fixed: Map<HeirKey, Fraction>,
  res: readonly Residuary[],
  spouse: HeirKey | undefined,
): void {
  const total = Fraction.sum(fixed.values());
  st.base = baseOf(fixed.values());
  if (fixed.size === 0 && res.length > 0) st.base = BigInt(units(st, res));
  st.steps.push({ kind: 'base', detail: `Base of the problem (asl al-mas'ala): ${st.base}.` });
  if (total.gt(Fraction.ONE)) {
    applyAwl(st, fixed, res, total);
    return;
  }
  for (const [k, f] of fixed) st.result.set(k, f);
  const residue = Fraction.ONE.sub(total);
  if (res.length > 0) shareResidue(st, res, residue);
  else if (!residue.isZero()) applyRadd(st, fixed, residue, spouse);
}

import { Fraction } from './fraction.js';
import type { HeirKey } from './heirs.js';
import { count, type EngineState, isActive, L } from './state.js';

/** The Ja'fari division's groups of kin and how a portion is split among them (see jafari.ts). */

/**
 * A member of a group that shares one portion: its weight per head (2 male, 1
 * female, or 1 each when equal), or `line`: the weight of the whole group when
 * it stands in for one relative (the children of one brother).
 */
export interface Member {
  heir: HeirKey;
  weight: number;
  line?: boolean;
}

export const units = (st: EngineState, m: Member): number => (m.line ? m.weight : m.weight * count(st, m.heir));

export function exclude(st: EngineState, heir: HeirKey, by: HeirKey, reason: string): void {
  if (count(st, heir) === 0 || st.excluded.has(heir)) return;
  st.excluded.set(heir, { heir, by, reason });
  st.steps.push({ kind: 'exclusion', detail: `The ${L[heir]} ${reason}` });
}

/** Splits a portion among members by weight per head and adds it to their result. */
export function give(st: EngineState, portion: Fraction, members: Member[]): void {
  const live = members.filter((m) => isActive(st, m.heir));
  const total = live.reduce((a, m) => a + units(st, m), 0);
  for (const m of live) {
    const part = portion.mul(units(st, m)).div(total);
    st.result.set(m.heir, (st.result.get(m.heir) ?? Fraction.ZERO).add(part));
  }
}

export const active = (st: EngineState, ks: HeirKey[]): HeirKey[] => ks.filter((k) => isActive(st, k));

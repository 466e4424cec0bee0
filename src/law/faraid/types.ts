import type { Fraction } from './fraction.js';
import type { HeirKey } from './heirs.js';

/** The types the fara'id engine takes and returns; see engine.ts for the calculation itself. */

export type StepKind =
  | 'madhhab'
  | 'exclusion'
  | 'fixed-share'
  | 'residuary'
  | 'special-case'
  | 'base'
  | 'awl'
  | 'radd'
  | 'correction'
  | 'statute'
  | 'estate'
  | 'rounding';

export interface Step {
  kind: StepKind;
  detail: string;
}

export interface Exclusion {
  heir: HeirKey;
  by: HeirKey;
  reason: string;
}

/** Options of the calculation beyond the school. */
export interface EngineOptions {
  /**
   * A husband or wife who is the only heir: true (default) gives the spouse the
   * surplus by radd, so the whole estate (later Hanafi fatwa, Egyptian Law 77
   * of 1943 art. 30); false keeps the spouse to the fixed share (1/2 or 1/4)
   * and gives the rest to the public treasury, bayt al-mal (the classical
   * position of the four schools).
   */
  spouseRadd?: boolean;
  /** Where the setting came from, for the step that states it. */
  spouseRaddSource?: string;
  /**
   * A statute that gives a daughter or a son's daughter the remainder by radd
   * before the collateral agnates (Tunisia, Code of Personal Status art. 143
   * bis): its citation. Brothers, sisters, their sons, paternal uncles and
   * their sons are then excluded by the daughters; the father and grandfather
   * keep their classical place.
   */
  daughtersRadd?: string;
  /**
   * A statute that lets the grandfather share with full or paternal half-siblings after 'Ali (Egypt, Law No. 77 of
   * 1943 art. 22; Syria, Personal Status Law art. 279): its citation. He neither excludes them nor is excluded by them;
   * he shares as a brother with the residuary siblings, or takes the residue beside sisters with fixed shares, never
   * less than one sixth. It replaces both the Hanafi exclusion and Zayd's choice of the best of three.
   */
  grandfatherSharing?: string;
  /**
   * A statute that makes the full siblings share the maternal half-siblings' third in the mushtaraka (Egypt, Law No. 77
   * of 1943 art. 10; Syria, Personal Status Law art. 267(2)): its citation.
   */
  mushtarakaSharing?: string;
}

export interface EngineResult {
  /** Share of each inheriting heir type (the whole group), in HEIR_KEYS order; with `treasury`, sums to exactly 1. */
  shares: Array<{ heir: HeirKey; count: number; share: Fraction }>;
  /** What goes to the public treasury (bayt al-mal): only with a spouse as the only heir and spouseRadd false. */
  treasury?: Fraction;
  /** The spouse-radd setting in force (whether or not the case arose). */
  spouseRadd: boolean;
  excluded: Exclusion[];
  steps: Step[];
  specialCases: string[];
  /** Base of the problem (asl al-mas'ala) before 'awl. */
  base: bigint;
  /** Base after 'awl, when 'awl applied. */
  awlBase?: bigint;
  /** Smallest common denominator of every person's share (tashih). */
  correctedBase: bigint;
  awl: boolean;
  radd: boolean;
}

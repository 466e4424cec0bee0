import type { Madhhab } from './heirs.js';

/**
 * The points on which the four Sunni schools part ways, as the engine reads
 * them. The engine never tests the school's name for a rule: it asks these
 * flags, so a school is a set of rules passed in (see schoolRules).
 */
export interface SchoolRules {
  /** The school's name, for the steps that cite it. */
  madhhab: Madhhab;
  /** Display name of the school in step texts ("Hanafi", "Shafi'i", ...). */
  label: string;
  /** The father excludes his own mother (all but the Hanbali school). */
  fatherExcludesPaternalGrandmother: boolean;
  /**
   * The grandfather stands in the father's place and excludes brothers and
   * sisters (Abu Hanifa); otherwise he shares with them (Zayd ibn Thabit).
   */
  grandfatherExcludesSiblings: boolean;
  /**
   * In the mushtaraka case the full siblings share the maternal half-siblings'
   * third (Maliki and Shafi'i, after 'Umar); otherwise they take nothing.
   */
  mushtarakaSharing: boolean;
  /**
   * Heirs inherit by classes of kin (nearer class excludes the further, no
   * ta'sib, no 'awl): the Ja'fari path in jafari.ts replaces the Sunni phases.
   */
  byClasses: boolean;
}

const LABELS: Record<Madhhab, string> = {
  hanafi: 'Hanafi',
  maliki: 'Maliki',
  shafii: "Shafi'i",
  hanbali: 'Hanbali',
  jafari: "Ja'fari",
};

/** The rules of one of the four Sunni schools, or the Ja'fari school (byClasses). */
export function schoolRules(madhhab: Madhhab): SchoolRules {
  return {
    madhhab,
    label: LABELS[madhhab],
    fatherExcludesPaternalGrandmother: madhhab !== 'hanbali',
    grandfatherExcludesSiblings: madhhab === 'hanafi',
    mushtarakaSharing: madhhab === 'maliki' || madhhab === 'shafii',
    byClasses: madhhab === 'jafari',
  };
}

import type { Finding, PlanBeneficiary, Source } from '../findings.js';
import type { HeirKey, Madhhab } from '../faraid/index.js';
import type { RelationshipClass } from './relationships.js';

/** Sources, options and the shared state of the Islamic plan checks (see ../islamic.ts). */

export const ISLAMIC_SOURCES = {
  shares: {
    title:
      "Qur'an 4:11-12 and 4:176 (the shares); Al-Sirajiyyah (Sirajuddin al-Sajawandi), chapters on the sharers and residuaries",
    url: 'https://quran.com/4/11-12',
  },
  exclusion: {
    title: "Al-Sirajiyyah, chapter on exclusion (hajb); Ibn Qudama, al-Mughni, Kitab al-Fara'id",
    url: 'https://quran.com/4/11-12',
  },
  oneThird: {
    title:
      'Hadith of Sa\'d ibn Abi Waqqas: "One third, and one third is a lot" (Sahih al-Bukhari 2742; Sahih Muslim 1628)',
    url: 'https://sunnah.com/bukhari:2742',
  },
  noBequestToHeir: {
    title: 'Hadith: "There is no bequest to an heir" (Sunan Abi Dawud 2870; Jami\' at-Tirmidhi 2120)',
    url: 'https://sunnah.com/abudawud:2870',
  },
  vocabulary: { title: "The relationships that name an heir of fara'id" },
  treasury: {
    title:
      "Radd to a spouse: Al-Sirajiyyah, chapter on radd (no return to a spouse; the surplus to the public treasury) and the later Hanafi fatwa (Ibn 'Abidin, Radd al-Muhtar) allowing it; Egyptian Law No. 77 of 1943 on inheritance, art. 30",
  },
} satisfies Record<string, Source>;

export interface IslamicCheckOptions {
  madhhab?: Madhhab;
  /** The heirs have consented to bequests above one third or to an heir: those findings become info. */
  heirsConsent?: boolean;
  /**
   * Surviving relatives who are not beneficiaries of the plan (typically heirs
   * excluded by nearer ones, such as brothers beside a father). They count:
   * two brothers reduce the mother to one sixth even when the father excludes
   * them. An unlisted heir who would take a share is an error in a mirath plan.
   */
  otherHeirs?: Partial<Record<HeirKey, number>>;
  /** A husband or wife as the only heir: radd to the spouse (true, default) or the surplus to the public treasury (false). */
  spouseRadd?: boolean;
  /** Where that setting came from (request, jurisdiction, default), for the finding that states it. */
  spouseRaddSource?: string;
  /** Citation of a daughters' radd statute in force in the jurisdiction (Tunisia, art. 143 bis). */
  daughtersRadd?: string;
  /** Citation of a statute on the grandfather with siblings in force in the jurisdiction (Egypt art. 22, Syria art. 279). */
  grandfatherSharing?: string;
  /** Citation of a statute on the mushtaraka in force in the jurisdiction (Egypt art. 10, Syria art. 267(2)). */
  mushtarakaSharing?: string;
}

export interface IslamicCheckResult {
  findings: Finding[];
  /** Expected percentage (two decimals) of each beneficiary whose share fara'id decides. */
  expected: Array<{ beneficiaryIndex: number; heir?: HeirKey; expectedPercentage: string }>;
}

export const pct = (bp: number): string => `${Math.floor(bp / 100)}.${String(bp % 100).padStart(2, '0')}`;
export const toBp = (percentage: number): number => Math.round(percentage * 100);

/** The state one plan check shares between its rules; each rule adds findings and expected percentages. */
export interface PlanCheck {
  beneficiaries: PlanBeneficiary[];
  opts: IslamicCheckOptions;
  madhhab: Madhhab;
  /** The heirs consent to bequests above one third or to an heir. */
  consent: boolean;
  /** islamic-mirth (heirs only) rather than islamic-wasiyyah. */
  mirth: boolean;
  /** How each beneficiary's relationship reads, by index. */
  classes: RelationshipClass[];
  /** Beneficiary indexes of each heir type, in plan order. */
  heirIdx: Map<HeirKey, number[]>;
  findings: Finding[];
  expected: IslamicCheckResult['expected'];
}

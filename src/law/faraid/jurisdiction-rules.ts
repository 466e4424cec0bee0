import { thePlace } from '../../core/messages/place-en.js';
import { ApiError } from '../../core/errors.js';
import type { Jurisdiction, SchoolId } from '../jurisdiction-schema.js';
import { defaultJurisdictions, type JurisdictionIndex } from '../jurisdictions.js';
import { DEFAULT_MADHHAB, MADHHABS, type Madhhab } from './heirs.js';

/**
 * Which school and which national statutes a calculation follows. A
 * jurisdiction records its school (islamicLaw.school) and its statutory
 * departures from the classical rules (obligatory bequest, daughters' radd);
 * an explicit madhhab from the caller wins over the school, and without either
 * the long-standing default (Hanafi) applies. Each choice carries its source,
 * so the answer can say which law it applied and why.
 */

export type SchoolChoice = 'jurisdiction' | 'caller' | 'default';

export interface SchoolSelection {
  /** The school to apply; 'jafari' where the jurisdiction records it, even if this engine cannot compute it. */
  madhhab: SchoolId;
  chosenBy: SchoolChoice;
  /** Where the choice comes from, for people. */
  source: string;
  /** The jurisdiction's own school, when a caller's madhhab overrides a different one. */
  jurisdictionMadhhab?: SchoolId | null;
  /** A note when the caller's school differs from the jurisdiction's practice. */
  note?: string;
}

const LABEL: Record<SchoolId, string> = {
  hanafi: 'Hanafi',
  maliki: 'Maliki',
  shafii: "Shafi'i",
  hanbali: 'Hanbali',
  jafari: "Ja'fari",
};

/** The school of a calculation: the caller's madhhab, else the jurisdiction's recorded school, else the default. */
export function selectSchool(requested: Madhhab | undefined, j: Jurisdiction | undefined): SchoolSelection {
  const recorded = j?.islamicLaw.school;
  if (requested !== undefined) {
    const sel: SchoolSelection = { madhhab: requested, chosenBy: 'caller', source: 'madhhab set by the request' };
    if (j && recorded && recorded.madhhab !== requested) {
      sel.jurisdictionMadhhab = recorded.madhhab;
      sel.note = recorded.madhhab
        ? `${thePlace(j.name, true)} follows the ${LABEL[recorded.madhhab]} school (${recorded.source.title}); the ${LABEL[requested]} school applied here was chosen by the request and may differ from what a court there would apply.`
        : `${thePlace(j.name, true)} applies its own code (${recorded.source.title}); the ${LABEL[requested]} school applied here was chosen by the request.`;
    }
    return sel;
  }
  if (j && recorded?.madhhab)
    return {
      madhhab: recorded.madhhab,
      chosenBy: 'jurisdiction',
      source: `${thePlace(j.name, true)}: ${recorded.basis} (${recorded.source.title})`,
    };
  if (j && recorded)
    return {
      madhhab: 'shafii',
      chosenBy: 'jurisdiction',
      source: `${thePlace(j.name, true)} applies its own code (${recorded.source.title}); where it follows the classical rules they are computed by the Shafi'i school, its main source. ${recorded.basis}`,
    };
  return {
    madhhab: DEFAULT_MADHHAB,
    chosenBy: 'default',
    source: j
      ? `the default; no school is recorded for ${thePlace(j.name)}`
      : 'the default, the school of Al-Sirajiyyah; pass jurisdiction or madhhab to choose another',
  };
}

/**
 * How the school came to be applied, for a sentence after its name ("Hanafi, the default, ..."): each choice worded
 * once (the selection's `source` already says "the default" or "set by the request" in its own words), without a
 * full stop of its own (a recorded basis may end with one): the sentence puts its own.
 */
export function schoolChoice(sel: SchoolSelection): string {
  switch (sel.chosenBy) {
    case 'caller':
      return 'set by the request';
    case 'jurisdiction':
      return `chosen by the jurisdiction: ${sel.source.replace(/\.$/, '')}`;
    default:
      return sel.source.replace(/\.$/, '');
  }
}

/** Whether this engine computes the school (the four Sunni schools, plus any added to MADHHABS). */
export function isComputable(school: SchoolId): school is Madhhab {
  return (MADHHABS as readonly string[]).includes(school);
}

/** The selected school as one the engine computes, or a clear 400 naming the school and why it was selected. */
export function computableSchool(sel: SchoolSelection, field: string): Madhhab {
  if (isComputable(sel.madhhab)) return sel.madhhab;
  throw ApiError.validation(`The ${LABEL[sel.madhhab]} school is not computed by this calculator yet`, [
    {
      field,
      reason: `the ${LABEL[sel.madhhab]} school applies (${sel.source}); pass madhhab to compute a Sunni school instead`,
    },
  ]);
}

/** The jurisdiction named by the request, resolved (404 when unknown), or undefined. */
export function resolveJurisdiction(id: string | undefined, index?: JurisdictionIndex): Jurisdiction | undefined {
  if (id === undefined) return undefined;
  return (index ?? defaultJurisdictions()).resolve(id, 'jurisdiction');
}

export const schoolLabel = (s: SchoolId): string => LABEL[s];

import { ApiError } from '../../core/errors.js';
import { ARHAM_KEYS, HEIR_KEYS, type HeirKey } from './heirs.js';
import { count, type EngineState, isActive, L } from './state.js';

/**
 * Distant kindred (dhawu al-arham) in the four Sunni schools: relatives who
 * are neither sharers nor residuaries, such as a daughter's children, the
 * maternal grandfather, aunts and maternal uncles. They inherit only when no
 * sharer (other than a spouse) and no residuary is alive: the Hanafi and
 * Hanbali schools then give them the estate, after any spouse's share, by
 * rules of their own (degree, line, tanzil) that this engine does not
 * compute; the early Maliki and Shafi'i doctrine gave it to the public
 * treasury instead. So:
 * - beside any sharer or residuary (a spouse aside) they take nothing, and
 *   the result lists them as excluded;
 * - otherwise the calculation is refused with a clear error, never a guessed
 *   share and never a spouse taking by radd what the kindred would take.
 * The Ja'fari school counts these relatives as heirs of its classes
 * (jafari.ts) and does not come here.
 */

const ARHAM = new Set<HeirKey>(ARHAM_KEYS);
const SPOUSES = new Set<HeirKey>(['husband', 'wife']);

/** Excludes the distant kindred present beside a sharer or residuary, or refuses when they would inherit. */
export function excludeArham(st: EngineState): void {
  const present = ARHAM_KEYS.filter((k) => count(st, k) > 0);
  if (present.length === 0) return;
  const heir = HEIR_KEYS.find((k) => !ARHAM.has(k) && !SPOUSES.has(k) && isActive(st, k));
  if (!heir) {
    const label = st.school.label;
    throw ApiError.validation(`Distant kindred inherit here; the ${label} shares of distant kindred are not computed`, [
      {
        field: `heirs.${present[0]}`,
        reason: `with no sharer or residuary besides a spouse, distant kindred (${present.map((k) => L[k]).join(', ')}) inherit distant kindred (dhawu al-arham) under the ${label} school, by rules this calculator does not compute; pass madhhab "jafari" only if the deceased was a Twelver Shia Muslim`,
      },
    ]);
  }
  for (const k of present) {
    st.excluded.set(k, {
      heir: k,
      by: heir,
      reason:
        'distant kindred (dhawu al-arham) inherit only when no sharer or residuary other than a spouse survives (the four Sunni schools).',
    });
    st.steps.push({
      kind: 'exclusion',
      detail: `The ${L[k]} is excluded by the ${L[heir]}: distant kindred (dhawu al-arham) inherit only when no sharer or residuary other than a spouse survives.`,
    });
  }
}

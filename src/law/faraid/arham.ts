import { ARHAM_KEYS, HEIR_KEYS, type HeirKey } from './heirs.js';
import { count, type EngineState, isActive, L } from './state.js';

/**
 * Distant kindred (dhawu al-arham) in the four Sunni schools: relatives who
 * are neither sharers nor residuaries, such as a daughter's children, the
 * maternal grandfather, aunts and maternal uncles. They inherit only when no
 * sharer (other than a spouse) and no residuary is alive:
 * - beside any sharer or residuary (a spouse aside) they take nothing, and
 *   the result lists them as excluded;
 * - otherwise their shares are computed by the school's method
 *   (arham-shares.ts), or refused with a clear error where the input cannot
 *   decide them; never a spouse taking by radd what the kindred would take.
 * The Ja'fari school counts these relatives as heirs of its classes
 * (jafari.ts) and does not come here.
 */

const ARHAM = new Set<HeirKey>(ARHAM_KEYS);
const SPOUSES = new Set<HeirKey>(['husband', 'wife']);

/**
 * Excludes the distant kindred present beside a sharer or residuary. Returns
 * true when they inherit instead (no such heir survives), for the caller to
 * divide the estate by distributeArham.
 */
export function excludeArham(st: EngineState): boolean {
  const present = ARHAM_KEYS.filter((k) => count(st, k) > 0);
  if (present.length === 0) return false;
  const heir = HEIR_KEYS.find((k) => !ARHAM.has(k) && !SPOUSES.has(k) && isActive(st, k));
  if (!heir) return true;
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
  return false;
}

/**
 * Several true grandmothers (al-jaddat al-sahihat), each named by her line from the deceased: the ancestors between,
 * read from the deceased upwards, `f` for a father and `m` for a mother, ending with the grandmother herself. "fm" is
 * the father's mother, "mm" the mother's mother, "ffm" the father's father's mother, "fmm" the father's mother's
 * mother. A true grandmother has no male between two females in her line (no mother's father), so a line is some
 * `f`s then `m`s: /^f*m+$/. Her degree is the length of her line (2 for a grandmother, 3 for a great-grandmother).
 *
 * The input's `paternalGrandmother` and `maternalGrandmother` (0 or 1) are the lines "fm" and "mm". With `grandmothers`
 * the caller lists any number of lines instead; this module decides which of them inherit, then hands the engine the
 * counts on each side (the father's side: lines starting with `f`; the mother's: all `m`), who share one sixth per head
 * (furud.ts). The mother and the father exclude as for one grandmother (hajb.ts).
 *
 * Rules, with their sources:
 * - Which lines can inherit. Hanafi and Shafi'i: every true grandmother (al-Sirajiyyah, chapter on the grandmothers;
 *   al-Nawawi, Minhaj al-Talibin, Kitab al-Fara'id). Hanbali: three lines only, the mother's mothers, the father's
 *   mothers and the grandfather's mothers (/^f{0,2}m+$/; Ibn Qudama, al-Mughni, Kitab al-Fara'id, on the number of
 *   grandmothers who inherit). Maliki: two only, the mother's mothers and the father's mothers (/^f?m+$/; Ibn Rushd,
 *   Bidayat al-Mujtahid, Kitab al-Fara'id).
 * - The nearer excludes the farther. Hanafi and Hanbali: a nearer grandmother of either side excludes a farther one of
 *   either side, whether the nearer inherits or is herself excluded (al-Sirajiyyah: "the nearer, of whichever side,
 *   excludes the farther, of whichever side, heir or excluded"). Maliki and Shafi'i: a nearer one on the mother's side
 *   excludes a farther one on the father's side, and on one side the nearer excludes the farther, but a nearer one on
 *   the father's side does not exclude a farther one on the mother's side: they share (Ibn Rushd, ibid.; al-Nawawi,
 *   ibid.).
 * - The paternal grandfather excludes the grandmothers who are related through him (lines starting `ff`), except in the
 *   Hanbali school, where a grandmother inherits beside her son (al-Sirajiyyah; Ibn Qudama, ibid.).
 * - Those of equal degree who remain share the sixth equally, per head (all schools).
 *
 * The Ja'fari school counts grandparents in the second class with their own division by side; svc computes it for the
 * grandmothers of the first degree only, and refuses farther lines under it with a 400.
 */
import { ApiError, type ErrorDetail } from '../../core/errors.js';
import type { HeirCounts, Madhhab } from './heirs.js';
import type { Step } from './types.js';

export const GRANDMOTHER_LINE = /^f*m+$/;
/** Longest line accepted: a grandmother of the tenth degree. */
export const MAX_GRANDMOTHER_DEGREE = 10;

/** The schools that let only some lines of grandmothers inherit (the others: every true grandmother). */
const LINE_LIMITS: Record<'hanbali' | 'maliki', { lines: RegExp; rule: string }> = {
  hanbali: {
    lines: /^f{0,2}m+$/,
    rule: "the Hanbali school lets only three lines of grandmothers inherit, the mother's mothers, the father's mothers and the grandfather's mothers",
  },
  maliki: {
    lines: /^f?m+$/,
    rule: "the Maliki school lets only two lines of grandmothers inherit, the mother's mothers and the father's mothers",
  },
};

/** A line in words: "fmm" is "the father's mother's mother". */
export function lineInWords(line: string): string {
  const words = [...line].map((c) => (c === 'f' ? 'father' : 'mother'));
  return `the ${words
    .slice(0, -1)
    .map((w) => `${w}'s `)
    .join('')}${words.at(-1)} (${line})`;
}

const paternal = (line: string) => line.startsWith('f');

/** The 400 for a bad `grandmothers` list: duplicates, a line beside the count fields, or Ja'fari farther degrees. */
export function checkGrandmothers(lines: readonly string[], heirs: HeirCounts, madhhab: Madhhab): void {
  const details: ErrorDetail[] = [];
  lines.forEach((line, i) => {
    if (lines.indexOf(line) !== i)
      details.push({
        field: `grandmothers.${i}`,
        reason: `${lineInWords(line)} is listed twice; each line is one person`,
      });
  });
  for (const k of ['paternalGrandmother', 'maternalGrandmother'] as const)
    if ((heirs[k] ?? 0) > 0)
      details.push({
        field: `heirs.${k}`,
        reason: `give the grandmothers either as heirs.paternalGrandmother/maternalGrandmother or as the grandmothers list ("fm", "mm", ...), not both`,
      });
  if (madhhab === 'jafari')
    lines.forEach((line, i) => {
      if (line.length > 2)
        details.push({
          field: `grandmothers.${i}`,
          reason:
            "the Ja'fari second class is computed with the grandparents of the first degree only (the father's and the mother's parents); svc does not compute farther grandmothers under it",
        });
    });
  if (details.length > 0) throw ApiError.validation('Invalid grandmothers', details);
}

/**
 * Which listed grandmothers inherit under `madhhab`, as the counts on each side the engine takes, and a step for each
 * one who does not. The mother's and the father's exclusions are left to the engine (they apply to a side as a whole).
 */
export function resolveGrandmothers(
  lines: readonly string[],
  heirs: HeirCounts,
  madhhab: Madhhab,
): { heirs: HeirCounts; steps: Step[] } {
  const steps: Step[] = [];
  let kept = [...lines];
  /** Applies one rule: each line it gives a reason for takes nothing (a step says why); the rest are kept. */
  const drop = (why: (line: string) => string | undefined) => {
    kept = kept.filter((line) => {
      const reason = why(line);
      if (reason)
        steps.push({ kind: 'exclusion', detail: `Grandmother ${lineInWords(line)} takes nothing: ${reason}.` });
      return !reason;
    });
  };
  if (madhhab === 'hanbali' || madhhab === 'maliki') {
    const { lines: heirLines, rule } = LINE_LIMITS[madhhab];
    drop((l) => (heirLines.test(l) ? undefined : rule));
  }
  // The nearer excludes the farther (before the grandfather's exclusion: an excluded nearer one still excludes).
  const nearest = (ls: string[]) => Math.min(Infinity, ...ls.map((l) => l.length));
  if (madhhab === 'maliki' || madhhab === 'shafii') {
    const m = nearest(kept.filter((l) => !paternal(l)));
    const f = nearest(kept.filter(paternal));
    drop((l) => {
      if (l.length > (paternal(l) ? f : m)) return 'a nearer grandmother on the same side excludes her';
      if (paternal(l) && l.length > m)
        return "a nearer grandmother on the mother's side excludes a farther one on the father's side";
      return undefined;
    });
  } else {
    const d = nearest(kept);
    drop((l) =>
      l.length > d ? 'a nearer grandmother, of either side, excludes a farther one of either side' : undefined,
    );
  }
  if ((heirs.paternalGrandfather ?? 0) > 0 && (heirs.father ?? 0) === 0 && madhhab !== 'hanbali')
    drop((l) =>
      l.startsWith('ff') ? 'the paternal grandfather excludes the grandmothers related through him' : undefined,
    );
  const paternalCount = kept.filter(paternal).length;
  const maternalCount = kept.length - paternalCount;
  if (kept.length > 1)
    steps.push({
      kind: 'exclusion',
      detail: `Grandmothers who remain, of equal degree or sharing by their school's rule: ${kept.map(lineInWords).join(', ')}.`,
    });
  return {
    heirs: { ...heirs, paternalGrandmother: paternalCount, maternalGrandmother: maternalCount },
    steps,
  };
}

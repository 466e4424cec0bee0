/**
 * The guardian rules every chain's contract follows: guardians confirm an owner's absence, they never overrule a
 * living owner. A quorum's early release takes effect only after GUARDIAN_WAIT_DAYS in which the owner shows no sign
 * of life (any owner action cancels it); a quorum's vetoes postpone a release at most MAX_VETOES times after the
 * owner's last sign of life, then the release proceeds.
 */

/** Days the owner has to answer the guardians' confirmed early release with any sign of life, when the plan does not say. */
export const GUARDIAN_WAIT_DAYS = 30;
/** Times the guardians may postpone a release by veto after the owner's last sign of life, when the plan does not say. */
export const MAX_VETOES = 2;
/**
 * Bounds of the plan's guardian wait: at least a week, so that an owner away for a few days can still answer a
 * wrong proposal; at most a year, so that guardians can still release an estate whose owner is gone.
 */
export const GUARDIAN_WAIT_DAYS_MIN = 7;
export const GUARDIAN_WAIT_DAYS_MAX = 365;
/** Bound of the plan's veto count: each veto restarts the clock, so more would let guardians delay heirs for years. */
export const MAX_VETOES_LIMIT = 10;

/** The guardian wait and veto bound of a plan. */
export interface GuardianTiming {
  waitDays: number;
  maxVetoes: number;
}

/** The plan's guardian wait and veto bound, with the defaults where the plan does not say. */
export function guardianTiming(g?: { waitDays?: number | undefined; maxVetoes?: number | undefined }): GuardianTiming {
  return { waitDays: g?.waitDays ?? GUARDIAN_WAIT_DAYS, maxVetoes: g?.maxVetoes ?? MAX_VETOES };
}

/** What a guardian threshold means, in words, for any m of n (shared by the analyses of the three chains). */
export function guardianRulesText(
  guardians: number,
  threshold: number,
  veto: boolean,
  timing: GuardianTiming = guardianTiming(),
): string {
  const one = guardians === 1;
  const blockers = guardians - threshold + 1;
  const proposers = one ? 'The one guardian' : `${threshold} of ${guardians} guardians`;
  const blocking = one
    ? "Without the guardian's confirmation there is no early release; "
    : blockers > 1
      ? `${blockers} guardians refusing to confirm prevent an early release; `
      : 'One guardian refusing to confirm prevents an early release; ';
  const vetoers = one ? 'the guardian' : threshold === 1 ? 'any one guardian' : `${threshold} guardians`;
  const times = timing.maxVetoes === 1 ? 'once' : `at most ${timing.maxVetoes} times`;
  return (
    `${proposers} can propose an early release; it takes effect only after ${timing.waitDays} days in which the owner ` +
    'shows no sign of life (a check-in or any other owner action cancels it), so guardians cannot overrule a living owner. ' +
    blocking +
    (!veto
      ? 'there is no veto (no grace period).'
      : timing.maxVetoes === 0
        ? 'the plan allows no veto (maxVetoes 0): a trigger of the switch cannot be postponed by the guardians.'
        : `${vetoers} can veto a trigger during the grace period, ${times} after the owner's last sign of life; then the release proceeds.`) +
    (timing.waitDays !== GUARDIAN_WAIT_DAYS || timing.maxVetoes !== MAX_VETOES
      ? ` (The plan sets ${timing.waitDays !== GUARDIAN_WAIT_DAYS ? `the wait to ${timing.waitDays} days instead of ${GUARDIAN_WAIT_DAYS}` : ''}${timing.waitDays !== GUARDIAN_WAIT_DAYS && timing.maxVetoes !== MAX_VETOES ? ' and ' : ''}${timing.maxVetoes !== MAX_VETOES ? `the veto bound to ${timing.maxVetoes} instead of ${MAX_VETOES}` : ''}.)`
      : '')
  );
}

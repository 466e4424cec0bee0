/**
 * The guardian rules every chain's contract follows: guardians confirm an owner's absence, they never overrule a
 * living owner. A quorum's early release takes effect only after GUARDIAN_WAIT_DAYS in which the owner shows no sign
 * of life (any owner action cancels it); a quorum's vetoes postpone a release at most MAX_VETOES times after the
 * owner's last sign of life, then the release proceeds.
 */

/** Days the owner has to answer the guardians' confirmed early release with any sign of life before it takes effect. */
export const GUARDIAN_WAIT_DAYS = 30;
/** Times the guardians may postpone a release by veto after the owner's last sign of life. */
export const MAX_VETOES = 2;

/** What a guardian threshold means, in words, for any m of n (shared by the analyses of the three chains). */
export function guardianRulesText(guardians: number, threshold: number, veto: boolean): string {
  const blockers = guardians - threshold + 1;
  return (
    `${threshold} of ${guardians} guardians can propose an early release; it takes effect only after ${GUARDIAN_WAIT_DAYS} days in which the owner ` +
    'shows no sign of life (a check-in or any other owner action cancels it), so guardians cannot overrule a living owner. ' +
    (blockers > 1
      ? `${blockers} guardians refusing to confirm prevent an early release; `
      : 'One guardian refusing to confirm prevents an early release; ') +
    (veto
      ? `${threshold} guardians can veto a trigger during the grace period, at most ${MAX_VETOES} times after the owner's last sign of life; then the release proceeds.`
      : 'there is no veto (no grace period).')
  );
}

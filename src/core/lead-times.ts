/**
 * When a reminder before a deadline is due, for the two that send them: the memoir's check-in reminders
 * (src/memoir/reminders.ts, in milliseconds) and the chain watcher's `deadman.warning` (src/watch/decide.ts, in the
 * chain's seconds).
 */

/**
 * The lead times (days before `deadline`) due at `now`: each whose moment, `deadline - days`, fell inside the current
 * period (after `periodStart`: the last check-in, or the start of the plan) and has come, while the deadline has not.
 * A lead time whose moment is at or before the period's start is as long as the period or longer: it would otherwise
 * be due right after every check-in. Times in one unit, `day` its length of a day.
 */
export function leadTimesDue(
  deadline: number,
  now: number,
  leads: readonly number[],
  periodStart: number,
  day: number,
): number[] {
  if (now >= deadline) return [];
  return leads.filter((d) => {
    const moment = deadline - d * day;
    return d > 0 && moment > periodStart && now >= moment;
  });
}

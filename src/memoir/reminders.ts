/**
 * Reminders before a plan's check-in deadline: the owner is mailed at set lead times (30 and 7 days before, by
 * default), once per lead time and deadline, with a single-use check-in link that works until the deadline.
 *
 * The deadline is the service's own (checkInDeadline: the plan's interval after its last check-in). A plan followed
 * on chain is left to the chain watcher, whose `deadman.warning` carries the chain's deadline (and is mailed by
 * mailContractReminder below, in the watcher's transaction); a plan whose switch
 * fired, or whose deadline has passed, gets no reminder.
 *
 * "Once" is a record in the store (`mail_once`), written in the same transaction as the messages: two sweeps at once,
 * on one instance or two, send one reminder. A check-in moves the deadline, so the next reminders are for the new
 * one. Reminders are not essential: they carry List-Unsubscribe and follow the user's preferences, and go only to
 * confirmed addresses (src/memoir/owner-mail.ts).
 */
import type { Clock } from '../core/clock.js';
import { leadTimesDue } from '../core/lead-times.js';
import type { Store, Tx } from '../store/port.js';
import { accountStore } from '../accounts/tenancy.js';
import { checkInDeadline, DAY_MS, type HeirPlanRecord, MEMOIR_HEIR_PLANS } from './heir-plans.js';
import { checkInLink, MAIL_ONCE, mailOwners, pruneMailOnce, takeOnce } from './owner-mail.js';
import { turn } from './turns.js';

/** Days before a deadline at which the owner is reminded, by default. */
export const REMINDER_LEAD_DAYS: readonly number[] = [30, 7];

export { MAIL_ONCE, ONCE_MARGIN_DAYS, pruneMailOnce } from './owner-mail.js';

const onceKey = (planId: string, deadline: number, lead: number) => `rmd_${planId}_${deadline}_${lead}`;

/** The lead times due now for a plan, in its current period. */
const planLeads = (plan: HeirPlanRecord, now: number, leads: readonly number[]) => {
  const deadline = checkInDeadline(plan);
  return leadTimesDue(deadline, now, leads, deadline - plan.intervalDays * DAY_MS, DAY_MS);
};

/** Armed plans looked at between two turns of the event loop (their deadlines worked out: some 10 µs each). */
const PLAN_SLICE = 500;

/**
 * Queues the reminders due now across accounts; answers how many plans were reminded. Lead times that came due
 * together (a sweep that did not run for a while) make one message.
 */
export async function sendDueReminders(
  store: Store,
  clock: Clock,
  leads: readonly number[] = REMINDER_LEAD_DAYS,
): Promise<number> {
  const now = clock.now().getTime();
  let reminded = 0;
  let seen = 0;
  for (const candidate of await store.findBy<HeirPlanRecord>(MEMOIR_HEIR_PLANS, 'state', 'armed')) {
    // Every armed plan of every account, every quarter of an hour: 100,000 held the event loop 115 to 144 ms at once.
    if (++seen % PLAN_SLICE === 0) await turn();
    if (candidate.watched || planLeads(candidate, now, leads).length === 0) continue;
    const sent = await accountStore(store, candidate.ownerId).transact(async (tx) => {
      // Read again in the account's transaction: a check-in may have moved the deadline meanwhile.
      const plan = await tx.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, candidate.id);
      if (plan?.state !== 'armed' || plan.watched) return false;
      const deadline = checkInDeadline(plan);
      const fresh: string[] = [];
      for (const lead of planLeads(plan, now, leads)) {
        const key = onceKey(plan.id, deadline, lead);
        if (!(await tx.get(MAIL_ONCE, key))) fresh.push(key);
      }
      if (fresh.length === 0) return false;
      const at = new Date(deadline).toISOString();
      for (const key of fresh) await takeOnce(tx, key, { ownerId: plan.ownerId, planId: plan.id, until: at }, clock);
      await mailOwners(
        tx,
        plan,
        'checkin-reminder',
        false,
        async (user) => ({
          deadline: at,
          planLabel: plan.label,
          checkInLink: await checkInLink(tx, user, plan, deadline, clock),
        }),
        clock,
      );
      return true;
    });
    if (sent) reminded += 1;
  }
  return reminded;
}

/**
 * The periodic mail sweep: queues the reminders due now, then prunes the once-keys that can no longer matter (their
 * deadline passed more than ONCE_MARGIN_DAYS ago), so the store does not grow with every deadline.
 */
export async function sweepReminders(store: Store, clock: Clock): Promise<{ reminded: number; pruned: number }> {
  const reminded = await sendDueReminders(store, clock);
  return { reminded, pruned: await pruneMailOnce(store, clock) };
}

/**
 * The chain watcher's warning before a contract's deadline, mailed to the owner's confirmed addresses in the same
 * transaction as the `deadman.warning` event it goes with (so once per warning, like the event). Not essential: it
 * follows the user's preferences. `deadline` is the chain's, in seconds.
 */
export function mailContractReminder(
  tx: Tx,
  deployment: { id: string; ownerId: string; network: string | number; address: string },
  deadline: number,
  clock: Clock,
): Promise<number> {
  return mailOwners(
    tx,
    { id: deployment.id, ownerId: deployment.ownerId },
    'contract-checkin-reminder',
    false,
    async () => ({
      deadline: new Date(deadline * 1000).toISOString(),
      network: String(deployment.network),
      contractAddress: deployment.address,
    }),
    clock,
  );
}

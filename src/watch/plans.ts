/**
 * The memoir plans a verified deployment watches: the owner's linked plans whose contract address is the
 * deployment's. Once a deployment is verified they are `watched`, so reports about them are refused and only the
 * chain opens their shares: a `deadman.triggered` read from the chain opens them at once (the chain is the proof;
 * see openByChain).
 */
import type { Clock } from '../core/clock.js';
import type { Store, Tx } from '../store/port.js';
import { EVENTS, type EventRecord } from '../events/events.js';
import { canonicalAddress } from '../contracts/validate.js';
import { accountTx } from '../accounts/tenancy.js';
import { DEPLOYMENTS, type DeploymentRecord, isTestNetwork } from '../contracts/deployments.js';
import { onDeletedDeployment, onVerifiedDeployment } from '../contracts/register-deployment.js';
import { type HeirPlanRecord, MEMOIR_HEIR_PLANS } from '../memoir/heir-plans.js';
import { chainTakesOver, openByChain } from '../memoir/verification.js';

/** The owner's plans this deployment watches (same chain family, same contract address). */
export async function plansOf(tx: Tx, d: DeploymentRecord): Promise<HeirPlanRecord[]> {
  const plans = await accountTx(tx, d.ownerId).findBy<HeirPlanRecord>(MEMOIR_HEIR_PLANS, 'ownerId', d.ownerId);
  const place = canonicalAddress(d.chain, d.address);
  return plans.filter(
    (p) =>
      p.blockchain === d.chain && p.contractAddress !== null && canonicalAddress(d.chain, p.contractAddress) === place,
  );
}

/**
 * Marks the deployment's plans watched (those linked after the deployment was verified too), ending the waiting period
 * of a trigger reported before. Resolves with them.
 */
export async function markWatched(
  tx: Tx,
  d: DeploymentRecord,
  clock: Clock,
  /** The deployment's twins, when the caller has read them already. */
  known?: readonly DeploymentRecord[],
): Promise<HeirPlanRecord[]> {
  // A test copy held back by a main network's copy that was cancelled watches nothing: nothing on chain can open
  // the plans, so reports apply to them (unwatchPlans).
  const twins = known ?? (await twinsOf(tx, d));
  if (!mayOpen(d, twins) && !twins.some((t) => !cancelled(t))) return plansOf(tx, d);
  const own = accountTx(tx, d.ownerId);
  const nowIso = clock.now().toISOString();
  const out: HeirPlanRecord[] = [];
  for (const p of await plansOf(tx, d)) {
    if (p.watched === true) {
      out.push(p);
      continue;
    }
    // From now on the chain decides: a trigger reported before no longer opens anything (chainTakesOver).
    const next = await chainTakesOver(own, { ...p, watched: true, updatedAt: nowIso }, clock);
    await own.put(MEMOIR_HEIR_PLANS, next);
    out.push(next);
  }
  return out;
}

/**
 * The owner cancelled the contract (or its deployment was deleted): the chain will never open its plans, so they are
 * watched no more. Reports and the waiting period apply to them again (a sign of life from the owner still cancels a
 * report), rather than leaving the heirs' shares closed for good. A reorganisation that undoes the cancel marks them
 * watched again. Not while a twin (the same address on another network, not cancelled) can still open them: cancelling
 * the test network's copy leaves the main network's in charge, but cancelling the main network's leaves a test copy
 * nothing to open (mayOpen).
 */
export async function unwatchPlans(
  tx: Tx,
  d: DeploymentRecord,
  clock: Clock,
  /** Why: a cancelled main network's copy still holds a test copy back; a deleted registration does not. */
  why: 'cancelled' | 'deleted',
): Promise<number> {
  const twins = await twinsOf(tx, d);
  const group = why === 'cancelled' ? [...twins, d] : twins;
  const stillOpens = twins.some(
    (t) =>
      !cancelled(t) &&
      mayOpen(
        t,
        group.filter((o) => o.id !== t.id),
      ),
  );
  if (stillOpens) return 0;
  const own = accountTx(tx, d.ownerId);
  const nowIso = clock.now().toISOString();
  let unwatched = 0;
  for (const p of await plansOf(tx, d))
    if (p.watched === true && p.state !== 'triggered') {
      await own.put(MEMOIR_HEIR_PLANS, { ...p, watched: false, updatedAt: nowIso });
      unwatched += 1;
    }
  return unwatched;
}

/**
 * The account's other verified deployments of the same contract address on the same chain family (another network):
 * twins. A fresh wallet deploying the same creation code gets the same address on every network.
 *
 * Found through the address's index (the account's ids among it, AccountTx.idsBy), not among every deployment of the
 * account: the watcher asks at each write, and reading all of them there made a poll that writes every deployment of
 * an account with thousands cost the square of their number. Registration stores an address in one spelling (EIP-55
 * for EVM, the bounceable form for TON), so its twins are stored under the same one.
 */
async function twinsOf(tx: Tx, d: DeploymentRecord): Promise<DeploymentRecord[]> {
  const own = accountTx(tx, d.ownerId);
  const place = canonicalAddress(d.chain, d.address);
  const twins: DeploymentRecord[] = [];
  for (const id of await own.idsBy(DEPLOYMENTS, 'address', d.address)) {
    const o = id === d.id ? undefined : await own.get<DeploymentRecord>(DEPLOYMENTS, id);
    if (o?.status === 'verified' && o.chain === d.chain && canonicalAddress(o.chain, o.address) === place)
      twins.push(o);
  }
  return twins;
}

const cancelled = (d: DeploymentRecord): boolean => d.watch?.snapshot?.cancelled === true;

/**
 * Whether deployment `d`'s trigger may open the plans it watches, among `others` (its twins, cancelled ones
 * included): a main network's may; a test network's only when no main network's copy exists, live or cancelled (the
 * owner tried the contract out there first, and checks in, or cancelled, on the main network only).
 */
const mayOpen = (d: DeploymentRecord, others: readonly DeploymentRecord[]): boolean =>
  !isTestNetwork(d.network) || !others.some((t) => !isTestNetwork(t.network));

/**
 * The switch fired on chain: every plan the deployment watches opens its shares (once). Resolves with how many.
 *
 * Not when the deployment is on a test network and a twin on a main network watches the same plans: the owner tried
 * the contract out there first (the same wallet gets the same address) and checks in on the main network only, so
 * the test copy's switch fires while the owner is alive. Its event is recorded all the same; the plans open when the
 * main network's switch fires, and never by the test copy, even once the main network's contract is cancelled. Twins on two main networks open on either (the plan does not say which one it means).
 */
export async function openWatchedPlans(tx: Tx, d: DeploymentRecord, eventId: string, clock: Clock): Promise<number> {
  const own = accountTx(tx, d.ownerId);
  const twins = await twinsOf(tx, d);
  const plans = await markWatched(tx, d, clock, twins);
  if (!mayOpen(d, twins)) return 0;
  let opened = 0;
  for (const p of plans) {
    const next = await openByChain(own, p, { source: `chain:${d.network}:${d.address}`, eventId }, clock);
    if (next !== p) opened += 1;
  }
  return opened;
}

let registered = false;
/**
 * Plans become watched in the same write that stores their deployment as verified, and watched no more in the write
 * that deletes it, unless another verified deployment of the account has the same address (on another network) and
 * still watches them.
 */
export function watchPlansOnVerification(): void {
  if (registered) return;
  registered = true;
  onVerifiedDeployment(async (tx, d, clock) => {
    await markWatched(tx, d, clock);
  });
  onDeletedDeployment(async (tx, d, clock) => {
    if (d.status !== 'verified') return 0;
    return unwatchPlans(tx, d, clock, 'deleted');
  });
}

/**
 * Plans linked to a watched contract after its deployment was verified become watched too: one read of the plans
 * not yet triggered per poll, and a write only for those to mark. When the switch already fired on chain, such a
 * plan opens as the others did at the trigger (with its recorded event), once: the trigger is not read again.
 */
export async function watchLinkedPlans(
  { store, clock }: { store: Store; clock: Clock },
  deployments: DeploymentRecord[],
  /** `<deployment>:<plan>` of the plans opened (or held back) after a trigger read before they were linked. */
  lateOpened: Set<string>,
): Promise<void> {
  if (deployments.length === 0) return;
  // A cancelled contract watches nothing: the chain will never open its plans.
  const live = deployments.filter((d) => d.watch?.snapshot?.cancelled !== true);
  const byPlace = new Map(live.map((d) => [`${d.ownerId}:${d.chain}:${canonicalAddress(d.chain, d.address)}`, d]));
  const open = [
    ...(await store.findBy<HeirPlanRecord>(MEMOIR_HEIR_PLANS, 'state', 'armed')),
    ...(await store.findBy<HeirPlanRecord>(MEMOIR_HEIR_PLANS, 'state', 'verifying')),
  ];
  const marked = new Set<string>();
  for (const p of open) {
    if (!p.contractAddress) continue;
    const d = byPlace.get(`${p.ownerId}:${p.blockchain}:${canonicalAddress(p.blockchain, p.contractAddress)}`);
    if (!d || marked.has(d.id)) continue;
    // A plan watched already is left alone, unless the switch fired before it was linked: it may still have to open
    // (a twin's poll may have marked it first). Tried once per plan and deployment: a test network's trigger that
    // a main-network twin holds back stays held back (openWatchedPlans).
    const fired = d.watch?.snapshot?.triggered === true && d.watch.paused !== true;
    if (p.watched === true && (!fired || lateOpened.has(`${d.id}:${p.id}`))) continue;
    marked.add(d.id);
    const plans = await store.transact(async (tx) => {
      // Read again in the write: a cancel recorded since this poll began watches nothing.
      const fresh = await tx.get<DeploymentRecord>(DEPLOYMENTS, d.id);
      if (fresh?.status !== 'verified' || !fresh.watch || fresh.watch.snapshot?.cancelled === true) return [];
      const eventId =
        fresh.watch.snapshot?.triggered === true && fresh.watch.paused !== true
          ? (fresh.watch.triggeredEventId ?? (await triggerEventOf(tx, fresh)))
          : undefined;
      if (eventId === undefined) return markWatched(tx, fresh, clock);
      await openWatchedPlans(tx, fresh, eventId, clock);
      return plansOf(tx, fresh);
    });
    if (fired) for (const q of plans) lateOpened.add(`${d.id}:${q.id}`);
  }
  // A plan no longer armed nor verifying (opened, cancelled, deleted) is not read again: its entries go, so the set
  // holds only plans still waiting, whatever the process's age.
  const waiting = new Set(open.map((p) => p.id));
  for (const key of lateOpened) if (!waiting.has(key.slice(key.lastIndexOf(':') + 1))) lateOpened.delete(key);
}

/**
 * The `deadman.triggered` event recorded for a deployment whose record predates `triggeredEventId`: the newest in the
 * owner's event log, or undefined when it was pruned (then the plan is only marked watched).
 */
async function triggerEventOf(tx: Tx, d: DeploymentRecord): Promise<string | undefined> {
  const events = await accountTx(tx, d.ownerId).findBy<EventRecord>(EVENTS, 'ownerId', d.ownerId);
  const fired = events.filter((e) => e.type === 'deadman.triggered' && e.data.deploymentId === d.id);
  return fired
    .map((e) => e.id)
    .sort()
    .at(-1);
}

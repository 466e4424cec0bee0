/**
 * The owner's settings of the watcher for one verified deployment: the lead times of `deadman.warning` and a pause.
 * The watcher reads them at its next poll; what it already sent stays sent.
 */
import type { Clock } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import type { Store } from '../store/port.js';
import { DEFAULT_WARN_DAYS, DEPLOYMENTS, type DeploymentRecord, WARN_DAYS_LIMITS } from './deployments.js';

export interface WatchPatch {
  warnDays?: number[] | undefined;
  paused?: boolean | undefined;
}

const notFound = () => new ApiError('NOT_FOUND', 'No deployment with this id for this contract in your account.');

/** Checks the lead times: whole days within the bounds, at most the bounded count, each once. */
export function checkWarnDays(days: number[]): void {
  const { count, min, max } = WARN_DAYS_LIMITS;
  const bad = (reason: string) => ApiError.validation('Invalid warnDays', [{ field: 'warnDays', reason }]);
  if (days.length > count) throw bad(`at most ${count} lead times`);
  days.forEach((d, i) => {
    if (!Number.isInteger(d) || d < min || d > max)
      throw ApiError.validation('Invalid warnDays', [
        { field: `warnDays.${i}`, reason: `a whole number of days from ${min} to ${max}` },
      ]);
  });
  if (new Set(days).size !== days.length) throw bad('each lead time once');
}

export async function updateDeploymentWatch(
  store: Store,
  contractId: string,
  deploymentId: string,
  patch: WatchPatch,
  clock: Clock,
): Promise<DeploymentRecord> {
  if (patch.warnDays !== undefined) checkWarnDays(patch.warnDays);
  const nowIso = clock.now().toISOString();
  return store.transact(async (tx) => {
    const d = await tx.get<DeploymentRecord>(DEPLOYMENTS, deploymentId);
    if (!d || d.contractId !== contractId) throw notFound();
    if (d.status !== 'verified' || !d.watch)
      throw new ApiError(
        'CONFLICT',
        'This deployment is not verified, so it is not watched; register a deployment that matches the contract.',
      );
    const next: DeploymentRecord = {
      ...d,
      watch: {
        ...d.watch,
        warnDays: patch.warnDays ? [...patch.warnDays].sort((a, b) => b - a) : (d.watch.warnDays ?? DEFAULT_WARN_DAYS),
        paused: patch.paused ?? d.watch.paused ?? false,
      },
      updatedAt: nowIso,
    };
    await tx.put(DEPLOYMENTS, next);
    return next;
  });
}

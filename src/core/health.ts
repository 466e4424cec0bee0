/**
 * What /health reports about the engines behind the store and the rate limiter.
 *
 * Adapters describe themselves by duck typing, so this module depends on neither: a store may have `engine` (a name)
 * and `ping()` (rejects when its engine cannot be reached); a limiter may have `engine` and `available` (whether its
 * connection is up now). Without them: the embedded lowdb store and the in-process limiter, which are always up.
 *
 * Rule for load balancers and monitors: /health answers 200 whenever the process can answer at all, with `status`
 * "ok" or "degraded" (a part cannot reach its engine). Degraded is for alerting, not for taking the instance out of
 * rotation: the engines are shared, so every instance is degraded alike, and requests are still answered (an enveloped
 * 503 SERVICE_UNAVAILABLE for what needs the missing part) and recover by themselves when the engine is back.
 */
export type PartStatus = 'ok' | 'unavailable';

export interface HealthReport {
  status: 'ok' | 'degraded';
  store: { engine: string; status: PartStatus };
  limiter: { engine: string; status: PartStatus };
}

interface DescribedStore {
  engine?: unknown;
  ping?: unknown;
}

interface DescribedLimiter {
  engine?: unknown;
  available?: unknown;
}

/** How long a store ping may take before the store counts as unavailable. */
export const PING_TIMEOUT_MS = 1000;

async function storeStatus(store: DescribedStore): Promise<PartStatus> {
  if (typeof store.ping !== 'function') return 'ok';
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('ping timed out')), PING_TIMEOUT_MS);
    });
    await Promise.race([(store.ping as () => Promise<unknown>).call(store), timeout]);
    return 'ok';
  } catch {
    return 'unavailable';
  } finally {
    clearTimeout(timer);
  }
}

export async function checkHealth(store: object, limiter: object): Promise<HealthReport> {
  const s = store as DescribedStore;
  const l = limiter as DescribedLimiter;
  const storePart = { engine: typeof s.engine === 'string' ? s.engine : 'lowdb', status: await storeStatus(s) };
  const limiterPart = {
    engine: typeof l.engine === 'string' ? l.engine : 'memory',
    status: (l.available === false ? 'unavailable' : 'ok') as PartStatus,
  };
  return {
    status: storePart.status === 'ok' && limiterPart.status === 'ok' ? 'ok' : 'degraded',
    store: storePart,
    limiter: limiterPart,
  };
}

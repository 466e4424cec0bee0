import { ApiError } from '../core/errors.js';
import { LimiterUnavailableError } from '../core/limiter-port.js';
import { StoreConflictError, StoreUnavailableError } from '../store/port.js';

/** Seconds a client is asked to wait when the database or the rate limiter cannot be reached. */
const UNAVAILABLE_RETRY_SECONDS = 5;

/**
 * The 503 of an engine that cannot be reached (the store's database, the rate
 * limiter's server) or of a database transaction that kept conflicting with
 * concurrent ones until it gave up, or undefined for any other error. The
 * message names the part, never a connection string.
 */
export function unavailableError(err: unknown, now: Date): ApiError | undefined {
  if (err instanceof StoreConflictError) {
    return new ApiError(
      'SERVICE_UNAVAILABLE',
      "The service's database is busy with concurrent changes to the same records; nothing was changed. Retry in a few seconds.",
      undefined,
      new Date(now.getTime() + UNAVAILABLE_RETRY_SECONDS * 1000).toISOString(),
    );
  }
  const part =
    err instanceof StoreUnavailableError
      ? 'database'
      : err instanceof LimiterUnavailableError
        ? 'rate limiter'
        : undefined;
  if (part === undefined) return undefined;
  return new ApiError(
    'SERVICE_UNAVAILABLE',
    `The service's ${part} cannot be reached at the moment; nothing was changed. Retry in a few seconds.`,
    undefined,
    new Date(now.getTime() + UNAVAILABLE_RETRY_SECONDS * 1000).toISOString(),
  );
}

import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import type { RateLimiter } from '../core/limiter-port.js';
import type { Logger } from '../core/log.js';
import type { SessionAuthority } from '../accounts/sessions.js';
import type { Store } from '../store/port.js';

/**
 * What admission needs of the running service. The tool runner's Services has all of these; naming them here keeps
 * admission independent of the tool layer above it.
 */
export interface AccessServices {
  config: Pick<Config, 'rateLimitFailOpen'>;
  /** The raw store: admission runs before any principal, and so any account view, exists. */
  store: Store;
  clock: Clock;
  log: Logger;
  limiter: RateLimiter;
  sessions: SessionAuthority;
}

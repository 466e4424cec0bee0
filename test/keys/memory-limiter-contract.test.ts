import { MemoryRateLimiter } from '../../src/keys/limiter.js';
import { describeLimiterContract } from './limiter-contract.js';

describeLimiterContract('in process (MemoryRateLimiter)', async ({ windowMs }) => ({
  limiter: new MemoryRateLimiter(windowMs),
  cleanup: async () => {},
}));

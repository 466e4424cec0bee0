/** The account budget (./budget-contract.ts) with the Redis limiter, under a key prefix of its own. */
import { randomBytes } from 'node:crypto';
import { testRedisUrl } from '../support/engines.js';
import { describeAccountBudget } from './budget-contract.js';

describeAccountBudget('Redis (RedisRateLimiter)', async () => ({
  redisUrl: await testRedisUrl(),
  redisPrefix: `svc-budget:${randomBytes(6).toString('hex')}:`,
}));

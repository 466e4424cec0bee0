/** The limiter contract (./limiter-contract.ts) against the Redis adapter, each test under a key prefix of its own. */
import { randomBytes } from 'node:crypto';
import { beforeAll } from 'vitest';
import { RedisRateLimiter } from '../../src/keys/redis-limiter.js';
import { testRedisUrl } from '../support/engines.js';
import { describeLimiterContract } from './limiter-contract.js';

let url: string;

beforeAll(async () => {
  url = await testRedisUrl();
});

describeLimiterContract('Redis (RedisRateLimiter)', async ({ windowMs }) => {
  const limiter = new RedisRateLimiter({ url, windowMs, prefix: `svc-contract:${randomBytes(6).toString('hex')}:` });
  await limiter.ready();
  return { limiter, cleanup: () => limiter.close() };
});

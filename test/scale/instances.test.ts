/**
 * Three `svc serve` processes on one PostgreSQL schema and one Redis prefix: shared rate limits, key
 * revocation seen by every instance, /health, a dropped database connection mid-request, and Redis going down and
 * coming back.
 *
 * A transaction that conflicts is retried and never half-applied: covered at the store level by the contract suite
 * (test/store/contract.ts "is serializable: ..." run on PostgreSQL in test/store/pg-contract.test.ts) and by
 * test/store/pg.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startOwnRedis } from '../support/engines.js';
import { call, eventually, startCluster, type Cluster } from './support.js';

let cluster: Cluster;

beforeAll(async () => {
  cluster = await startCluster(3);
}, 120_000);

afterAll(async () => {
  await cluster?.close();
});

async function publicKey(name: string): Promise<{ id: string; key: string }> {
  const created = await call(cluster.instances[0]!.url, cluster.key, 'POST', '/api/v1/api-keys', {
    name,
    tier: 'public',
    scopes: ['contracts:read'],
  });
  expect(created.status).toBe(201);
  return { id: created.json.data.id, key: created.json.data.key };
}

describe('three instances on one PostgreSQL and one Redis', () => {
  it('report postgres and redis in /health', async () => {
    for (const i of cluster.instances) {
      const health = await call(i.url, undefined, 'GET', '/health');
      expect(health.status).toBe(200);
      expect(health.json.data).toMatchObject({
        status: 'ok',
        store: { engine: 'postgres', status: 'ok' },
        limiter: { engine: 'redis', status: 'ok' },
      });
    }
  });

  it('give a public key exactly 100 accepted requests in a window, spread over the three; the rest 429 with the usual headers', async () => {
    const { key } = await publicKey('spread');
    const answers = [];
    // 130 requests, round robin, a few at a time.
    for (let round = 0; round < 13; round++) {
      answers.push(
        ...(await Promise.all(
          Array.from({ length: 10 }, (_, j) =>
            call(cluster.instances[(round * 10 + j) % 3]!.url, key, 'GET', '/api/v1/jurisdictions'),
          ),
        )),
      );
    }
    const ok = answers.filter((a) => a.status === 200);
    const limited = answers.filter((a) => a.status === 429);
    expect(ok).toHaveLength(100);
    expect(limited).toHaveLength(30);
    // Every instance accepted some: the count is shared, not per process.
    for (const a of limited) {
      expect(a.json).toMatchObject({ success: false, error: { code: 'RATE_LIMIT_EXCEEDED' } });
      expect(a.headers.get('x-ratelimit-limit')).toBe('100');
      expect(a.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(a.headers.get('x-ratelimit-reset')).toBeTruthy();
      expect(Number(a.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    const remaining = ok.map((a) => Number(a.headers.get('x-ratelimit-remaining'))).sort((x, y) => x - y);
    expect(remaining).toEqual(Array.from({ length: 100 }, (_, i) => i)); // each count handed out once over all instances
  });

  it('refuse a key revoked through one instance on the others within 1 s', async () => {
    const { id, key } = await publicKey('revoked');
    const [a, b, c] = cluster.instances;
    expect((await call(b!.url, key, 'GET', '/api/v1/jurisdictions')).status).toBe(200);
    expect((await call(c!.url, key, 'GET', '/api/v1/jurisdictions')).status).toBe(200);
    const revoked = await call(a!.url, cluster.key, 'DELETE', `/api/v1/api-keys/${id}`);
    expect(revoked.status).toBe(200);
    for (const other of [b!, c!]) {
      const refused = await eventually(
        async () => (await call(other.url, key, 'GET', '/api/v1/jurisdictions')).status === 401,
        1000,
      );
      expect(refused).toBe(true);
    }
    const last = await call(c!.url, key, 'GET', '/api/v1/jurisdictions');
    expect(last.json).toMatchObject({ success: false, error: { code: 'API_KEY_INVALID' } });
  });

  it('answer an enveloped 503 when the database connection drops mid-request, and write nothing partial', async () => {
    const target = cluster.instances[1]!;
    const tag = `drop-${Date.now()}`;
    let unavailable = 0;
    const statuses = new Set<number>();
    for (let round = 0; round < 20 && unavailable === 0; round++) {
      const requests = Array.from({ length: 20 }, (_, k) =>
        call(target.url, cluster.key, 'POST', '/api/v1/accounts', { name: `${tag}-${round}-${k}`, tier: 'partner' }),
      );
      // Meanwhile, cut this instance's connections (only this instance's: its own application_name).
      const cuts = (async () => {
        for (let i = 0; i < 10; i++) {
          await cluster.admin.query(
            'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1',
            [target.appName],
          );
          await new Promise((r) => setTimeout(r, 3));
        }
      })();
      const answers = await Promise.all(requests).catch((err: unknown) => {
        throw new Error(
          `a request failed (${String(err)}); the instance ${target.child.exitCode === null ? 'runs' : `exited ${target.child.exitCode}`}: ${target.stderr().slice(-3000)}`,
        );
      });
      await cuts;
      for (const a of answers) {
        statuses.add(a.status);
        if (a.status === 503) {
          unavailable++;
          expect(a.json).toMatchObject({ success: false, error: { code: 'SERVICE_UNAVAILABLE' } });
          expect(Number(a.headers.get('retry-after'))).toBeGreaterThan(0);
        } else {
          expect(a.status).toBe(201);
        }
      }
    }
    expect(unavailable).toBeGreaterThan(0);
    expect([...statuses].every((s) => s === 201 || s === 503)).toBe(true);
    // No partial write: every account of the burst has its first key, and no key lacks its account.
    const accounts = await cluster.admin.query(
      `SELECT id FROM "${cluster.schema}".c_accounts WHERE doc->>'name' LIKE $1`,
      [`${tag}-%`],
    );
    const keys = await cluster.admin.query(`SELECT doc->>'ownerId' AS owner FROM "${cluster.schema}".c_api_keys`);
    const owners = new Set(keys.rows.map((r) => r.owner as string));
    for (const row of accounts.rows) expect(owners.has(row.id as string)).toBe(true);
    const accountIds = new Set(
      (await cluster.admin.query(`SELECT id FROM "${cluster.schema}".c_accounts`)).rows.map((r) => r.id as string),
    );
    for (const owner of owners) expect(accountIds.has(owner)).toBe(true);
    // And the instance serves again by itself.
    expect(
      await eventually(
        async () => (await call(target.url, cluster.key, 'GET', '/api/v1/api-keys')).status === 200,
        5000,
      ),
    ).toBe(true);
  });

  it('answer 503 while Redis is down, report degraded, and resume by themselves when it is back', async () => {
    const redis = await startOwnRedis();
    const port = redis.port;
    let engine = redis;
    try {
      const d = await cluster.start({ SVC_REDIS_URL: redis.url });
      const { key } = await publicKey('redis-down');
      expect((await call(d.url, key, 'GET', '/api/v1/jurisdictions')).status).toBe(200);
      await engine.stop();
      const down = await call(d.url, key, 'GET', '/api/v1/jurisdictions');
      expect(down.status).toBe(503);
      expect(down.json).toMatchObject({ success: false, error: { code: 'SERVICE_UNAVAILABLE' } });
      expect(down.json.error.message).toMatch(/rate limiter/);
      const health = await call(d.url, undefined, 'GET', '/health');
      expect(health.status).toBe(200);
      expect(health.json.data).toMatchObject({
        status: 'degraded',
        store: { status: 'ok' },
        limiter: { engine: 'redis', status: 'unavailable' },
      });
      // The process is still up, and the other instances (their own Redis) are unaffected.
      expect((await call(cluster.instances[0]!.url, key, 'GET', '/api/v1/jurisdictions')).status).toBe(200);
      engine = await startOwnRedis({ port });
      expect(
        await eventually(
          async () => (await call(d.url, key, 'GET', '/api/v1/jurisdictions')).status === 200,
          15_000,
          200,
        ),
      ).toBe(true);
      expect((await call(d.url, undefined, 'GET', '/health')).json.data).toMatchObject({
        status: 'ok',
        limiter: { status: 'ok' },
      });
      expect(d.child.exitCode).toBeNull();
    } finally {
      await engine.stop();
    }
  });
});

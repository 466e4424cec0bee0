/**
 * Sign-in and session costs, against baselines in the same run:
 * - login throughput over REST (argon2id verify + session record + JWT), against
 *   bare argon2id verifications per second with the same parameters;
 * - the added cost of session authentication per request (JWT verify, session,
 *   user and account lookups, CSRF on writes) against key authentication, on the
 *   same route (GET /api/v1/api-keys accepts both), measured with autocannon.
 *
 *   npx tsx bench/auth.ts
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { hash, verify } from '@node-rs/argon2';
import { closeServices, openServices } from '../src/app.js';
import { systemClock } from '../src/core/clock.js';
import { loadConfig } from '../src/core/config.js';
import { createLogger } from '../src/core/log.js';
import { buildApp } from '../src/http/app.js';
import { createKey } from '../src/keys/provision.js';
import { MemoryRateLimiter } from '../src/keys/limiter.js';
import { ARGON2_OPTIONS } from '../src/accounts/sessions.js';
import { TOOLS } from '../src/tools/index.js';
import { loadRun } from './load.js';
import { fmt, isMain, median } from './util.js';

const DURATION_S = 3;
const ROUNDS = 3;
const CONCURRENCY = 4;

/** Raises every limit (the real counting still runs) so the load is not cut off. */
class UnboundedLimiter extends MemoryRateLimiter {
  override hitAllNow(entries: ReadonlyArray<{ key: string; limit: number }>, now: Date) {
    // The entries are the caller's (kept from one request to the next): raised in a copy.
    return super.hitAllNow(
      entries.map((e) => ({ key: e.key, limit: e.limit * 1_000_000 })),
      now,
    );
  }
  override peek(key: string, limit: number, now: Date) {
    return super.peek(key, limit * 1_000_000, now);
  }
}

/** Runs `fn` from CONCURRENCY workers for `ms`; operations per second. */
async function throughput(ms: number, fn: () => Promise<unknown>): Promise<number> {
  const end = Date.now() + ms;
  let done = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (Date.now() < end) {
        await fn();
        done++;
      }
    }),
  );
  return done / (ms / 1000);
}

async function load(url: string, headers: Record<string, string>): Promise<number> {
  return (await loadRun({ url, headers, connections: 32, duration: DURATION_S })).rate;
}

export async function benchAuth(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'svc-bench-auth-'));
  const services = await openServices(loadConfig({ 'data-dir': dir }, {}), { log: createLogger('warn') });
  services.limiter = new UnboundedLimiter();
  // The session authority counts failed logins through its own limiter reference.
  (services.sessions as unknown as { limiter: unknown }).limiter = services.limiter;
  const app = await buildApp(services, TOOLS);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

  const password = 'a benchmark passphrase';
  const email = `bench.${Date.now()}@example.com`;
  await fetch(`${base}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  // Registering answers 202 without a session; signing in gives it.
  const reg = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const cookie = reg.headers
    .getSetCookie()
    .find((c) => c.startsWith('svc_session='))!
    .split(';')[0]!;
  // The key lives in the same account as the session, so both requests list the same keys (partner tier:
  // key management needs it; a session may manage its own account's keys).
  const accountId = ((await reg.json()) as { data: { account: { id: string } } }).data.account.id;
  const { key } = await createKey(
    services.store,
    { name: 'bench', tier: 'partner', scopes: ['contracts'], ownerId: accountId },
    systemClock,
  );

  // 1. Login throughput against bare argon2id verification.
  const stored = await hash(password, ARGON2_OPTIONS);
  const login = () =>
    fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    }).then((r) => r.arrayBuffer());
  await throughput(500, () => verify(stored, password));
  await throughput(500, login);
  const bare: number[] = [];
  const logins: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    bare.push(await throughput(2000, () => verify(stored, password)));
    logins.push(await throughput(2000, login));
  }

  // 2. Session authentication against key authentication, same route.
  const url = `${base}/api/v1/api-keys`;
  await load(url, { authorization: `Bearer ${key}` });
  await load(url, { cookie });
  const keyRuns: number[] = [];
  const sessionRuns: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    keyRuns.push(await load(url, { authorization: `Bearer ${key}` }));
    sessionRuns.push(await load(url, { cookie }));
  }
  await app.close();
  await closeServices(services);
  await rm(dir, { recursive: true, force: true });

  const keyRps = median(keyRuns);
  const sessionRps = median(sessionRuns);
  console.log(
    `\nAuth: sign-in and session costs (${CONCURRENCY} concurrent logins; autocannon 32 connections; ${ROUNDS} alternating rounds, medians)`,
  );
  console.log(`  argon2id verify (m=19 MiB, t=2, p=1)   ${fmt(median(bare), 1)} /s`);
  console.log(
    `  POST /api/auth/login                   ${fmt(median(logins), 1)} /s   ratio ${fmt(median(logins) / median(bare))} of bare argon2id`,
  );
  console.log(`  GET /api/v1/api-keys with a key        ${fmt(keyRps, 0)} req/s`);
  console.log(
    `  GET /api/v1/api-keys with a session    ${fmt(sessionRps, 0)} req/s   ratio ${fmt(sessionRps / keyRps)}; added ${fmt((1 / sessionRps - 1 / keyRps) * 1e6, 1)} µs per request (on one connection's share of the CPU)`,
  );
}

if (isMain(import.meta.url)) await benchAuth();

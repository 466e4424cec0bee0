/**
 * Several real `svc serve` processes on one PostgreSQL schema and one Redis prefix, for the multi-instance tests.
 * Each process runs `node bin/svc.js serve` (the suite's fresh build of the sources) on a port of its own; each gets its
 * own PostgreSQL application_name, so a test can terminate exactly that instance's connections.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { svcArgs, TEST_MASTER_KEY, tmpDir } from '../helpers.js';
import { cleanEnv } from '../support/cli.js';
import { randomSchema, testDatabaseUrl, testRedisUrl } from '../support/engines.js';
import { makeCert, startReceiver } from '../webhooks/helpers.js';

export interface Instance {
  url: string;
  child: ChildProcessWithoutNullStreams;
  /** PostgreSQL application_name of this instance's connections. */
  appName: string;
  stderr(): string;
  exited: Promise<number | null>;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<void>;
}

export interface Cluster {
  databaseUrl: string;
  redisUrl: string;
  schema: string;
  redisPrefix: string;
  admin: pg.Client;
  /** The first instance's bootstrap key (internal tier, scope all). */
  key: string;
  instances: Instance[];
  /** Starts one more instance on the same schema (env overrides). */
  start(env?: Record<string, string>): Promise<Instance>;
  close(): Promise<void>;
}

/** `url` with its application_name query parameter set (pg lets the URL's parameters win). */
function withAppName(url: string, appName: string): string {
  const u = new URL(url);
  u.searchParams.set('application_name', appName);
  return u.toString();
}

export async function startCluster(n: number, env: Record<string, string> = {}): Promise<Cluster> {
  const databaseUrl = await testDatabaseUrl();
  const redisUrl = await testRedisUrl();
  const schema = randomSchema('svc_scale');
  const redisPrefix = `svc-scale:${randomBytes(6).toString('hex')}:`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  admin.on('error', () => undefined);
  await admin.connect();
  const dirs: Array<{ cleanup(): Promise<void> }> = [];
  const all: Instance[] = [];
  let counter = 0;
  const start = async (extra: Record<string, string> = {}): Promise<Instance> => {
    const dir = await tmpDir('svc-scale-');
    dirs.push(dir);
    const appName = `${schema}_${++counter}`;
    const child = spawn(process.execPath, svcArgs('serve', '--port', '0', '--data-dir', path.join(dir.dir, 'data')), {
      env: cleanEnv({
        SVC_DATABASE_URL: withAppName(databaseUrl, appName),
        SVC_DATABASE_SCHEMA: schema,
        SVC_REDIS_URL: redisUrl,
        SVC_REDIS_PREFIX: redisPrefix,
        SVC_MASTER_KEY: TEST_MASTER_KEY,
        SVC_LOG_LEVEL: 'info',
        ...env,
        ...extra,
      }),
    });
    let stderr = '';
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    const url = await new Promise<string>((resolve, reject) => {
      child.stderr.on('data', (d) => {
        stderr += d;
        const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
        if (m) resolve(m[1]!);
      });
      void exited.then((code) => reject(new Error(`svc serve exited early (${code}): ${stderr.slice(-2000)}`)));
    });
    const instance: Instance = {
      url,
      child,
      appName,
      stderr: () => stderr,
      exited,
      async stop() {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        await exited;
      },
    };
    all.push(instance);
    return instance;
  };
  const first = await start();
  const key = /(svc_sk_[A-Za-z0-9_-]{43})/.exec(first.stderr())?.[1];
  if (!key) throw new Error(`the first instance printed no bootstrap key: ${first.stderr().slice(-2000)}`);
  const rest = await Promise.all(Array.from({ length: n - 1 }, () => start()));
  return {
    databaseUrl,
    redisUrl,
    schema,
    redisPrefix,
    admin,
    key,
    instances: [first, ...rest],
    start,
    async close() {
      await Promise.all(all.map((i) => i.stop()));
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
      for (const d of dirs) await d.cleanup();
    },
  };
}

export interface Answer {
  status: number;
  headers: Headers;
  /** The parsed body (the text when it is not JSON). */
  // biome-ignore lint/suspicious/noExplicitAny: the scale tests and bench read each answer's own fields from it
  json: any;
}

export async function call(
  base: string,
  key: string | undefined,
  method: string,
  route: string,
  body?: unknown,
): Promise<Answer> {
  const res = await fetch(base + route, {
    method,
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, headers: res.headers, json };
}

/** Polls `check` every `everyMs` until it returns true or `ms` have passed; resolves with whether it did. */
export async function eventually(check: () => Promise<boolean> | boolean, ms: number, everyMs = 50): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() >= until) return false;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * A local HTTPS webhook receiver (its own test certificate) and `n` instances that trust it and may deliver to
 * loopback, with a short timeout and lease so a dead instance's deliveries are taken over within seconds.
 * `onEvent` sees each request's event id and says how to answer.
 */
export async function startWebhookCluster(
  n: number,
  onEvent: (eventId: string) => { status: number; delayMs?: number },
): Promise<{ cluster: Cluster; receiver: Awaited<ReturnType<typeof startReceiver>>; close(): Promise<void> }> {
  const certs = await tmpDir('svc-scale-tls-');
  const tls = makeCert();
  const caFile = path.join(certs.dir, 'ca.pem');
  writeFileSync(caFile, tls.cert);
  const receiver = await startReceiver(tls, (req) => onEvent((JSON.parse(req.body) as { id: string }).id), {
    record: false,
  });
  const cluster = await startCluster(n, {
    SVC_WEBHOOK_ALLOW: '127.0.0.1',
    NODE_EXTRA_CA_CERTS: caFile,
    SVC_WEBHOOK_TIMEOUT_MS: '5000',
    SVC_WEBHOOK_LEASE_MS: '8000',
  });
  return {
    cluster,
    receiver,
    async close() {
      await cluster.close();
      await receiver.close();
      await certs.cleanup();
    },
  };
}

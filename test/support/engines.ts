/**
 * PostgreSQL and Redis for tests.
 *
 * testDatabaseUrl() / testRedisUrl() answer, in this order:
 *   1. SVC_TEST_DATABASE_URL / SVC_TEST_REDIS_URL when set (used as they are, not probed: a wrong URL fails the tests);
 *   2. the machine's own server (PostgreSQL at 127.0.0.1:5432, database `test`, user postgres; Redis at
 *      127.0.0.1:6379) when it answers a short probe;
 *   3. a server started here from Debian's packages (`postgresql`, `redis-server`) on a free port in a temp
 *      directory, stopped when the test process exits.
 * Nothing reachable and nothing startable: an Error saying so (the tests fail; they are never skipped silently).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';

const LOCAL_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';
const LOCAL_REDIS_URL = 'redis://127.0.0.1:6379';
const PROBE_MS = 1500;

export interface OwnEngine {
  url: string;
  port: number;
  /** The server's process id (tests pause it with SIGSTOP). */
  pid: number;
  /** Stops the server and removes its directory. Idempotent. */
  stop(): Promise<void>;
}

let databaseUrl: Promise<string> | undefined;
let redisUrl: Promise<string> | undefined;

/** A PostgreSQL URL for tests (see the top of this file). Each test file should work in its own schema. */
export function testDatabaseUrl(): Promise<string> {
  databaseUrl ??= (async () => {
    const fromEnv = process.env.SVC_TEST_DATABASE_URL;
    if (fromEnv) return fromEnv;
    if (await postgresAnswers(LOCAL_DATABASE_URL)) return LOCAL_DATABASE_URL;
    try {
      return (await startOwnPostgres()).url;
    } catch (err) {
      throw new Error(
        `no PostgreSQL for the tests: SVC_TEST_DATABASE_URL is not set, nothing answers at ${LOCAL_DATABASE_URL}, ` +
          `and starting one from the Debian postgresql package failed (${(err as Error).message}). ` +
          `Install it (apt-get install -y postgresql) or point SVC_TEST_DATABASE_URL at a server.`,
      );
    }
  })();
  return databaseUrl;
}

/** A Redis URL for tests (see the top of this file). Tests should use their own key prefix. */
export function testRedisUrl(): Promise<string> {
  redisUrl ??= (async () => {
    const fromEnv = process.env.SVC_TEST_REDIS_URL;
    if (fromEnv) return fromEnv;
    if (await redisAnswers(6379)) return LOCAL_REDIS_URL;
    try {
      return (await startOwnRedis()).url;
    } catch (err) {
      throw new Error(
        `no Redis for the tests: SVC_TEST_REDIS_URL is not set, nothing answers at ${LOCAL_REDIS_URL}, ` +
          `and starting redis-server failed (${(err as Error).message}). ` +
          `Install it (apt-get install -y redis-server) or point SVC_TEST_REDIS_URL at a server.`,
      );
    }
  })();
  return redisUrl;
}

/** Drops test schemas (and everything in them); errors of the idle connection are ignored. */
export async function dropSchemas(url: string, ...schemas: string[]): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  admin.on('error', () => undefined);
  await admin.connect();
  try {
    for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await admin.end();
  }
}

/** A fresh schema name for one test file (lower case, so it needs no quoting). */
export function randomSchema(prefix = 'svc_test'): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

// ---------------------------------------------------------------------------
// Probes
// ---------------------------------------------------------------------------

async function postgresAnswers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: PROBE_MS });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Sends PING over a raw socket and waits for +PONG (no client library needed for a probe). */
export function redisAnswers(port: number, host = '127.0.0.1', timeoutMs = PROBE_MS): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    let answer = '';
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.on('error', () => done(false));
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      if (answer.includes('\r\n')) done(answer.startsWith('+PONG'));
    });
    socket.connect(port, host, () => socket.write('PING\r\n'));
  });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

// ---------------------------------------------------------------------------
// Servers started here
// ---------------------------------------------------------------------------

/** Every server this process started, killed synchronously at exit (the 'exit' handler cannot await). */
const started = new Set<ChildProcess>();
let exitHookInstalled = false;

function track(child: ChildProcess, dir: string): () => Promise<void> {
  started.add(child);
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on('exit', () => {
      // SIGINT: PostgreSQL's fast shutdown, Redis's shutdown; both finish on their own after this process is gone.
      for (const c of started) {
        c.kill('SIGCONT');
        c.kill('SIGINT');
      }
    });
  }
  let stopping: Promise<void> | undefined;
  return () =>
    (stopping ??= new Promise<void>((resolve) => {
      const finish = (): void => {
        started.delete(child);
        rmSync(dir, { recursive: true, force: true });
        resolve();
      };
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return finish();
      child.once('exit', finish);
      child.kill('SIGCONT'); // in case a test paused it
      child.kill('SIGINT'); // PostgreSQL: fast shutdown; Redis: shutdown without saving (no save points configured)
      const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
      force.unref();
    }));
}

async function waitFor(
  what: string,
  child: ChildProcess,
  output: () => string,
  check: () => Promise<boolean>,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${what} exited (${child.exitCode ?? child.signalCode}): ${output().slice(-800)}`);
    }
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`${what} did not answer within ${timeoutMs} ms: ${output().slice(-800)}`);
}

/** The bin directory of the newest PostgreSQL installed from Debian's packages. */
function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) throw new Error(`no initdb under ${root}/*/bin (Debian package postgresql not installed)`);
  return path.join(root, versions[0]!, 'bin');
}

/**
 * Starts a throwaway PostgreSQL: initdb in a temp directory, then `postgres` on a free loopback port with its socket
 * in that directory. PostgreSQL refuses to run as root, so as root it runs as the `postgres` user. fsync is off: the
 * data is thrown away anyway.
 */
export async function startOwnPostgres(): Promise<OwnEngine> {
  const bin = postgresBinDir();
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-pg-'));
  const data = path.join(dir, 'data');
  // PostgreSQL refuses to run as root: as root, run initdb and postgres as the `postgres` user.
  let ids: { uid: number; gid: number } | undefined;
  if (process.getuid?.() === 0) {
    const uid = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    if (uid.status !== 0 || gid.status !== 0)
      throw new Error('running as root and there is no postgres user to run PostgreSQL as');
    ids = { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
    chownSync(dir, ids.uid, ids.gid);
  }
  const init = spawnSync(
    path.join(bin, 'initdb'),
    ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'],
    {
      encoding: 'utf8',
      cwd: dir,
      ...ids,
    },
  );
  if (init.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`initdb failed: ${String(init.stderr || init.error?.message).slice(-800)}`);
  }
  const port = await freePort();
  const args = [
    '-D',
    data,
    '-p',
    String(port),
    '-k',
    dir,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'fsync=off',
    '-c',
    'max_connections=200',
  ];
  const child = spawn(path.join(bin, 'postgres'), args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: dir, ...ids });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const stop = track(child, dir);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  try {
    await waitFor(
      'postgres',
      child,
      () => output,
      () => postgresAnswers(url),
    );
  } catch (err) {
    await stop();
    throw err;
  }
  return { url, port, pid: child.pid!, stop };
}

/** Starts a throwaway redis-server on `port` (a free one by default), without persistence. */
export async function startOwnRedis(opts: { port?: number } = {}): Promise<OwnEngine> {
  const port = opts.port ?? (await freePort());
  const dir = mkdtempSync(path.join(tmpdir(), 'svc-redis-'));
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const spawnError = new Promise<never>((_, reject) => child.on('error', reject));
  spawnError.catch(() => undefined);
  const stop = track(child, dir);
  try {
    await Promise.race([
      spawnError,
      waitFor(
        'redis-server',
        child,
        () => output,
        () => redisAnswers(port),
      ),
    ]);
  } catch (err) {
    await stop();
    throw err;
  }
  return { url: `redis://127.0.0.1:${port}`, port, pid: child.pid!, stop };
}

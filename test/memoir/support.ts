import { randomBytes } from 'node:crypto';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { STORE_INDEXES } from '../../src/app.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import type { Store } from '../../src/store/port.js';
import { startTestServer, tmpDir, tmpStore, type TestServer } from '../helpers.js';
import { dropSchemas, randomSchema, testDatabaseUrl } from '../support/engines.js';
import { sessionHeaders, type TestSession } from '../support/session.js';

/** A multipart/form-data body by hand: fields and one file. */
export function multipartBody(
  parts: Array<{ name: string; value: string } | { name: string; filename: string; contentType: string; data: Buffer }>,
): { body: Buffer; contentType: string } {
  const boundary = `----svc${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    if ('data' in p) {
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: ${p.contentType}\r\n\r\n`,
        ),
      );
      chunks.push(p.data, Buffer.from('\r\n'));
    } else {
      chunks.push(
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"\r\n\r\n${p.value}\r\n`),
      );
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

const exec = promisify(execFile);

/** Fails with a clear message when a Debian program the memoir needs is missing (never a skip). */
export async function requireProgram(cmd: string, pkg: string): Promise<void> {
  try {
    await exec('sh', ['-c', `command -v ${cmd}`]);
  } catch {
    throw new Error(`${cmd} is missing: apt-get install -y ${pkg} (.ci/run must install it)`);
  }
}

/** Word error rate: word-level edit distance over the reference length. */
export function wordErrorRate(reference: string, hypothesis: string): number {
  const norm = (s: string) =>
    s
      .toLowerCase()
      .replace(/[^a-z' ]/g, ' ')
      .split(/\s+/)
      .filter(Boolean);
  const r = norm(reference);
  const h = norm(hypothesis);
  const d = Array.from({ length: r.length + 1 }, (_, i) =>
    Array.from({ length: h.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= r.length; i++) {
    for (let j = 1; j <= h.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (r[i - 1] === h[j - 1] ? 0 : 1));
    }
  }
  return d[r.length]![h.length]! / Math.max(1, r.length);
}

/** Gives an account credits (an operator grant), as the tests' wallet top-up. */
export async function grant(
  server: { services: { store: Store; clock: import('../../src/core/clock.js').Clock } },
  accountId: string,
  amount: number,
): Promise<void> {
  const { addEntry } = await import('../../src/credits/ledger.js');
  await addEntry(server.services.store, server.services.clock, accountId, {
    kind: 'grant',
    amount,
    idempotencyKey: `test-grant-${randomBytes(6).toString('hex')}`,
    reference: { type: 'operator', id: 'test' },
    reason: 'memoir test',
  });
}

/** The store engines the memoir's domain behaviour is checked on. */
export const MEMOIR_ENGINES = ['lowdb', 'postgres'] as const;
export type MemoirEngine = (typeof MEMOIR_ENGINES)[number];

/**
 * An empty store on `engine` with every collection's indexes (the server's STORE_INDEXES, so the credits ledger works
 * too): lowdb in a temp directory, or PostgreSQL in a schema of its own (test/support/engines.ts: never a silent skip;
 * no PostgreSQL is a failing test). `close` releases it and removes the directory or drops the schema.
 */
export async function openEngineStore(
  engine: MemoirEngine,
): Promise<{ store: Store; dataDir: string; close(): Promise<void> }> {
  if (engine === 'lowdb') {
    const t = await tmpStore('svc-memoir-');
    return { store: t.store, dataDir: t.dir, close: t.cleanup };
  }
  const t = await tmpDir('svc-memoir-');
  const url = await testDatabaseUrl();
  const schema = randomSchema('svc_memoir');
  const store = await openPostgresStore({ url, schema, indexes: STORE_INDEXES, poolSize: 4 });
  return {
    store,
    dataDir: t.dir,
    async close() {
      await store.close();
      await dropSchemas(url, schema);
      await t.cleanup();
    },
  };
}

/**
 * A test server (test/helpers.ts startTestServer) whose store is `engine`: lowdb in its data directory, or PostgreSQL
 * in a schema of its own, dropped by `close`.
 */
export async function startEngineServer(
  engine: MemoirEngine,
  opts: Parameters<typeof startTestServer>[0] = {},
): Promise<TestServer> {
  if (engine === 'lowdb') return startTestServer(opts);
  const url = await testDatabaseUrl();
  const schema = randomSchema('svc_memoir_srv');
  const server = await startTestServer({
    ...opts,
    config: { ...opts.config, databaseUrl: url, databaseSchema: schema },
  });
  const close = server.close;
  return {
    ...server,
    async close() {
      await close();
      await dropSchemas(url, schema);
    },
  };
}

/**
 * Links a plan with a dead man's switch to `owner`'s memoir, one heir (Ana) whose share, with chat, opens 7 days after
 * the switch fires: the plan's id, the share's and its claim code.
 */
export async function linkChatPlan(
  server: TestServer,
  owner: TestSession,
): Promise<{ planId: string; shareId: string; code: string }> {
  const address = (n: number) => `0x${String(n).repeat(40)}`;
  const linked = await server.app.inject({
    method: 'POST',
    url: '/api/v1/svcloom/heirs/plans',
    headers: sessionHeaders(owner, { csrf: true }),
    payload: {
      label: 'Family',
      plan: {
        blockchain: 'evm',
        ownerAddress: address(1),
        beneficiaries: [{ name: 'Ana', address: address(2), percentage: 100 }],
        deadMansSwitch: { enabled: true, intervalDays: 90 },
      },
      heirAccess: { enabled: true, openAfterDays: 7, allowChat: true },
    },
  });
  if (linked.statusCode !== 201) throw new Error(`linking the plan: ${linked.body}`);
  const { shareId, code } = linked.json().data.codes[0] as { shareId: string; code: string };
  return { planId: linked.json().data.plan.id as string, shareId, code };
}

/** Reports that the plan's switch fired, with a key of the owner's account: its verification's waiting period starts. */
export async function fireSwitch(server: TestServer, ownerId: string, planId: string): Promise<void> {
  const reporter = await server.key({ ownerId, tier: 'public', scopes: ['contracts'] });
  const fired = await server.app.inject({
    method: 'POST',
    url: `/api/v1/svcloom/heirs/plans/${planId}/events`,
    headers: { authorization: `Bearer ${reporter}` },
    payload: { type: 'deadman.triggered' },
  });
  if (fired.statusCode !== 200) throw new Error(`reporting the switch: ${fired.body}`);
}

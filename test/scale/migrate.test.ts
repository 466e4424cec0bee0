/** `svc migrate` and `svc serve` against PostgreSQL schema versions. */
import { spawn } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LATEST_VERSION } from '../../src/store/postgres/index.js';
import { svcArgs, TEST_MASTER_KEY, tmpDir } from '../helpers.js';
import { cleanEnv } from '../support/cli.js';
import { randomSchema, testDatabaseUrl } from '../support/engines.js';

let url: string;
let admin: pg.Client;
let data: Awaited<ReturnType<typeof tmpDir>>;
const schemas: string[] = [];

function run(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, svcArgs(...args), { env: cleanEnv(env) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  url = await testDatabaseUrl();
  admin = new pg.Client({ connectionString: url });
  await admin.connect();
  data = await tmpDir('svc-migrate-');
});

afterAll(async () => {
  for (const s of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
  await admin.end();
  await data.cleanup();
});

describe('svc migrate', () => {
  it('applies the migrations once and says so, then finds nothing to do', async () => {
    const schema = randomSchema('svc_migrate');
    schemas.push(schema);
    const env = { SVC_DATABASE_URL: url, SVC_DATABASE_SCHEMA: schema };
    const first = await run(['migrate'], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(
      new RegExp(`Applied migrations? 1.* to schema "${schema}"; it is now at migration ${LATEST_VERSION}`),
    );
    const again = await run(['migrate'], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/is up to date .*nothing to apply/);
    const rows = await admin.query(`SELECT version FROM "${schema}".svc_migrations ORDER BY version`);
    expect(rows.rows.map((r) => r.version)).toEqual(Array.from({ length: LATEST_VERSION }, (_, i) => i + 1));
  });

  it('refuses a schema newer than the code, in migrate and in serve, with a clear message and a non-zero exit', async () => {
    const schema = randomSchema('svc_migrate');
    schemas.push(schema);
    const env = { SVC_DATABASE_URL: url, SVC_DATABASE_SCHEMA: schema, SVC_MASTER_KEY: TEST_MASTER_KEY };
    expect((await run(['migrate'], env)).code).toBe(0);
    await admin.query(`INSERT INTO "${schema}".svc_migrations (version, name) VALUES ($1, 'from the future')`, [
      LATEST_VERSION + 1,
    ]);
    const migrate = await run(['migrate'], env);
    expect(migrate.code).not.toBe(0);
    expect(migrate.stderr).toMatch(/newer than this svc knows/);
    expect(migrate.stderr.trim().split('\n')).toHaveLength(1);
    const serve = await run(['serve', '--port', '0', '--data-dir', path.join(data.dir, 'd')], env);
    expect(serve.code).not.toBe(0);
    expect(serve.stderr).toMatch(/newer than this svc knows/);
  });

  it('needs SVC_DATABASE_URL, and reports an unreachable database in one line', async () => {
    const none = await run(['migrate'], {});
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/needs SVC_DATABASE_URL/);
    const down = await run(['migrate'], { SVC_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/test' });
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/^svc: cannot migrate the database: /);
    expect(down.stderr.trim().split('\n')).toHaveLength(1);
  });
});

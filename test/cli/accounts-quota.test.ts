import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tmpDir } from '../helpers.js';
import { runSvc } from '../support/cli.js';

// `svc accounts set-quota`: the operator's per-account storage quota from the command line (offline, on the data
// directory; with a running server the same command goes through PATCH /api/v1/accounts/:id).

let data: { dir: string; cleanup: () => Promise<void> };
beforeAll(async () => {
  data = await tmpDir('svc-cli-quota-');
});
afterAll(async () => {
  await data?.cleanup();
});

describe('svc accounts set-quota', () => {
  it("sets an account's quota, takes it back to the default, and refuses bad figures with one line", async () => {
    const dir = path.join(data.dir, 'q');
    const created = await runSvc([
      'accounts',
      'create',
      '--name',
      'Quota Ltd',
      '--tier',
      'partner',
      '--json',
      '--data-dir',
      dir,
    ]);
    expect(created.code, created.stderr).toBe(0);
    const id = (JSON.parse(created.stdout) as { account: { id: string; storageQuotaBytes: number | null } }).account.id;

    const set = await runSvc([
      'accounts',
      'set-quota',
      '--account',
      id,
      '--bytes',
      '5000000',
      '--json',
      '--data-dir',
      dir,
    ]);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toMatchObject({ id, storageQuotaBytes: 5_000_000 });
    const listed = await runSvc(['accounts', 'list', '--json', '--data-dir', dir]);
    expect(
      (JSON.parse(listed.stdout) as Array<{ id: string; storageQuotaBytes: number | null }>).find((a) => a.id === id)
        ?.storageQuotaBytes,
    ).toBe(5_000_000);

    const reset = await runSvc(['accounts', 'set-quota', '--account', id, '--bytes', 'default', '--data-dir', dir]);
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stdout).toContain("the server's default");

    // Usage errors exit with 2, before anything is opened.
    for (const bad of [['--bytes=-5'], ['--bytes', '1GB'], []]) {
      const r = await runSvc(['accounts', 'set-quota', '--account', id, ...bad, '--data-dir', dir]);
      expect(r.code, bad.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/--bytes/);
    }
    const missing = await runSvc([
      'accounts',
      'set-quota',
      '--account',
      'acct_nobody',
      '--bytes',
      '1',
      '--data-dir',
      dir,
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/NOT_FOUND/);
  }, 240_000);
});

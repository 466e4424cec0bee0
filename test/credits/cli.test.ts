import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tmpDir } from '../helpers.js';
import { runSvc, startServe } from '../support/cli.js';

// `svc credits grant`, with the service stopped (the command opens the store) and while it runs (through its API).

let data: Awaited<ReturnType<typeof tmpDir>>;
beforeAll(async () => {
  data = await tmpDir();
});
afterAll(async () => {
  await data?.cleanup();
});

describe('svc credits grant', () => {
  it('refuses bad arguments with one line', async () => {
    for (const [args, message] of [
      [['credits'], /credits needs a command: grant/],
      [['credits', 'give'], /unknown credits command "give"/],
      [['credits', 'grant', '--amount', '5', '--reason', 'x'], /--account is required/],
      [
        ['credits', 'grant', '--account', 'acct_x', '--amount', 'lots', '--reason', 'x'],
        /--amount must be a whole number/,
      ],
      [['credits', 'grant', '--account', 'acct_x', '--amount', '5'], /--reason/],
    ] as const) {
      const r = await runSvc([...args, '--data-dir', data.dir]);
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    }
  }, 120_000);

  it('grants offline and through a running server; every grant is a ledger entry', async () => {
    const dir = path.join(data.dir, 'grants');
    const created = await runSvc([
      'accounts',
      'create',
      '--name',
      'Credit Ltd',
      '--tier',
      'partner',
      '--json',
      '--data-dir',
      dir,
    ]);
    expect(created.code, created.stderr).toBe(0);
    const account = (JSON.parse(created.stdout) as { account: { id: string } }).account.id;
    const offline = await runSvc([
      'credits',
      'grant',
      '--account',
      account,
      '--amount',
      '120',
      '--reason',
      'launch offer',
      '--idempotency-key',
      'launch',
      '--json',
      '--data-dir',
      dir,
    ]);
    expect(offline.code, offline.stderr).toBe(0);
    expect(JSON.parse(offline.stdout)).toMatchObject({
      balance: 120,
      replayed: false,
      entry: { kind: 'grant', amount: 120, reason: 'launch offer' },
    });
    const replay = await runSvc([
      'credits',
      'grant',
      '--account',
      account,
      '--amount',
      '120',
      '--reason',
      'launch offer',
      '--idempotency-key',
      'launch',
      '--data-dir',
      dir,
    ]);
    expect(replay.stdout).toMatch(/Already granted.*Balance of .*: 120/);
    const missing = await runSvc([
      'credits',
      'grant',
      '--account',
      'acct_nobody',
      '--amount',
      '1',
      '--reason',
      'x',
      '--data-dir',
      dir,
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^svc: NOT_FOUND/);

    const serve = await startServe(dir);
    try {
      const admin = (serve.stderr().match(/svc_sk_[A-Za-z0-9_-]{43}/) ?? [])[0]!;
      expect(admin).toBeTruthy();
      const online = await runSvc(
        [
          'credits',
          'grant',
          '--account',
          account,
          '--amount=-20',
          '--reason',
          'correction',
          '--json',
          '--data-dir',
          dir,
        ],
        { SVC_API_KEY: admin },
      );
      expect(online.code, online.stderr).toBe(0);
      expect(JSON.parse(online.stdout)).toMatchObject({
        balance: 100,
        entry: { kind: 'grant', amount: -20, reason: 'correction' },
      });
      const overdraft = await runSvc(
        ['credits', 'grant', '--account', account, '--amount=-1000', '--reason', 'too much', '--data-dir', dir],
        { SVC_API_KEY: admin },
      );
      expect(overdraft.code).toBe(1);
      expect(overdraft.stderr).toMatch(/^svc: INSUFFICIENT_CREDITS/);
      const one = await runSvc(
        ['credits', 'grant', '--account', account, '--amount', '1', '--reason', 'one more', '--data-dir', dir],
        { SVC_API_KEY: admin },
      );
      expect(one.code, one.stderr).toBe(0);
      expect(one.stdout).toMatch(/^Granted 1 credit \(entry cre_[A-Za-z0-9_-]+\)\. Balance of acct_\w+: 101\.\n$/);
    } finally {
      serve.child.kill('SIGTERM');
    }
    expect(await serve.exited).toBe(0);
  }, 120_000);
});

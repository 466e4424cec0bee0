import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNTS, type AccountRecord } from '../../src/accounts/records.js';
import { STORE_INDEXES } from '../../src/app.js';
import { API_KEYS, type ApiKeyRecord } from '../../src/keys/keys.js';
import { openLowdbStore } from '../../src/store/index.js';
import { SERVICE_VERSION } from '../../src/version.js';
import { tmpDir } from '../helpers.js';
import { runSvc, startServe } from '../support/cli.js';
import { httpClient, mcpHttpCall, mcpOutcome, stdioClient } from '../mcp-clients.js';

let data: Awaited<ReturnType<typeof tmpDir>>;
beforeAll(async () => {
  data = await tmpDir();
});
afterAll(async () => {
  await data?.cleanup();
});

describe('svc command line', () => {
  it('prints its version and help', async () => {
    const v = await runSvc(['--version']);
    expect(v).toMatchObject({ code: 0, stdout: `${SERVICE_VERSION}\n` });
    const h = await runSvc(['--help']);
    expect(h.code).toBe(0);
    for (const cmd of ['serve', 'mcp', 'keys create', 'keys list']) expect(h.stdout).toContain(`svc ${cmd}`);
    // a command's --help, wherever it stands among the arguments, prints that command's usage and runs nothing
    const k = await runSvc(['keys', 'create', '--tier', 'gold', '--help', '--data-dir', data.dir]);
    expect(k).toMatchObject({ code: 0, stderr: '' });
    expect(k.stdout).toContain('svc keys create --tier public|partner|internal');
    expect(k.stdout).not.toContain('svc mcp');
    const s = await runSvc(['serve', '-h']);
    expect(s).toMatchObject({ code: 0, stderr: '' });
    expect(s.stdout).toMatch(/^Usage:\n {2}svc serve \[--port 3000\]/);
    const byName = await runSvc(['help', 'migrate']);
    expect(byName).toMatchObject({ code: 0, stderr: '' });
    expect(byName.stdout).toMatch(/^Usage:\n {2}svc migrate\n/);
  });

  it.each([
    [['frobnicate'], /unknown command "frobnicate"/],
    [[], /no command given/],
    [['serve', '--bogus'], /Unknown option '--bogus'/],
    [['serve', '--port', 'abc'], /--port must be a port number/],
    [
      ['keys', 'create', '--tier', 'gold', '--scopes', 'chat', '--name', 'x'],
      /--tier must be one of public, partner, internal/,
    ],
    [['keys', 'create', '--tier', 'public', '--scopes', 'chat,flying', '--name', 'x'], /unknown scope\(s\): flying/],
    [
      ['keys', 'create', '--tier', 'partner', '--scopes', 'all', '--name', 'x'],
      /"all" scope is for internal keys only/,
    ],
    [['keys', 'create', '--tier', 'public', '--scopes', 'chat'], /--name is required/],
    [['keys', 'create', '--scopes', 'chat', '--name', 'x'], /--tier is required: one of public, partner, internal/],
    [['keys', 'rotate'], /unknown keys command "rotate"/],
  ])('refuses %j with one clear line and a non-zero exit', async (args, message) => {
    const r = await runSvc(args.length ? [...args, '--data-dir', data.dir] : []);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stdout).toBe('');
  });

  it('creates a key that works over REST, MCP HTTP and MCP stdio; a wrong key fails on each', async () => {
    const dir = path.join(data.dir, 'flow');
    const created = await runSvc([
      'keys',
      'create',
      '--tier',
      'partner',
      '--scopes',
      'contracts',
      '--name',
      'ci',
      '--json',
      '--data-dir',
      dir,
    ]);
    expect(created.code).toBe(0);
    const out = JSON.parse(created.stdout) as { id: string; key: string };
    expect(out.id).toMatch(/^key_/);
    expect(out.key).toMatch(/^svc_pt_[A-Za-z0-9_-]{43}$/);
    expect(created.stdout.trim().split('\n')).toHaveLength(1);

    const listed = await runSvc(['keys', 'list', '--json', '--data-dir', dir]);
    const keys = JSON.parse(listed.stdout) as Array<Record<string, unknown>>;
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({
      id: out.id,
      name: 'ci',
      tier: 'partner',
      scopes: ['contracts'],
      displayPrefix: out.key.slice(0, 11),
    });
    expect(listed.stdout).not.toContain(out.key);
    expect(keys[0]).not.toHaveProperty('keyHash');

    const wrong = out.key.slice(0, -4) + 'AAAA';
    const serve = await startServe(dir);
    try {
      // A key exists already, so no bootstrap key is printed.
      expect(serve.stderr()).not.toMatch(/svc_sk_/);
      const ok = await fetch(`${serve.url}/api/v1/contracts/templates`, {
        headers: { authorization: `Bearer ${out.key}` },
      });
      expect(ok.status).toBe(200);
      const bad = await fetch(`${serve.url}/api/v1/contracts/templates`, {
        headers: { authorization: `Bearer ${wrong}` },
      });
      expect(bad.status).toBe(401);
      expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('API_KEY_INVALID');

      const good = await httpClient(serve.url, out.key);
      expect((await mcpOutcome(good, 'list_templates', {})).ok).toBe(true);
      await good.close();
      // A wrong key is refused on every JSON-RPC request, at the HTTP level.
      expect(await mcpHttpCall(serve.url, wrong, 'list_templates', {})).toMatchObject({
        ok: false,
        status: 401,
        body: { error: { code: 'API_KEY_INVALID' } },
      });
      await expect(httpClient(serve.url, wrong)).rejects.toThrow(/invalid/i);

      // A second process on the same data directory is refused at once.
      const second = await runSvc(['serve', '--port', '0', '--data-dir', dir]);
      expect(second.code).not.toBe(0);
      expect(second.stderr).toMatch(/in use by another svc process/);
    } finally {
      serve.child.kill('SIGTERM');
    }
    expect(await serve.exited).toBe(0);
    expect(serve.stderr()).toMatch(/shutting down/);
    expect(existsSync(path.join(dir, 'svc.lock'))).toBe(false);

    const stdio = await stdioClient(dir, out.key);
    expect((await mcpOutcome(stdio, 'list_templates', {})).ok).toBe(true);
    await stdio.close();
    const stdioBad = await stdioClient(dir, wrong);
    expect(await mcpOutcome(stdioBad, 'list_templates', {})).toMatchObject({
      ok: false,
      body: { error: { code: 'API_KEY_INVALID' } },
    });
    await stdioBad.close();
  }, 120_000); // seven processes start in turn (each loads TypeScript through tsx)

  it('creates and prints one internal key on first start only', async () => {
    const dir = path.join(data.dir, 'first');
    const first = await startServe(dir);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const printed = first.stderr().match(/svc_sk_[A-Za-z0-9_-]{43}/g) ?? [];
    expect(printed).toHaveLength(1);
    const listed = JSON.parse((await runSvc(['keys', 'list', '--json', '--data-dir', dir])).stdout) as Array<{
      tier: string;
      scopes: string[];
    }>;
    expect(listed).toEqual([expect.objectContaining({ tier: 'internal', scopes: ['all'] })]);

    const second = await startServe(dir);
    try {
      expect(second.stderr()).not.toMatch(/svc_sk_/);
      const res = await fetch(`${second.url}/api/v1/contracts/templates`, { headers: { 'x-api-key': printed[0]! } });
      expect(res.status).toBe(200);
    } finally {
      second.child.kill('SIGINT');
    }
    expect(await second.exited).toBe(0);
  }, 120_000); // three processes start in turn (each loads TypeScript through tsx)

  it('creates and lists accounts with the service stopped and while it runs (through its API with SVC_API_KEY)', async () => {
    const dir = path.join(data.dir, 'accounts');
    const offline = await runSvc([
      'accounts',
      'create',
      '--name',
      'Offline Ltd',
      '--tier',
      'partner',
      '--json',
      '--data-dir',
      dir,
    ]);
    expect(offline.code, offline.stderr).toBe(0);
    const first = JSON.parse(offline.stdout) as { account: { id: string; tier: string }; key: string };
    expect(first.account).toMatchObject({ tier: 'partner', kind: 'customer' });
    expect(first.key).toMatch(/^svc_pt_/);

    const serve = await startServe(dir);
    try {
      const admin = (serve.stderr().match(/svc_sk_[A-Za-z0-9_-]{43}/) ?? [])[0]!;
      expect(admin).toBeTruthy();
      // Without a key the command says what to do, in one line.
      const noKey = await runSvc(['accounts', 'create', '--name', 'Online Ltd', '--tier', 'public', '--data-dir', dir]);
      expect(noKey.code).not.toBe(0);
      expect(noKey.stderr).toMatch(/set SVC_API_KEY/);
      const online = await runSvc(
        ['accounts', 'create', '--name', 'Online Ltd', '--tier', 'public', '--json', '--data-dir', dir],
        { SVC_API_KEY: admin },
      );
      expect(online.code, online.stderr).toBe(0);
      const second = JSON.parse(online.stdout) as { account: { id: string }; key: string };
      // The new account's key works on the running server at once.
      const res = await fetch(`${serve.url}/api/v1/contracts/templates`, {
        headers: { authorization: `Bearer ${second.key}` },
      });
      expect(res.status).toBe(200);
      const listed = JSON.parse(
        (await runSvc(['accounts', 'list', '--json', '--data-dir', dir], { SVC_API_KEY: admin })).stdout,
      ) as Array<{ id: string; kind: string }>;
      expect(listed.map((a) => a.id)).toEqual(expect.arrayContaining([first.account.id, second.account.id]));
      expect(listed.filter((a) => a.kind === 'operator')).toHaveLength(1);
      // A key inside another account, through the API.
      const key = await runSvc(
        [
          'keys',
          'create',
          '--tier',
          'public',
          '--scopes',
          'contracts',
          '--name',
          'extra',
          '--account',
          second.account.id,
          '--json',
          '--data-dir',
          dir,
        ],
        {
          SVC_API_KEY: admin,
        },
      );
      expect(key.code, key.stderr).toBe(0);
      expect(JSON.parse(key.stdout)).toMatchObject({ ownerId: second.account.id, tier: 'public' });
      // Errors from the server come back as one line.
      const bad = await runSvc(
        [
          'keys',
          'create',
          '--tier',
          'partner',
          '--scopes',
          'contracts',
          '--name',
          'x',
          '--account',
          second.account.id,
          '--data-dir',
          dir,
        ],
        {
          SVC_API_KEY: admin,
        },
      );
      expect(bad.code).toBe(1);
      expect(bad.stderr).toMatch(/^svc: VALIDATION_ERROR: .*caps its keys at public/);
    } finally {
      serve.child.kill('SIGTERM');
    }
    expect(await serve.exited).toBe(0);
    expect(existsSync(path.join(dir, 'svc.server.json'))).toBe(false);
    // Stopped again: the command opens the store itself.
    const after = JSON.parse((await runSvc(['accounts', 'list', '--json', '--data-dir', dir])).stdout) as unknown[];
    expect(after.length).toBe(3);
  }, 120_000);

  it('refuses names a terminal would act on, and lists names stored before on one clean line', async () => {
    const dir = path.join(data.dir, 'names');
    const create = (name: string) =>
      runSvc(['keys', 'create', '--tier', 'public', '--scopes', 'contracts', '--name', name, '--data-dir', dir]);
    for (const name of ['ci\u001b[2J', 'two\nlines', 'ci \u202eoc']) {
      const refused = await create(name);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toContain('--name must not hold line breaks, control characters');
    }
    const account = await runSvc([
      'accounts',
      'create',
      '--name',
      'Evil\u001b]0;x\u0007',
      '--tier',
      'public',
      '--data-dir',
      dir,
    ]);
    expect(account.code).not.toBe(0);
    expect(account.stderr).toContain('name: must not hold');
    expect((await create('fine')).code).toBe(0);
    // A key and an account named so before the rule.
    const store = await openLowdbStore({ dataDir: dir, indexes: STORE_INDEXES });
    const [key] = await store.all<ApiKeyRecord>(API_KEYS);
    await store.put(API_KEYS, { ...key!, name: 'old\u001b[2J\nkey\u202e' });
    const [acct] = await store.all<AccountRecord>(ACCOUNTS);
    await store.put(ACCOUNTS, { ...acct!, name: 'old\u001b[31m\naccount' });
    await store.close();
    const keys = await runSvc(['keys', 'list', '--data-dir', dir]);
    expect(keys.stdout).not.toMatch(/[\u001b\u202e]/);
    expect(keys.stdout.trim().split('\n')).toHaveLength(1);
    expect(keys.stdout).toContain('old [2J key');
    const accounts = await runSvc(['accounts', 'list', '--data-dir', dir]);
    expect(accounts.stdout).not.toContain('\u001b');
    expect(accounts.stdout).toContain('old [31m account');
  }, 60_000);

  it("with the service stopped, keys create keeps a key within its account's tier, as the API does", async () => {
    const dir = path.join(data.dir, 'tier-cap');
    const made = await runSvc([
      'accounts',
      'create',
      '--name',
      'Small',
      '--tier',
      'public',
      '--json',
      '--data-dir',
      dir,
    ]);
    expect(made.code, made.stderr).toBe(0);
    const account = (JSON.parse(made.stdout) as { account: { id: string } }).account.id;
    const keysCreate = (tier: string, scopes: string) =>
      runSvc([
        'keys',
        'create',
        '--tier',
        tier,
        '--scopes',
        scopes,
        '--name',
        'x',
        '--account',
        account,
        '--data-dir',
        dir,
      ]);
    // An internal key with scope all would make the customer an operator (every account, grants, suspensions).
    for (const [tier, scopes] of [
      ['internal', 'all'],
      ['partner', 'contracts'],
    ]) {
      const refused = await keysCreate(tier!, scopes!);
      expect(refused.code).not.toBe(0);
      expect(refused.stderr).toMatch(/caps its keys at public/);
      expect(refused.stderr.trim().split('\n')).toHaveLength(1);
      expect(refused.stdout).toBe('');
    }
    const listed = JSON.parse((await runSvc(['keys', 'list', '--json', '--data-dir', dir])).stdout) as Array<{
      ownerId: string;
      tier: string;
    }>;
    expect(listed.filter((k) => k.ownerId === account).map((k) => k.tier)).toEqual(['public']);
    const ok = await keysCreate('public', 'contracts');
    expect(ok.code, ok.stderr).toBe(0);
  }, 120_000);
});

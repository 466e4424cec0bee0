import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { svcNodeFlags, svcRuntime } from '../../bench/util.js';
import { tmpDir } from '../helpers.js';

// The `svc` command runs node with flags of its own (the first line of bin/svc.js: a capped young generation, see
// the comment there) and sets the C library's malloc arenas. `npm start` passes the same flags and `npm run bench`
// runs under both, or the figures the bench prints are not those of the service.
const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'bin/svc.js');

let dir: Awaited<ReturnType<typeof tmpDir>>;
beforeAll(async () => {
  dir = await tmpDir();
});
afterAll(async () => {
  await dir?.cleanup();
});

describe('the node flags of the svc command', () => {
  it('are named on the first line of bin/svc.js, and npm start passes the same', () => {
    const flags = svcNodeFlags(BIN);
    expect(flags.length).toBeGreaterThan(0);
    for (const f of flags) expect(f).toMatch(/^--[a-z-]+(=\S+)?$/);
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
    expect(pkg.scripts.start).toBe(`node ${flags.join(' ')} bin/svc.js serve`);
  });

  it("set their environment for the suite's own svc programs too (test/global-build.ts)", () => {
    const { env } = svcRuntime(BIN);
    expect(Object.keys(env).length).toBeGreaterThan(0);
    for (const [name, value] of Object.entries(env)) expect(process.env[name]).toBe(value);
  });

  it('are in force when the command is run as an executable', async () => {
    // A module preloaded through NODE_OPTIONS reports the flags node was started with.
    const probe = path.join(dir.dir, 'probe.mjs');
    writeFileSync(
      probe,
      'process.stderr.write("execArgv=" + JSON.stringify(process.execArgv) + "\\narenas=" + process.env.MALLOC_ARENA_MAX + "\\n");\n',
    );
    // A value of the caller's is replaced by the command's.
    const child = spawn(BIN, ['--version'], {
      env: { ...process.env, NODE_OPTIONS: `--import=${probe}`, MALLOC_ARENA_MAX: '7' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c));
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    const seen = JSON.parse(/execArgv=(.*)/.exec(stderr)?.[1] ?? 'null') as string[] | null;
    expect(seen).toEqual(expect.arrayContaining(svcNodeFlags(BIN)));
    expect(svcRuntime(BIN).env).toEqual({ MALLOC_ARENA_MAX: '2' });
    expect(/arenas=(.*)/.exec(stderr)?.[1]).toBe('2');
  });

  it('reads the variables set before node on the first line apart from the flags', () => {
    const other = path.join(dir.dir, 'env.js');
    writeFileSync(other, '#!/usr/bin/env -S A_B=1 C=x/y node --one --two=2\n');
    expect(svcRuntime(other)).toEqual({ env: { A_B: '1', C: 'x/y' }, flags: ['--one', '--two=2'] });
    writeFileSync(other, '#!/usr/bin/env node\n');
    expect(svcRuntime(other)).toEqual({ env: {}, flags: [] });
  });

  it('refuses a first line that does not start node', () => {
    const other = path.join(dir.dir, 'other.js');
    writeFileSync(other, '#!/bin/sh\necho hi\n');
    expect(() => svcNodeFlags(other)).toThrow(/is not "#!\/usr\/bin\/env \[-S\] \[NAME=value...\] node \[flags\]"/);
  });
});

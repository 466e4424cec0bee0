import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { svcNodeFlags } from '../../bench/util.js';
import { tmpDir } from '../helpers.js';

// The `svc` command runs node with flags of its own (the first line of bin/svc.js: a capped young generation, see
// the comment there). `npm start` and `npm run bench` must run under the same ones, or the figures the bench prints
// are not those of the service.
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

  it('are in force when the command is run as an executable', async () => {
    // A module preloaded through NODE_OPTIONS reports the flags node was started with.
    const probe = path.join(dir.dir, 'probe.mjs');
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the probe's source, whose own template literal runs in the probe
    writeFileSync(probe, 'process.stderr.write(`execArgv=${JSON.stringify(process.execArgv)}\\n`);\n');
    const child = spawn(BIN, ['--version'], {
      env: { ...process.env, NODE_OPTIONS: `--import=${probe}` },
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
  });

  it('refuses a first line that does not start node', () => {
    const other = path.join(dir.dir, 'other.js');
    writeFileSync(other, '#!/bin/sh\necho hi\n');
    expect(() => svcNodeFlags(other)).toThrow(/is not "#!\/usr\/bin\/env \[-S\] node \[flags\]"/);
  });
});

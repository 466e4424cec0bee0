import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { hasWrapperDoubleFree } from '../../src/core/wasm-code-gc.js';

// V8 13.6 frees a shared WebAssembly import wrapper twice under its code collection and aborts the process
// (src/core/wasm-code-gc.ts). A worker pool turns that collection off before its first thread on such a V8.

describe('the V8 versions with the wrapper double free', () => {
  it('are 13.x up to 13.6, Node 24 among them', () => {
    expect(hasWrapperDoubleFree('13.6.233.17-node.53')).toBe(true);
    expect(hasWrapperDoubleFree('13.0.245.25-node.11')).toBe(true);
    expect(hasWrapperDoubleFree('13.7.152.9')).toBe(false);
    expect(hasWrapperDoubleFree('14.1.146.11-node.19')).toBe(false);
    expect(hasWrapperDoubleFree('12.4.254.21-node.33')).toBe(false);
    expect(hasWrapperDoubleFree('not a version')).toBe(false);
  });
});

// A module of one exported function (i32) -> i32 adding 1: called two million times, V8 compiles it again in its
// optimising tier, and the first code is dead; with --stress-wasm-code-gc every dead code starts a collection, which
// --trace-wasm-code-gc prints as "[wasm-gc]" lines.
const CHILD = `
const bytes = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 6, 1, 96, 1, 127, 1, 127, 3, 2, 1, 0, 7, 5, 1, 1, 102,
  0, 0, 10, 9, 1, 7, 0, 32, 0, 65, 1, 106, 11]);
if (process.env.WITH_POOL === '1') {
  const { WorkerPool } = await import(process.env.POOL_MODULE);
  const pool = new WorkerPool({ name: 'A test pool', module: new URL('data:text/javascript,') });
  await pool.close();
}
const { instance } = await WebAssembly.instantiate(bytes);
let x = 0;
for (let i = 0; i < 2e6; i++) x = instance.exports.f(x);
await new Promise((resolve) => setTimeout(resolve, 100));
process.stderr.write('calls ' + x + '\\n');
`;

async function collections(withPool: boolean): Promise<number> {
  const build = process.env.SVC_BUILD_DIR;
  if (!build) throw new Error('SVC_BUILD_DIR is not set: the suite builds src/ first (test/global-build.ts)');
  const env = {
    ...process.env,
    WITH_POOL: withPool ? '1' : '0',
    POOL_MODULE: pathToFileURL(join(build, 'core', 'worker-pool.js')).href,
  };
  const flags = ['--stress-wasm-code-gc', '--trace-wasm-code-gc', '--input-type=module', '-e', CHILD];
  const { stdout, stderr } = await promisify(execFile)(process.execPath, flags, { env });
  expect(stderr).toContain('calls 2000000');
  return stdout.split('\n').filter((line) => line.startsWith('[wasm-gc]')).length;
}

describe('a worker pool', () => {
  it('turns the collection of dead WebAssembly code off for its process on such a V8, and only there', async () => {
    const [without, withPool] = await Promise.all([collections(false), collections(true)]);
    // The control: the same child collects dead code when no pool was made.
    expect(without).toBeGreaterThan(0);
    if (hasWrapperDoubleFree()) expect(withPool).toBe(0);
    else expect(withPool).toBeGreaterThan(0);
  });
});

/**
 * Vitest global setup: compiles src/ once, before any test file runs, into `.test-build-<pid>/` at the project root
 * (the same depth as src/ and dist/, so the program's paths to jurisdictions/, docs-index/ and assets/ hold), and
 * points the `svc` processes the tests start at it (SVC_BUILD_DIR, read by bin/svc.js; the test workers inherit it).
 * One directory per run, so two runs in one checkout never rebuild under each other; it is removed when the run
 * ends, and one left by a run that was killed is removed by the next.
 *
 * Why: the suite starts `svc` a few hundred times. Run from the sources through tsx, each start spent about a second
 * of CPU more than the compiled program, on a suite bound by its two cores. The build is fresh for every run, from
 * the sources under test, so a stale dist/ can never be what a test exercises. esbuild transpiles file by file as
 * tsx does (no type check: `npm run lint` does that), in about a second.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..');
const SRC = path.join(ROOT, 'src');
const PREFIX = '.test-build-';

/** Whether process `pid` still runs (a signal 0 reaches it). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? files(full) : [full];
  });
}

export default async function setup(): Promise<() => void> {
  for (const name of readdirSync(ROOT))
    if (name.startsWith(PREFIX) && !alive(Number(name.slice(PREFIX.length))))
      rmSync(path.join(ROOT, name), { recursive: true, force: true });
  const out = path.join(ROOT, `${PREFIX}${process.pid}`);
  const all = files(SRC);
  const ts = all.filter((f) => /\.ts$/.test(f) && !/\.d\.ts$/.test(f));
  await build({
    entryPoints: ts,
    outdir: out,
    outbase: SRC,
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    logLevel: 'error',
  });
  for (const file of all.filter((f) => !/\.(ts|mts|cts)$/.test(f))) {
    const target = path.join(out, path.relative(SRC, file));
    mkdirSync(path.dirname(target), { recursive: true });
    cpSync(file, target);
  }
  // The manifest `svc mcp` answers its first lists from, as `npm run build` writes it (scripts/build.mjs).
  const manifest = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'write-manifest.mjs'), out], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (manifest.status !== 0) throw new Error(`writing the MCP manifest of the test build failed (${manifest.status})`);
  // The light entry bundled and the load steps listed, as `npm run build` does (scripts/bundle-light.mjs).
  const light = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'bundle-light.mjs'), out], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (light.status !== 0) throw new Error(`bundling the light entry of the test build failed (${light.status})`);
  process.env.SVC_BUILD_DIR = out;
  return () => rmSync(out, { recursive: true, force: true });
}

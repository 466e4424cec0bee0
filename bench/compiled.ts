/**
 * Runs a benchmark file on the compiled service (dist/, what the `svc` command runs) instead of the TypeScript
 * sources through tsx. tsx's loader costs the process some 30 MB of its own (a bare process importing the webhook and
 * store modules: 117 MB resident through tsx, 87 MB from dist/), which a figure of memory would count as the
 * service's. The file is bundled with esbuild, each import of a module under src/ left pointing at its compiled
 * module in dist/ and packages left as imports, then run by node under the svc command's flags and environment
 * (bench/util.ts). The bundled file runs its benchmark itself, as `npx tsx bench/<file>.ts` does. BENCH_EXTRA_FLAGS
 * adds node flags to that run, to look inside it:
 * `BENCH_EXTRA_FLAGS='--cpu-prof --cpu-prof-dir=/tmp/prof' npm run bench -- webhooks`.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { svcRuntime } from './util.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = path.join(ROOT, 'src');
const DIST = path.join(ROOT, 'dist');

/** True when this module runs from its TypeScript source (so a benchmark still has to be moved onto dist/). */
export function runningFromSource(metaUrl: string): boolean {
  return metaUrl.endsWith('.ts');
}

export async function runOnDist(benchFile: string): Promise<void> {
  // Inside the checkout, so that the bundle's package imports resolve from its node_modules.
  const cache = path.join(ROOT, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(path.join(cache, 'svc-bench-dist-'));
  const outfile = path.join(dir, `${path.basename(benchFile, '.ts')}.mjs`);
  try {
    await build({
      entryPoints: [benchFile],
      outfile,
      bundle: true,
      packages: 'external',
      format: 'esm',
      platform: 'node',
      target: 'node22',
      logLevel: 'error',
      plugins: [
        {
          name: 'src-to-dist',
          setup(b) {
            b.onResolve({ filter: /^\./ }, (args) => {
              const source = path.resolve(args.resolveDir, args.path).replace(/\.js$/, '.ts');
              if (!source.startsWith(SRC + path.sep)) return undefined;
              const compiled = path.join(DIST, path.relative(SRC, source)).replace(/\.ts$/, '.js');
              const built = statSync(compiled, { throwIfNoEntry: false });
              if (!built) throw new Error(`${compiled} is missing: run npm run build first`);
              if (statSync(source).mtimeMs > built.mtimeMs)
                throw new Error(`${compiled} is older than its source: run npm run build first`);
              return { path: compiled, external: true };
            });
          },
        },
      ],
    });
    const { env, flags } = svcRuntime();
    const child = spawn(
      process.execPath,
      [...flags, ...(process.env.BENCH_EXTRA_FLAGS ?? '').split(' ').filter(Boolean), outfile],
      { stdio: 'inherit', env: { ...process.env, ...env } },
    );
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    if (code !== 0) throw new Error(`${path.basename(benchFile)} on dist/ exited with code ${code}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

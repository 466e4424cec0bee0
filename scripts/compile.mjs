// Compiles src/ into a tree Node runs: the product's dist/ (scripts/build.mjs) and the suite's fresh build
// (test/global-build.ts) are made by this one function, so the tests' `svc` processes run what the package ships.
//
// - Every TypeScript file is transpiled on its own by esbuild, as tsx does when running the sources: no bundling, the
//   same tree of modules. Type checking is not a build step: `npm run typecheck` (in `npm run lint`, the CI gate) runs
//   tsc over src/, test/, bench/ and scripts/. The tsconfig's `isolatedModules` and `verbatimModuleSyntax` hold every
//   file to what a file-by-file transpiler can compile alone, so the result is the same program tsc would emit, in
//   about a second instead of some thirty of tsc's CPU (the build runs at every `npm ci`, and the package test packs).
// - The files under src/ that are not TypeScript (worker scripts loaded beside their modules, assets) are copied to
//   the same place in the tree.
// - The MCP manifest is written (scripts/write-manifest.mjs) and the light entry bundled (scripts/bundle-light.mjs).
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..');
const SRC = path.join(ROOT, 'src');

/**
 * Every file under `dir`.
 * @param {string} dir
 * @returns {string[]}
 */
function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? files(full) : [full];
  });
}

/**
 * Compiles src/ into `out` (which should not hold an older tree: files are written, none removed).
 * @param {string} out
 * @returns {Promise<{ modules: number, assets: number }>}
 */
export async function compileTree(out) {
  const all = files(SRC);
  const modules = all.filter((f) => /\.ts$/.test(f) && !/\.d\.ts$/.test(f));
  await build({
    entryPoints: modules,
    outdir: out,
    outbase: SRC,
    bundle: false,
    format: 'esm',
    platform: 'node',
    // The oldest Node the package's engines field admits.
    target: 'node22',
    logLevel: 'error',
  });
  const assets = all.filter((f) => !/\.(ts|mts|cts)$/.test(f));
  for (const file of assets) {
    const target = path.join(out, path.relative(SRC, file));
    mkdirSync(path.dirname(target), { recursive: true });
    cpSync(file, target);
  }
  // The manifest `svc mcp` answers its first lists from, made from the compiled registry (src/mcp/manifest.ts), and
  // the light entry bin/svc.js runs first, bundled, with the steps `svc mcp` loads the rest in (src/cli/light.ts).
  // Each in a process of its own under plain Node: loading the registry leaves handles open (the script exits when
  // the manifest is written), and the test build runs this from Vitest's module runner.
  for (const [script, what] of [
    ['write-manifest.mjs', 'writing the MCP manifest'],
    ['bundle-light.mjs', 'bundling the light entry'],
  ]) {
    const step = spawnSync(process.execPath, [path.join(ROOT, 'scripts', script), out], {
      // Their errors (and the manifest's one line) on stderr.
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (step.status !== 0) throw new Error(`${what} of ${out} failed (exit ${step.status})`);
  }
  return { modules: modules.length, assets: assets.length };
}

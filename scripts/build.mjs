// Builds dist/: compiles src/ with tsconfig.build.json, then copies the
// non-TypeScript files the program loads at run time relative to its own
// module (worker scripts found through `new URL('./x.mjs', import.meta.url)`),
// keeping their place in the tree, writes the MCP manifest (dist/mcp/manifest.txt,
// scripts/write-manifest.mjs) and bundles the light entry (dist/cli/light.cjs,
// scripts/bundle-light.mjs). Plain Node: the copy is a handful of files and a
// library would add more than it saves.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const src = path.join(root, 'src');
const dist = path.join(root, 'dist');

rmSync(dist, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const result = spawnSync(process.execPath, [tsc, '-p', path.join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);

/**
 * Every file under src/ that is not TypeScript (run-time assets).
 * @param {string} dir
 * @returns {string[]}
 */
function assets(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return assets(full);
    return /\.(ts|mts|cts)$/.test(e.name) ? [] : [full];
  });
}

let copied = 0;
for (const file of assets(src)) {
  const target = path.join(dist, path.relative(src, file));
  mkdirSync(path.dirname(target), { recursive: true });
  cpSync(file, target);
  copied++;
}
process.stderr.write(`build: dist/ compiled, ${copied} run-time asset(s) copied\n`);

// The manifest `svc mcp` answers its first lists from, made from the compiled registry (src/mcp/manifest.ts).
const manifest = spawnSync(process.execPath, [path.join(root, 'scripts', 'write-manifest.mjs'), dist], {
  stdio: 'inherit',
});
if (manifest.status !== 0) process.exit(manifest.status ?? 1);

// The light entry bin/svc.js runs first, bundled, and the steps `svc mcp` loads the rest in (src/cli/light.ts).
const light = spawnSync(process.execPath, [path.join(root, 'scripts', 'bundle-light.mjs'), dist], { stdio: 'inherit' });
if (light.status !== 0) process.exit(light.status ?? 1);

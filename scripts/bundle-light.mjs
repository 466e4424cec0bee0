// The light entry of a compiled tree (src/cli/light.ts), made once the tree is compiled: by scripts/build.mjs for dist/
// and by the test build (test/global-build.ts).
//
// - <out>/cli/light.cjs, the module bin/svc.js runs first, is one bundled CommonJS file holding src/cli/light.ts and
//   everything it imports (the early stdio transport), and <out>/cli/light-lists.cjs, which it requires once
//   `initialize` is answered, another (the manifest's answers, the light key check, the data file's reader): `svc mcp`
//   answers `initialize` having read one file, and its first lists two, instead of some forty. The command line (../cli.js) stays outside,
//   loaded when they are done. version.ts, which reads package.json beside the tree, becomes its two values.
// - <out>/cli/load-steps.json lists, in the order Node evaluates them, the modules and packages `svc mcp` loads after
//   that, so the light entry can load them a few at a time and keep answering in between (loadInSteps there).
//
//   node scripts/bundle-light.mjs <compiled-src-dir>
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..');
const SRC = path.join(ROOT, 'src');

/** What `svc mcp` loads after the light entry, in the order it first needs it (src/cli.ts, then src/cli/mcp.ts...). */
const MCP_ENTRIES = ['cli.ts', 'cli/mcp.ts', 'core/process-guard.ts', 'mcp/stdio.ts', 'app.ts', 'tools/index.ts'];

/** What `import.meta.url` becomes in the CommonJS bundles: the bundle's own file URL. */
const IMPORT_META_URL = '__svcImportMetaUrl';

/**
 * Bundles the light entry into `<out>/cli/light.cjs` (and its lists into `light-lists.cjs`) and writes
 * `<out>/cli/load-steps.json`.
 * @param {string} out
 */
export async function bundleLight(out) {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  /** @type {import('esbuild').Plugin} */
  const plugin = {
    name: 'light-entry',
    setup(b) {
      // The command line, and the lists' file from the light entry, are loaded from the compiled tree beside it.
      b.onResolve({ filter: /^\.\.\/cli\.js$|^\.\/light-lists\.c?js$/ }, (args) =>
        args.importer.startsWith(path.join(SRC, 'cli')) ? { path: args.path, external: true } : undefined,
      );
      // The key check's SHA-256 (@noble/hashes) is bundled too: loaded as a package it costs as much as node:crypto.
      b.onResolve({ filter: /^@noble\/hashes\// }, (args) => ({ path: fileURLToPath(import.meta.resolve(args.path)) }));
      // So is ipaddr.js (the counters group an IPv6 client by its /64): 35 kB of plain CommonJS, parsed in the bundle
      // rather than resolved as a package.
      b.onResolve({ filter: /^ipaddr\.js$/ }, (args) => ({ path: fileURLToPath(import.meta.resolve(args.path)) }));
      b.onLoad({ filter: /[\\/]src[\\/]version\.ts$/ }, () => ({
        loader: 'ts',
        contents: `export const SERVICE_NAME = ${JSON.stringify(pkg.name)};\nexport const SERVICE_VERSION = ${JSON.stringify(pkg.version)};\n`,
      }));
    },
  };
  for (const entry of ['light', 'light-lists'])
    await build({
      entryPoints: [path.join(SRC, 'cli', `${entry}.ts`)],
      outfile: path.join(out, 'cli', `${entry}.cjs`),
      bundle: true,
      packages: 'external',
      // CommonJS: bin/svc.js requires it, so the first answers wait for no ES module loader (starting Node's takes a few
      // milliseconds, a sixth of the whole early answer on a fast machine). The program's modules are imported later.
      format: 'cjs',
      define: { 'import.meta.url': IMPORT_META_URL },
      banner: { js: `const ${IMPORT_META_URL} = require('node:url').pathToFileURL(__filename).href;` },
      platform: 'node',
      target: 'node22',
      logLevel: 'error',
      plugins: [plugin],
    });
  writeFileSync(path.join(out, 'cli', 'load-steps.json'), JSON.stringify(await loadSteps()));
}

/**
 * The modules of the program (as `./path.js` from the tree's root) and the packages (as imported) that `svc mcp` loads
 * statically from MCP_ENTRIES, each after what it imports: the order Node evaluates them in (the program has no import
 * cycles: `npm run lint` refuses them). Dynamic imports stay where they are, loaded when used.
 * @returns {Promise<string[]>}
 */
async function loadSteps() {
  const { metafile } = await build({
    entryPoints: MCP_ENTRIES.map((e) => path.join(SRC, e)),
    absWorkingDir: ROOT,
    bundle: true,
    packages: 'external',
    format: 'esm',
    platform: 'node',
    outdir: path.join(ROOT, 'out-unused'),
    write: false,
    metafile: true,
    logLevel: 'error',
  });
  /** @type {string[]} */
  const steps = [];
  const seen = new Set();
  /** @param {string} input a path from the project's root, as the metafile names it */
  const visit = (input) => {
    if (seen.has(input)) return;
    seen.add(input);
    for (const imp of metafile.inputs[input]?.imports ?? []) {
      if (imp.kind !== 'import-statement') continue;
      if (!imp.external) visit(imp.path);
      else if (!imp.path.startsWith('node:') && !seen.has(imp.path)) {
        seen.add(imp.path);
        steps.push(imp.path);
      }
    }
    if (/\.ts$/.test(input) && input.startsWith('src/'))
      steps.push(`./${path.relative('src', input).replaceAll(path.sep, '/').replace(/\.ts$/, '.js')}`);
  };
  // The light entry itself is loaded already.
  seen.add('src/cli/light.ts');
  seen.add('src/cli/light-lists.ts');
  for (const entry of MCP_ENTRIES) visit(`src/${entry}`);
  return steps;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await bundleLight(path.resolve(process.argv[2] ?? path.join(ROOT, 'dist')));
}

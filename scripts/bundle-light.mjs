// The light entry of a compiled tree (src/cli/light.ts), made once the tree is compiled: by scripts/build.mjs for dist/
// and by the test build (test/global-build.ts).
//
// - <out>/cli/light.cjs, the module bin/svc.js runs first, is one bundled CommonJS file holding src/cli/light.ts and
//   everything it imports (the early stdio transport), and <out>/cli/light-lists.cjs, which it requires once
//   `initialize` is answered, another (the manifest's answers, the light key check, the data file's reader): `svc mcp`
//   answers `initialize` having read one file, and its first lists two, instead of some forty. The command line (../cli.js) stays outside,
//   loaded when they are done. version.ts, which reads package.json beside the tree, becomes its two values.
// - <out>/cli/load-steps.json lists, in the order Node evaluates them, the modules and packages `svc mcp` loads after
//   that (a package of ES modules a module at a time), so the light entry can load them a few at a time and keep
//   answering in between (loadInSteps there).
//
//   node scripts/bundle-light.mjs <compiled-src-dir>
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..');
const SRC = path.join(ROOT, 'src');

/** What `svc mcp` loads after the light entry, in the order it first needs it (src/cli.ts, then src/cli/mcp.ts...). */
export const MCP_ENTRIES = [
  'cli.ts',
  'cli/mcp.ts',
  'core/process-guard.ts',
  'mcp/stdio.ts',
  'app.ts',
  'tools/index.ts',
];

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
 * cycles: `npm run lint` refuses them). Dynamic imports stay where they are, loaded when used. A package written as ES
 * modules comes in its own modules first (packageSteps): the MCP SDK's types with zod under them were one step of
 * about 100 ms, during which a list sent meanwhile waited.
 * @returns {Promise<LoadStep[]>}
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
  /** @type {LoadStep[]} */
  const steps = [];
  const seen = new Set();
  const inPackages = await packageSteps(externalImports(metafile));
  /** @param {string} input a path from the project's root, as the metafile names it */
  const visit = (input) => {
    if (seen.has(input)) return;
    seen.add(input);
    for (const imp of metafile.inputs[input]?.imports ?? []) {
      if (imp.kind !== 'import-statement') continue;
      if (!imp.external) visit(imp.path);
      else if (!imp.path.startsWith('node:') && !seen.has(imp.path)) {
        seen.add(imp.path);
        steps.push(...inPackages(imp.path), imp.path);
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

/**
 * A step of cli/load-steps.json: a module of the program (`./path.js`), a package as the program imports it, or one
 * module of a package (`file` from the package's folder) loaded ahead of it. src/cli/light.ts reads them.
 * @typedef {string | { package: string, file: string }} LoadStep
 */

/**
 * The packages the program's modules import statically, as they name them.
 * @param {import('esbuild').Metafile} metafile
 * @returns {string[]}
 */
function externalImports(metafile) {
  const found = new Set();
  for (const input of Object.values(metafile.inputs))
    for (const imp of input.imports)
      if (imp.kind === 'import-statement' && imp.external && !imp.path.startsWith('node:')) found.add(imp.path);
  return [...found];
}

/**
 * For each package the program imports, the modules of installed packages its import evaluates before the package's
 * own entry, in Node's order, each as a step of its own: the ES modules reached by static imports from the entry (a
 * CommonJS module is one step, its requires evaluated with it, since a require may sit in a function that never
 * runs). A module met under an earlier package is not listed again, nor a package's copy nested inside another's
 * folder (the light entry finds a package's folder from the program's). Resolved as Node resolves them (no "module"
 * condition or field): a step must load nothing the program would not. The answer lists them for one package at a
 * time: asked in the order the program first imports each, so that a module two packages share comes under the first.
 * @param {string[]} specifiers
 * @returns {Promise<(specifier: string) => LoadStep[]>}
 */
async function packageSteps(specifiers) {
  // Those that resolve to a file here (not a Node module named without `node:`).
  const entries = specifiers.flatMap((spec) => {
    const url = import.meta.resolve(spec);
    return url.startsWith('file:') ? [{ spec, file: fileURLToPath(url) }] : [];
  });
  const { metafile } = await build({
    entryPoints: entries.map((e) => e.file),
    absWorkingDir: ROOT,
    bundle: true,
    format: 'esm',
    platform: 'node',
    conditions: [],
    mainFields: ['main'],
    outdir: path.join(ROOT, 'out-unused'),
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const cyclic = inCycles(metafile);
  const seen = new Set();
  const files = new Map(entries.map((e) => [e.spec, e.file]));
  return (spec) => {
    const file = files.get(spec);
    if (file === undefined) return [];
    const entry = path.relative(ROOT, file).replaceAll(path.sep, '/');
    /** @type {LoadStep[]} */
    const steps = [];
    /** @param {string} input */
    const visit = (input) => {
      if (seen.has(input)) return;
      seen.add(input);
      const meta = metafile.inputs[input];
      if (meta?.format === 'esm')
        for (const imp of meta.imports) if (imp.kind === 'import-statement' && !imp.external) visit(imp.path);
      // Under the project's node_modules, or where its links lead (`npm pack` builds a copy whose node_modules is
      // linked to the project's), and in no package's own node_modules.
      const parts = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\/(.+)$/.exec(input);
      if (input !== entry && parts && input.split('node_modules/').length === 2 && !cyclic.has(input))
        steps.push({ package: parts[1], file: parts[2] });
    };
    visit(entry);
    return steps;
  };
}

/**
 * The ES modules that import themselves through others (Tarjan's strongly connected components of the static imports).
 * Such a module is not loaded as a step of its own: imported first, it would be evaluated before the cycle's other
 * modules rather than after them, as Node evaluates the cycle when entered from outside; it is evaluated with the
 * first step that reaches it, in the order Node gives it there. A module outside every cycle reaches none of the
 * modules that led to it, so loading it alone evaluates what the whole import would have, in the same order.
 * @param {import('esbuild').Metafile} metafile
 * @returns {Set<string>}
 */
function inCycles(metafile) {
  /** @param {string} input */
  const next = (input) => {
    const meta = metafile.inputs[input];
    return meta?.format === 'esm'
      ? meta.imports.filter((imp) => imp.kind === 'import-statement' && !imp.external).map((imp) => imp.path)
      : [];
  };
  /** @type {Map<string, number>} */
  const index = new Map();
  /** @type {Map<string, number>} */
  const low = new Map();
  /** @type {string[]} */
  const stack = [];
  const onStack = new Set();
  const cyclic = new Set();
  /** @param {string} v */
  const connect = (v) => {
    index.set(v, index.size);
    low.set(v, index.get(v));
    stack.push(v);
    onStack.add(v);
    for (const w of next(v)) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || next(v).includes(v)) for (const c of component) cyclic.add(c);
  };
  for (const input of Object.keys(metafile.inputs)) if (!index.has(input)) connect(input);
  return cyclic;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await bundleLight(path.resolve(process.argv[2] ?? path.join(ROOT, 'dist')));
}

// Bundles the embeddable wizard (Preact) and the SvcWizard SDK with esbuild, in
// memory: the service builds them on first request when dist/embed/ is missing
// or older than its sources (src/embed/assets.ts), and scripts/build-wizard.mjs
// writes them to dist/embed/. The same build makes the wizard as an MCP App:
// app.js (the wizard with the @modelcontextprotocol/ext-apps bridge instead of
// REST) inlined with the CSS into one document, app.html, served as the resource
// ui://svc/wizard. Plain JavaScript so that the build script runs it with Node
// alone; esbuild is loaded only when a build is asked for.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** The repository root, seen from src/embed/ or dist/embed/. */
const DEFAULT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Output file → entry point, relative to the repository root. */
export const ENTRIES = {
  'sdk.js': 'src/embed/sdk/sdk.ts',
  'wizard.js': 'src/embed/ui/main.ts',
  'wizard.css': 'src/embed/ui/wizard.css',
  'app.js': 'src/embed/app/main.ts',
};

/**
 * zod (brought by ext-apps) re-exports its ~40 message locales through the `z`
 * namespace the bridge imports, so the bundler keeps them all: about 40 kB
 * gzipped nobody uses (the English messages are imported on their own). The
 * locale index is replaced by an empty module in the app bundle.
 */
const noZodLocales = {
  name: 'no-zod-locales',
  setup(build) {
    build.onResolve({ filter: /locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]/.test(args.importer) ? { path: 'zod-locales', namespace: 'svc-empty' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'svc-empty' }, () => ({ contents: 'export {}', loader: 'js' }));
  },
};

/** The MCP App document: one self-contained HTML file (hosts render it in a sandboxed frame, with no other request). */
export function appDocument(js, css) {
  const text = (b) => Buffer.from(b).toString('utf8');
  // Inline code must not close its element early.
  const script = text(js).replace(/<\/(script)/gi, '<\\/$1');
  const style = text(css).replace(/<\/(style)/gi, '<\\/$1');
  return Buffer.from(
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
      `<title>Inheritance contract wizard</title><style>${style}</style></head>` +
      `<body><main id="svc-wizard" class="svc-wizard"><p>Loading the contract wizard…</p></main><script>${script}</script></body></html>`,
  );
}

/**
 * The App class of ext-apps extends the MCP SDK's Protocol and uses a few of its message schemas; it never builds a
 * Client. The SDK's packages do not declare themselves free of side effects, so the bundler kept everything their
 * entry modules import: the Client, OAuth helpers, the JSON Schema validator for tool outputs (about 20 kB gzipped).
 * Their modules only define classes, functions and schemas at load, so they are marked side-effect free here and
 * what the App does not reach is left out.
 */
const SDK_PACKAGE = /[\\/]@modelcontextprotocol[\\/](client|core)[\\/]/;
const sdkWithoutSideEffects = {
  name: 'sdk-without-side-effects',
  setup(build) {
    const mark = async (args) => {
      if (args.pluginData === 'sdk-resolved') return undefined;
      if (!args.path.startsWith('@modelcontextprotocol/') && !SDK_PACKAGE.test(args.importer)) return undefined;
      const r = await build.resolve(args.path, {
        kind: args.kind,
        resolveDir: args.resolveDir,
        importer: args.importer,
        pluginData: 'sdk-resolved',
      });
      if (r.errors.length || !SDK_PACKAGE.test(r.path)) return undefined;
      return { path: r.path, sideEffects: false };
    };
    build.onResolve({ filter: /^@modelcontextprotocol\/(client|core)(\/|$)/ }, mark);
    build.onResolve({ filter: /^\.\.?\// }, mark);
  },
};

/** Builds every file in memory: `{ name: { contents, gzipBytes } }`. */
export async function bundleWizard(root = DEFAULT_ROOT) {
  const esbuild = await import('esbuild');
  const files = {};
  for (const [name, entry] of Object.entries(ENTRIES)) {
    const result = await esbuild.build({
      entryPoints: [path.join(root, entry)],
      bundle: true,
      minify: true,
      write: false,
      legalComments: 'none',
      // The catalogues hold Arabic, French and Spanish text: written as UTF-8 (every file is served as such),
      // not as \u escapes, which would triple the Arabic one.
      charset: 'utf8',
      logLevel: 'silent',
      target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
      ...(name.endsWith('.js') ? { format: 'iife', platform: 'browser' } : {}),
      ...(name === 'app.js' ? { plugins: [noZodLocales, sdkWithoutSideEffects] } : {}),
      outfile: path.join(root, 'dist', 'embed', name),
    });
    const contents = result.outputFiles[0].contents;
    files[name] = { contents, gzipBytes: gzipSync(contents, { level: 9 }).length };
  }
  const html = appDocument(files['app.js'].contents, files['wizard.css'].contents);
  files['app.html'] = { contents: html, gzipBytes: gzipSync(html, { level: 9 }).length };
  return files;
}

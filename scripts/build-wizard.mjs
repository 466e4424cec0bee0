// Bundles the embeddable wizard (Preact) and the SvcWizard SDK with esbuild into
// dist/embed/, prints their sizes and fails when the SDK is over its budget
// (issue 17: 5 kB gzipped). `npm run build:wizard`; `prepare` runs it on `npm ci`.
// The server imports `bundleWizard` to build in memory when dist/embed is missing.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';

export const SDK_BUDGET_GZIP_BYTES = 5 * 1024;

/** Output file → entry point, relative to the repository root. */
export const ENTRIES = {
  'sdk.js': 'src/embed/sdk/sdk.ts',
  'wizard.js': 'src/embed/ui/main.ts',
  'wizard.css': 'src/embed/ui/wizard.css',
};

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const OUT_DIR = path.join(ROOT, 'dist', 'embed');

/** Builds every file in memory: `{ name: { contents, gzipBytes } }`. */
export async function bundleWizard(root = ROOT) {
  const esbuild = await import('esbuild');
  const files = {};
  for (const [name, entry] of Object.entries(ENTRIES)) {
    const result = await esbuild.build({
      entryPoints: [path.join(root, entry)],
      bundle: true,
      minify: true,
      write: false,
      legalComments: 'none',
      logLevel: 'silent',
      target: ['es2020', 'chrome100', 'firefox100', 'safari15'],
      ...(name.endsWith('.js') ? { format: 'iife', platform: 'browser' } : {}),
      outfile: path.join(root, 'dist', 'embed', name),
    });
    const contents = result.outputFiles[0].contents;
    files[name] = { contents, gzipBytes: gzipSync(contents, { level: 9 }).length };
  }
  return files;
}

async function main() {
  const files = await bundleWizard();
  await mkdir(OUT_DIR, { recursive: true });
  for (const [name, file] of Object.entries(files)) {
    await writeFile(path.join(OUT_DIR, name), file.contents);
    process.stdout.write(`dist/embed/${name.padEnd(11)} ${String(file.contents.length).padStart(7)} bytes, ${String(file.gzipBytes).padStart(6)} gzipped\n`);
  }
  const sdk = files['sdk.js'].gzipBytes;
  if (sdk > SDK_BUDGET_GZIP_BYTES) {
    process.stderr.write(`SDK is ${sdk} bytes gzipped, over its budget of ${SDK_BUDGET_GZIP_BYTES} bytes\n`);
    process.exit(1);
  }
  process.stdout.write(`SDK budget: ${sdk} of ${SDK_BUDGET_GZIP_BYTES} bytes gzipped\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((err) => {
    process.stderr.write(`build:wizard failed: ${err?.message ?? err}\n`);
    process.exit(1);
  });
}

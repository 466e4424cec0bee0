// Writes the embeddable wizard, the SvcWizard SDK and the wizard as an MCP App
// (src/embed/bundle.mjs builds them) to dist/embed/, prints their sizes and fails
// when the SDK or the MCP App document is over its budget (the SDK: 5 kB
// gzipped). `npm run build:wizard`; `prepare` runs it on `npm ci`.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleWizard } from '../src/embed/bundle.mjs';

export { appDocument, bundleWizard, ENTRIES } from '../src/embed/bundle.mjs';

export const SDK_BUDGET_GZIP_BYTES = 5 * 1024;
/**
 * The MCP App document (wizard, Preact, the ext-apps App class and the MCP protocol code with zod it brings), and
 * the wizard's words in four languages (about 10 kB gzipped: one document, so every catalogue is in it). zod is the
 * largest part (about 190 kB minified); the SDK's Client, OAuth and output validator are left out by the bundle
 * (src/embed/bundle.mjs), which keeps the document near 123 KiB and leaves room for more words.
 * The law's findings are said in the reader's language too (src/core/messages/law-words-*.ts), a rule adding some
 * 400 to 500 bytes in the four: the budget was 144 KiB until the spouse's usufruct (Spain, Belgium) filled it.
 */
export const APP_BUDGET_GZIP_BYTES = 146 * 1024;

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const OUT_DIR = path.join(ROOT, 'dist', 'embed');

async function main() {
  const files = await bundleWizard();
  await mkdir(OUT_DIR, { recursive: true });
  for (const [name, file] of Object.entries(files)) {
    await writeFile(path.join(OUT_DIR, name), file.contents);
    process.stdout.write(
      `dist/embed/${name.padEnd(11)} ${String(file.contents.length).padStart(7)} bytes, ${String(file.gzipBytes).padStart(6)} gzipped\n`,
    );
  }
  const sdk = files['sdk.js'].gzipBytes;
  if (sdk > SDK_BUDGET_GZIP_BYTES) {
    process.stderr.write(`SDK is ${sdk} bytes gzipped, over its budget of ${SDK_BUDGET_GZIP_BYTES} bytes\n`);
    process.exit(1);
  }
  process.stdout.write(`SDK budget: ${sdk} of ${SDK_BUDGET_GZIP_BYTES} bytes gzipped\n`);
  const app = files['app.html'].gzipBytes;
  if (app > APP_BUDGET_GZIP_BYTES) {
    process.stderr.write(
      `MCP App document is ${app} bytes gzipped, over its budget of ${APP_BUDGET_GZIP_BYTES} bytes\n`,
    );
    process.exit(1);
  }
  process.stdout.write(`MCP App budget: ${app} of ${APP_BUDGET_GZIP_BYTES} bytes gzipped\n`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((err) => {
    process.stderr.write(`build:wizard failed: ${err?.message ?? err}\n`);
    process.exit(1);
  });
}

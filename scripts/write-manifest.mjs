// Writes the MCP manifest (src/mcp/manifest.ts) of a compiled tree: loads its registry through
// <out>/mcp/manifest-source.js and writes <out>/mcp/manifest.txt, which `svc mcp` answers its first lists from.
// Run by scripts/build.mjs for dist/ and by the test build (test/global-build.ts).
//
//   node scripts/write-manifest.mjs <compiled-src-dir>
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const out = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..', 'dist'));
const { buildManifest } = await import(pathToFileURL(path.join(out, 'mcp', 'manifest-source.js')).href);
const { encodeManifest } = await import(pathToFileURL(path.join(out, 'mcp', 'manifest.js')).href);
const manifest = buildManifest();
writeFileSync(path.join(out, 'mcp', 'manifest.txt'), encodeManifest(manifest));
process.stderr.write(
  `manifest: ${manifest.tools.length} tools written to ${path.relative(process.cwd(), out)}/mcp/manifest.txt\n`,
);
// The registry may leave handles open (pools, timers): the manifest is written, so stop here.
process.exit(0);

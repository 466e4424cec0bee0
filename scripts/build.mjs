// Builds dist/, the program the package ships and `svc` runs: src/ compiled by scripts/compile.mjs (esbuild, file by
// file; `npm run typecheck` is where types are checked), its run-time assets copied, the MCP manifest written and the
// light entry bundled.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { compileTree } from './compile.mjs';

const dist = path.resolve(import.meta.dirname, '..', 'dist');
rmSync(dist, { recursive: true, force: true });
const { modules, assets } = await compileTree(dist);
process.stderr.write(`build: dist/ compiled (${modules} modules), ${assets} run-time asset(s) copied\n`);

// Regenerates the README's tool table from the registry: `npm run gen:readme`.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TOOLS } from '../src/tools/index.js';
import { renderToolTable, replaceToolTable } from '../src/tools/table.js';

const file = path.resolve(import.meta.dirname, '..', 'README.md');
const before = readFileSync(file, 'utf8');
const after = replaceToolTable(before, renderToolTable(TOOLS));
if (after !== before) writeFileSync(file, after);
process.stderr.write(after === before ? 'README tool table is up to date\n' : 'README tool table regenerated\n');

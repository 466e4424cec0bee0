import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TOOLS } from '../src/tools/index.js';
import { renderToolTable, replaceToolTable, TABLE_END, TABLE_START } from '../src/tools/table.js';
import { REPO_ROOT } from './helpers.js';

const readme = readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');

describe('README', () => {
  it('has the tool table generated from the registry (run `npm run gen:readme` when this fails)', () => {
    const start = readme.indexOf(TABLE_START);
    const end = readme.indexOf(TABLE_END) + TABLE_END.length;
    expect(start).toBeGreaterThan(0);
    expect(readme.slice(start, end)).toBe(renderToolTable(TOOLS));
    for (const tool of TOOLS) expect(readme).toContain(`\`${tool.name}\``);
  });

  it('notices a stale table', () => {
    const stale = replaceToolTable(readme, renderToolTable(TOOLS.slice(1)));
    expect(stale).not.toBe(readme);
  });

  it('gives the two quick-start commands, and .ci/run installs, runs the lint gate, then the tests', () => {
    expect(readme).toMatch(/npm ci && npm start/);
    expect(readme).toMatch(/npm ci && npm test/);
    const ci = readFileSync(path.join(REPO_ROOT, '.ci', 'run'), 'utf8').split('\n');
    const at = (command: string) => ci.indexOf(command);
    expect(at('npm ci')).toBeGreaterThan(-1);
    expect(at('npm run lint')).toBeGreaterThan(at('npm ci'));
    expect(at('npm test')).toBeGreaterThan(at('npm run lint'));
  });
});

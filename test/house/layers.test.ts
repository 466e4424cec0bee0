import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, rm, symlink, writeFile, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The layer rules of .dependency-cruiser.cjs (docs/architecture.md): the gate must fail on an upward import, a cycle,
 * a domain importing a transport framework. The real src/ passes them in the lint gate (`npm run lint:layers`, run by
 * .ci/run before the tests), which cruises the same tree with the same rules: cruising it here too cost the suite
 * some 8 s of a core for the same answer.
 *
 * dependency-cruiser needs Node 22 or later, so it runs under the Node 24 binary of the `node` devDependency whatever
 * Node runs this file.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const NODE24 = path.join(ROOT, 'node_modules', 'node', 'bin', 'node');
const CRUISER = path.join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruiser.mjs');
const CONFIG = path.join(ROOT, '.dependency-cruiser.cjs');

interface Violation {
  from: string;
  to: string;
  rule: { name: string; severity: string };
}

/** Runs dependency-cruiser with the project's rules on `dir`'s src/ and returns the violations it reports. */
async function cruise(dir: string): Promise<Violation[]> {
  const args = [CRUISER, 'src', '--config', CONFIG, '--output-type', 'json'];
  const { stdout } = await promisify(execFile)(NODE24, args, { cwd: dir, maxBuffer: 64 * 1024 * 1024 }).catch(
    // Violations make it exit non-zero; the report is still on stdout.
    (err: { stdout?: string; stderr?: string }) => {
      if (!err.stdout) throw new Error(`dependency-cruiser failed: ${err.stderr ?? String(err)}`);
      return { stdout: err.stdout };
    },
  );
  const report = JSON.parse(stdout) as { summary: { violations: Violation[] } };
  return report.summary.violations;
}

const brief = (vs: Violation[]) => vs.map((v) => `${v.rule.name}: ${v.from} -> ${v.to}`).sort();

describe('layer rules on a planted tree', () => {
  let dir: string;
  let violations: Violation[];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'svc-layers-'));
    const files: Record<string, string> = {
      // an upward import: core reaching the tool layer
      'src/core/a.ts': "import { b } from '../tools/b.js';\nexport const a = b + 1;\n",
      'src/tools/b.ts': 'export const b = 1;\n',
      // a cycle inside one layer
      'src/law/c.ts': "import { d } from './d.js';\nexport const c = (): number => d();\n",
      'src/law/d.ts': "import { c } from './c.js';\nexport const d = (): number => c();\n",
      // a domain importing another domain outside its named interface
      'src/webhooks/e.ts': "import { f } from '../memoir/f.js';\nexport const e = f;\n",
      'src/memoir/f.ts': 'export const f = 1;\n',
      // a domain importing the HTTP framework
      'src/credits/g.ts': "import fastify from 'fastify';\nexport const g = fastify;\n",
      // the same imports where the layers allow them: no violation expected
      'src/tools/h.ts':
        "import { a } from '../core/a.js';\nimport { f } from '../memoir/f.js';\nexport const h = a + f;\n",
      'src/http/i.ts': "import fastify from 'fastify';\nexport const i = fastify;\n",
      'src/contracts/j.ts': "import { c } from '../law/c.js';\nexport const j = c;\n",
      // packages: one the package.json does not list (fastify brings it), a development tool at run time, and the
      // same tool for its types only (allowed)
      'src/tools/k.ts': "import avvio from 'avvio';\nexport const k = avvio;\n",
      'src/tools/l.ts': "import fc from 'fast-check';\nexport const l = fc;\n",
      'src/tools/m.ts': "import type { Arbitrary } from 'fast-check';\nexport type M = Arbitrary<number>;\n",
      'package.json': JSON.stringify({
        name: 'planted',
        version: '1.0.0',
        dependencies: { fastify: '*' },
        devDependencies: { 'fast-check': '*' },
      }),
    };
    for (const [file, text] of Object.entries(files)) {
      await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await writeFile(path.join(dir, file), text);
    }
    await copyFile(path.join(ROOT, 'tsconfig.json'), path.join(dir, 'tsconfig.json'));
    await symlink(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
    violations = await cruise(dir);
  });

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('reports an import from a lower layer to a higher one', () => {
    expect(brief(violations)).toContain('layer-core-imports-upward: src/core/a.ts -> src/tools/b.ts');
  });

  it('reports a cycle', () => {
    expect(violations.some((v) => v.rule.name === 'no-circular' && v.from === 'src/law/c.ts')).toBe(true);
  });

  it('reports a domain reaching a sibling outside the named interfaces', () => {
    expect(brief(violations)).toContain('domain-webhooks-imports-sibling: src/webhooks/e.ts -> src/memoir/f.ts');
  });

  it('reports a domain importing Fastify', () => {
    const hit = violations.find((v) => v.rule.name === 'framework-only-in-transports');
    expect(hit?.from).toBe('src/credits/g.ts');
    expect(hit?.to).toMatch(/node_modules\/fastify\//);
  });

  it('reports a package the package.json does not list, and a development dependency at run time', () => {
    const unlisted = violations.find((v) => v.rule.name === 'packages-from-package-json');
    expect(unlisted?.from).toBe('src/tools/k.ts');
    expect(unlisted?.to).toMatch(/node_modules\/avvio\//);
    expect(
      violations.some((v) => v.rule.name === 'no-dev-dependencies-at-run-time' && v.from === 'src/tools/l.ts'),
    ).toBe(true);
  });

  it('reports nothing for imports the layers allow', () => {
    const allowed = ['src/tools/h.ts', 'src/http/i.ts', 'src/contracts/j.ts', 'src/tools/m.ts'];
    expect(violations.filter((v) => allowed.includes(v.from))).toEqual([]);
  });
});

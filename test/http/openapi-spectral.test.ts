import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, startTestServer, type TestServer } from '../helpers.js';

// The served OpenAPI document against Spectral's OWASP API security ruleset (.spectral.yaml: the ruleset, plus the
// overrides where a rule cannot describe this service truthfully, each with its reason). 0 errors; the warnings that
// remain are printed by rule.

const run = promisify(execFile);

interface Finding {
  code: string;
  severity: number;
  path: string[];
  message: string;
}

let server: TestServer;
let dir: string;

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  // Inside the repository (not /tmp): the ruleset's overrides name files relative to it, and `**` skips dot folders.
  dir = await mkdtemp(path.join(REPO_ROOT, 'node_modules', 'spectral-lint-'));
});

afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('OpenAPI document and the OWASP API security ruleset', () => {
  it('has no error under spectral lint with .spectral.yaml', async () => {
    const res = await server.app.inject({ url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const file = path.join(dir, 'openapi.json');
    await writeFile(file, res.body);
    const bin = path.join(REPO_ROOT, 'node_modules', '.bin', 'spectral');
    // spectral exits 1 when it finds errors (or warnings, with the default fail severity); the JSON output decides here.
    const out = await run(
      bin,
      [
        'lint',
        file,
        '--ruleset',
        path.join(REPO_ROOT, '.spectral.yaml'),
        '--format',
        'json',
        '--quiet',
        '--fail-severity',
        'error',
      ],
      {
        cwd: REPO_ROOT,
        maxBuffer: 64 * 1024 * 1024,
      },
    ).catch((err: { stdout?: string; stderr?: string }) => ({ stdout: err.stdout ?? '', stderr: err.stderr ?? '' }));
    let findings: Finding[];
    try {
      findings = JSON.parse(out.stdout) as Finding[];
    } catch {
      throw new Error(`spectral printed no JSON: ${out.stdout.slice(0, 500)} ${out.stderr.slice(0, 2000)}`);
    }
    const errors = findings.filter((f) => f.severity === 0);
    const byRule = new Map<string, number>();
    for (const f of findings) {
      const rule = `${f.severity === 0 ? 'error' : f.severity === 1 ? 'warning' : 'info'} ${f.code}`;
      byRule.set(rule, (byRule.get(rule) ?? 0) + 1);
    }
    console.error(`spectral (OWASP): ${[...byRule].map(([rule, n]) => `${rule}: ${n}`).join(', ') || 'nothing'}`);
    expect(errors.map((e) => `${e.code} at ${e.path.join('/')}: ${e.message}`)).toEqual([]);
    // The ruleset really ran: the OWASP rules report something on a document of this size (warnings at least).
    expect(findings.every((f) => f.code.startsWith('owasp:'))).toBe(true);
    expect(findings.length).toBeGreaterThan(0);
  }, 120_000);
});

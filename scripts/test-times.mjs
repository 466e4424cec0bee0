// Times the test suite as the README states it: the whole suite (`npm test`) and the unit project
// (`npm run test:unit`), each run from start to end, and prints both durations with the slowest files, and the files
// that took the most CPU, their own and their programs' (test/support/cpu-account.ts).
//
//   node scripts/test-times.mjs            both runs, the unit project first
//   node scripts/test-times.mjs unit       the unit project only
//   node scripts/test-times.mjs suite      the whole suite only
//   node scripts/test-times.mjs unit test/law    further arguments go to vitest (e.g. a sample of files)
//
// The exit code is the first failing run's (the durations are printed either way). The figures depend on the
// machine and on what else runs on it: compare them on an otherwise idle machine of the same kind.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const vitest = path.join(root, 'node_modules', 'vitest', 'vitest.mjs');
const which = process.argv[2] ?? 'both';
const extra = process.argv.slice(3);
if (!['both', 'unit', 'suite'].includes(which)) {
  process.stderr.write('usage: node scripts/test-times.mjs [both|unit|suite] [vitest arguments...]\n');
  process.exit(2);
}

const RUNS = [
  { key: 'unit', label: 'npm run test:unit', args: ['run', '--project', 'unit'] },
  { key: 'suite', label: 'npm test', args: ['run'] },
].filter((r) => which === 'both' || which === r.key);

const tmp = mkdtempSync(path.join(os.tmpdir(), 'svc-test-times-'));

/**
 * The part of vitest's JSON report read here.
 * @typedef {{ numTotalTests?: number, testResults?: Array<{ name: string, startTime: number, endTime: number }> }} Report
 */

/**
 * Runs vitest with its usual output plus a JSON report; resolves with the exit code, seconds and the report.
 * @param {{ key: string, args: string[] }} run
 * @returns {Promise<{ code: number, seconds: number, json: Report | undefined, cpu: string }>}
 */
function run({ key, args }) {
  const report = path.join(tmp, `${key}.json`);
  const cpuLog = path.join(tmp, `${key}-cpu.tsv`);
  const started = performance.now();
  const child = spawn(
    process.execPath,
    [vitest, ...args, ...extra, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, SVC_TEST_CPU_LOG: cpuLog },
    },
  );
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      const seconds = (performance.now() - started) / 1000;
      /** @type {Report | undefined} */
      let json;
      try {
        json = JSON.parse(readFileSync(report, 'utf8'));
      } catch {
        json = undefined;
      }
      let cpu = '';
      try {
        cpu = readFileSync(cpuLog, 'utf8');
      } catch {
        // no test file ran
      }
      resolve({ code: code ?? (signal ? 1 : 0), seconds, json, cpu });
    });
  });
}

/** @param {number} s */
const minutes = (s) => `${Math.floor(s / 60)} min ${String(Math.round(s % 60)).padStart(2, '0')} s`;

const results = [];
for (const r of RUNS) results.push({ ...r, ...(await run(r)) });
rmSync(tmp, { recursive: true, force: true });

const lines = [
  '',
  `Test times on ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ${os.availableParallelism()} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}):`,
];
for (const r of results) {
  const files = r.json?.testResults?.length ?? '?';
  const tests = r.json?.numTotalTests ?? '?';
  lines.push(
    `  ${`${r.label}${extra.length ? ` -- ${extra.join(' ')}` : ''}`.padEnd(18)} ${minutes(r.seconds).padStart(12)}  (${files} files, ${tests} tests, ${r.code === 0 ? 'passed' : `FAILED, exit ${r.code}`})`,
  );
}
for (const r of results) {
  const slowest = (r.json?.testResults ?? [])
    .map((t) => ({ file: path.relative(root, t.name), seconds: (t.endTime - t.startTime) / 1000 }))
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, 8);
  if (!slowest.length) continue;
  lines.push(`  slowest files of \`${r.label}\` (time in their tests, without loading):`);
  for (const s of slowest) lines.push(`    ${s.seconds.toFixed(1).padStart(7)} s  ${s.file}`);
}
for (const r of results) {
  const files = r.cpu
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [file = '?', , own = '0', children = '0'] = line.split('\t');
      return { file, own: Number(own), children: Number(children) };
    });
  if (!files.length) continue;
  const total = files.reduce((sum, f) => sum + f.own + f.children, 0);
  const programs = files.reduce((sum, f) => sum + f.children, 0);
  lines.push(
    `  CPU of \`${r.label}\`'s test files: ${total.toFixed(0)} s, ${programs.toFixed(0)} s of it in the programs they started; the most:`,
  );
  for (const f of files.sort((a, b) => b.own + b.children - (a.own + a.children)).slice(0, 12))
    lines.push(
      `    ${(f.own + f.children).toFixed(1).padStart(7)} s  ${f.file}${f.children >= 0.05 ? ` (${f.children.toFixed(1)} s in its programs)` : ''}`,
    );
}
process.stdout.write(`${lines.join('\n')}\n`);
process.exitCode = results.find((r) => r.code !== 0)?.code ?? 0;

/**
 * Running the `svc` program as a user would, for the tests that spawn it.
 * Every spawned process gets the test process's environment without the
 * service's own settings (SVC_*, STRIPE_*), so nothing from the developer's
 * shell leaks in. SVC_DEV and SVC_BUILD_DIR stay: they say which program runs (the
 * suite's fresh build of src/, test/global-build.ts), never a possibly stale dist/; so does SVC_WARM_ENGINES.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { svcArgs } from '../helpers.js';

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The SVC_* variables the suite sets for every `svc` it starts (vitest.config.ts, test/global-build.ts), kept: which
 * program runs, and no engine warm-up in short-lived processes.
 */
const PROGRAM_VARS = new Set(['SVC_DEV', 'SVC_BUILD_DIR', 'SVC_WARM_ENGINES']);

export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined) continue;
    if ((k.startsWith('SVC_') && !PROGRAM_VARS.has(k)) || k.startsWith('STRIPE_')) continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

/** Runs `svc ...args` to its end. */
export function runSvc(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, svcArgs(...args), { env: cleanEnv(env) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface Served {
  child: ChildProcessWithoutNullStreams;
  url: string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Starts `svc serve` on a free port and resolves with its URL once it listens. */
export function startServe(dataDir: string, env: Record<string, string> = {}): Promise<Served> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, svcArgs('serve', '--port', '0', '--data-dir', dataDir), {
      env: cleanEnv(env),
    });
    let stderr = '';
    const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
    child.stderr.on('data', (d) => {
      stderr += d;
      const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
      if (m) resolve({ child, url: m[1]!, stderr: () => stderr, exited });
    });
    void exited.then((code) => reject(new Error(`svc serve exited early (${code}): ${stderr}`)));
  });
}

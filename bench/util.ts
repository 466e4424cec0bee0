import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { processThreads } from '../test/support/threads.js';

/** True when the module at `metaUrl` is the script being run (`npx tsx bench/x.ts`). */
export function isMain(metaUrl: string): boolean {
  return Boolean(process.argv[1]) && path.resolve(process.argv[1]!) === fileURLToPath(metaUrl);
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

/** The middle value (the upper one of an even count). */
export function median(xs: readonly number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}

export function fmt(n: number, digits = 2): string {
  return n.toFixed(digits);
}

/** How the `svc` command starts node: the environment its first line sets, and node's flags. */
export interface SvcRuntime {
  /** Variables set for the process (`NAME=value` before `node` on the line), such as the C library's malloc's. */
  env: Record<string, string>;
  flags: string[];
}

/**
 * The runtime of the `svc` command, read from its first line (`#!/usr/bin/env -S [NAME=value...] node [flags]`), so
 * that a benchmark measures the runtime the service has (bench/index.ts runs under it).
 */
export function svcRuntime(binFile = fileURLToPath(new URL('../bin/svc.js', import.meta.url))): SvcRuntime {
  const first = readFileSync(binFile, 'utf8').split('\n', 1)[0] ?? '';
  const m = /^#!\/usr\/bin\/env(?: -S)?((?: [A-Z_][A-Z0-9_]*=\S+)*) node((?: \S+)*)\s*$/.exec(first);
  if (!m) throw new Error(`${binFile}: the first line is not "#!/usr/bin/env [-S] [NAME=value...] node [flags]"`);
  const env: Record<string, string> = {};
  for (const pair of m[1]!.split(' ').filter(Boolean)) {
    const at = pair.indexOf('=');
    env[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return { env, flags: m[2]!.split(' ').filter(Boolean) };
}

/** The node flags the `svc` command runs with (see svcRuntime). */
export function svcNodeFlags(binFile?: string): string[] {
  return svcRuntime(binFile).flags;
}

/**
 * The calling thread's CPU time, as process.cpuUsage is the process's. Node 23.9 and later have it (`npm run bench`
 * runs on the `node` dependency, 24); the @types/node the project builds against (20) does not declare it.
 */
export function threadCpuUsage(previous?: NodeJS.CpuUsage): NodeJS.CpuUsage {
  const usage = (process as unknown as { threadCpuUsage?: (p?: NodeJS.CpuUsage) => NodeJS.CpuUsage }).threadCpuUsage;
  if (!usage) throw new Error(`process.threadCpuUsage needs Node 23.9 or later (this is ${process.version})`);
  return usage.call(process, previous);
}

/** CPU time (µs) of the process's threads so far, summed by the name the system shows (test/support/threads.ts). */
export function cpuByThreadName(): Map<string, number> {
  const byName = new Map<string, number>();
  for (const { name, cpuUs } of processThreads()) byName.set(name, (byName.get(name) ?? 0) + cpuUs);
  return byName;
}

/** What each thread name used between two readings of cpuByThreadName. */
export function cpuSince(before: Map<string, number>, after: Map<string, number>): Map<string, number> {
  const used = new Map<string, number>();
  for (const [name, now] of after) used.set(name, now - (before.get(name) ?? 0));
  return used;
}

/**
 * Compares two CPU profiles per unit of work: where the service spends more time than its baseline, function by
 * function. Each side is a folder of `.cpuprofile` files written by `node --cpu-prof --cpu-prof-dir=DIR`; its main
 * thread's profile is read (thread id 0 in Node's file name; other threads, such as the store's writer, have their
 * own). Times are divided by the units of work each side did (deliveries, requests), so two runs of different length
 * compare. Idle time is left out of the totals.
 *
 *   npx tsx scripts/profile-diff.ts DIR_A UNITS_A DIR_B UNITS_B [--inclusive] [--by=file] [--filter=TEXT] [--top=N]
 *
 * --inclusive counts a function with everything it called (each sample once per function on its stack), rather than
 * its own time; --by=file sums per script; --filter keeps rows whose name contains TEXT. docs/architecture.md ("How
 * the figures were taken apart") shows a run: the webhooks and REST benches run one side alone (BENCH_WEBHOOKS_ONLY,
 * BENCH_REST_ONLY) under the profiler's flags.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

export interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

/** The parts of V8's profile format this reads. */
export interface CpuProfile {
  nodes: Array<{ id: number; callFrame: CallFrame; children?: number[] }>;
  samples: number[];
  /** Microseconds before each sample. */
  timeDeltas: number[];
}

export type Grouping = 'function' | 'file';

/** Samples that are not work: the thread waiting. */
const IDLE = '(idle)';

/** A short name for a frame's script: package paths from node_modules on, the compiled tree's paths from dist/ on. */
function scriptOf(url: string): string {
  const packages = url.lastIndexOf('/node_modules/');
  if (packages >= 0) return url.slice(packages + '/node_modules/'.length);
  const dist = url.lastIndexOf('/dist/');
  if (dist >= 0) return url.slice(dist + 1);
  return url.replace(/^file:\/\//, '');
}

export function labelOf(frame: CallFrame, by: Grouping): string {
  const script = scriptOf(frame.url);
  const name = frame.functionName || '(anonymous)';
  // V8's own entries, (idle), (program), (garbage collector), come parenthesized; native functions are put so.
  const bare = name.startsWith('(') ? name : `(${name})`;
  if (by === 'file') return script || bare;
  return script ? `${name} ${script}:${frame.lineNumber + 1}` : bare;
}

/**
 * Microseconds per label: a function's own samples, or with `inclusive` every sample taken while it was on the stack
 * (counted once per label, however deep its recursion).
 */
export function timesByLabel(profile: CpuProfile, by: Grouping, inclusive: boolean): Map<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n.id);
  const perNode = new Map<number, number>();
  profile.samples.forEach((id, i) => perNode.set(id, (perNode.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const out = new Map<string, number>();
  for (const [id, micros] of perNode) {
    if (!inclusive) {
      const label = labelOf(byId.get(id)!.callFrame, by);
      out.set(label, (out.get(label) ?? 0) + micros);
      continue;
    }
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const label = labelOf(byId.get(at)!.callFrame, by);
      if (seen.has(label)) continue;
      seen.add(label);
      out.set(label, (out.get(label) ?? 0) + micros);
    }
  }
  return out;
}

export interface Row {
  label: string;
  /** Microseconds per unit of work on each side. */
  a: number;
  b: number;
}

/** Both sides per unit of work, the largest differences first. */
export function compare(a: Map<string, number>, unitsA: number, b: Map<string, number>, unitsB: number): Row[] {
  const labels = new Set([...a.keys(), ...b.keys()]);
  const rows = [...labels].map((label) => ({
    label,
    a: (a.get(label) ?? 0) / unitsA,
    b: (b.get(label) ?? 0) / unitsB,
  }));
  return rows.sort((x, y) => Math.abs(y.b - y.a) - Math.abs(x.b - x.a) || x.label.localeCompare(y.label));
}

/** The busy time (idle left out) of self times per unit of work. */
export function busyPerUnit(selfTimes: Map<string, number>, units: number): number {
  let total = 0;
  for (const [label, micros] of selfTimes) if (label !== IDLE) total += micros;
  return total / units;
}

/**
 * The main thread's profile in a folder written by --cpu-prof-dir (Node names each CPU.<date>.<time>.<pid>.<tid>.<n>).
 * Of several processes' (tsx starts node twice, and NODE_OPTIONS reaches both), the one with the most samples.
 */
export function mainThreadProfile(dir: string): CpuProfile {
  const files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile') && f.split('.')[4] === '0');
  if (files.length === 0) throw new Error(`${dir}: no main-thread profile (thread id 0 in its name)`);
  const profiles = files.map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')) as CpuProfile);
  return profiles.reduce((best, p) => (p.samples.length > best.samples.length ? p : best));
}

function main(argv: string[]): void {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      inclusive: { type: 'boolean', default: false },
      by: { type: 'string', default: 'function' },
      filter: { type: 'string', default: '' },
      top: { type: 'string', default: '40' },
    },
  });
  const [dirA, unitsA, dirB, unitsB] = positionals;
  const units = [Number(unitsA), Number(unitsB)];
  if (!dirA || !dirB || !units.every((n) => Number.isFinite(n) && n > 0) || !['function', 'file'].includes(values.by)) {
    console.error(
      'usage: profile-diff DIR_A UNITS_A DIR_B UNITS_B [--inclusive] [--by=function|file] [--filter=TEXT] [--top=N]',
    );
    process.exitCode = 2;
    return;
  }
  const by = values.by as Grouping;
  const [a, b] = [mainThreadProfile(dirA), mainThreadProfile(dirB)];
  const [selfA, selfB] = [timesByLabel(a, by, false), timesByLabel(b, by, false)];
  console.log(
    `busy per unit (idle left out): A ${busyPerUnit(selfA, units[0]!).toFixed(1)} µs, B ${busyPerUnit(selfB, units[1]!).toFixed(1)} µs`,
  );
  const rows = values.inclusive
    ? compare(timesByLabel(a, by, true), units[0]!, timesByLabel(b, by, true), units[1]!)
    : compare(selfA, units[0]!, selfB, units[1]!);
  console.log(
    `${'A µs'.padStart(8)} ${'B µs'.padStart(8)} ${'B - A'.padStart(8)}  ${values.inclusive ? 'inclusive' : 'self'}`,
  );
  for (const r of rows.filter((row) => row.label.includes(values.filter)).slice(0, Number(values.top)))
    console.log(
      `${r.a.toFixed(2).padStart(8)} ${r.b.toFixed(2).padStart(8)} ${(r.b - r.a).toFixed(2).padStart(8)}  ${r.label}`,
    );
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename))
  main(process.argv.slice(2));

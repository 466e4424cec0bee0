import { readdirSync, readFileSync } from 'node:fs';

/** Whether this system lists a process's threads with their names (/proc on Linux). */
export const threadNamesShown = (() => {
  try {
    readdirSync('/proc/self/task');
    return true;
  } catch {
    return false;
  }
})();

/** The clock ticks per second /proc counts CPU time in (USER_HZ: 100 on Linux's usual builds). */
const CLOCK_TICKS = 100;

/**
 * This process's threads as the system shows them (`top -H`, `ps -L`), each with its name (`MainThread`,
 * `svc-sender`, `svc-writer`, `V8Worker` for V8's collector and compiler helpers, ...) and the CPU time it has used,
 * in microseconds, from /proc/self/task. Empty where there is no /proc (not Linux).
 */
export function processThreads(): Array<{ name: string; cpuUs: number }> {
  let tasks: string[];
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    return [];
  }
  const threads: Array<{ name: string; cpuUs: number }> = [];
  for (const task of tasks) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    // "pid (name) state ...": the name may hold spaces and parentheses, so split after the last ')'.
    const close = stat.lastIndexOf(')');
    const fields = stat.slice(close + 2).split(' ');
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    const cpuUs = ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / CLOCK_TICKS;
    threads.push({ name: stat.slice(stat.indexOf('(') + 1, close), cpuUs });
  }
  return threads;
}

/** How many of this process's threads carry `name`. */
export function threadsNamed(name: string): number {
  return processThreads().filter((t) => t.name === name).length;
}

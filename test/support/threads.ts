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

/** How many of this process's threads carry `name`, as `top -H` and `ps -L` show them. */
export function threadsNamed(name: string): number {
  let n = 0;
  for (const task of readdirSync('/proc/self/task')) {
    try {
      if (readFileSync(`/proc/self/task/${task}/comm`, 'utf8').trim() === name) n++;
    } catch {
      // the thread ended meanwhile
    }
  }
  return n;
}

/**
 * A load run with autocannon in this process, for the HTTP benches (rest, rest-steps, mcp, auth). Apart from ./util.ts,
 * which the test suite imports (the `svc` command's flags) and which must not load autocannon.
 */
import autocannon from 'autocannon';

/** One autocannon run and what it cost. */
export interface LoadRun {
  /** Mean requests per second. */
  rate: number;
  /** Requests answered. */
  requests: number;
  /**
   * Microseconds of this process's CPU (the server's and autocannon's together) per request: unlike requests per
   * second, it hardly moves when other programs take the machine's cores.
   */
  cpuPerRequest: number;
}

/** Loads `opts.url` with autocannon in this process; any non-2xx answer or error fails the run. */
export async function loadRun(opts: Parameters<typeof autocannon>[0]): Promise<LoadRun> {
  const cpu = process.cpuUsage();
  const r = await autocannon(opts);
  const used = process.cpuUsage(cpu);
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${opts.url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return {
    rate: r.requests.average,
    requests: r.requests.total,
    cpuPerRequest: (used.user + used.system) / r.requests.total,
  };
}

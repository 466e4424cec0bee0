// Minimal types for the parts of autocannon the benchmarks use (the package ships none).
declare module 'autocannon' {
  interface Options {
    url: string;
    headers?: Record<string, string>;
    connections?: number;
    duration?: number;
    /** Requests to send in all (instead of a duration). */
    amount?: number;
    /** Milliseconds between samples; a run of `amount` requests ends at the first sample after the last answer. */
    sampleInt?: number;
    pipelining?: number;
    method?: string;
    body?: string;
  }
  interface Result {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number };
    non2xx: number;
    errors: number;
    /** Responses with a 2xx status. */
    '2xx': number;
    /** Seconds the run took. */
    duration: number;
  }
  function autocannon(opts: Options): Promise<Result>;
  export default autocannon;
}

/**
 * What the webhook client (./send.ts, main thread) and its sender thread (./sender-thread.ts) share: the messages
 * between them, the result of an attempt, the pinned lookup that makes a connection go where the guard looked, and
 * how a failure is put in words.
 *
 * This file imports nothing of the project's: the sender thread loads it as a sibling file (from the sources under
 * Node's type stripping, or from dist/ compiled), where the project's `.js` import paths do not resolve.
 */
import net from 'node:net';
import { performance } from 'node:perf_hooks';

/** The outcome of one attempt. */
export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}

/** One attempt handed to the sender thread: the URL was checked by the main thread. */
export interface SendOrder {
  /** The attempt's number in this process, to match its result. */
  id: number;
  /** The client (pool of connections) it goes through. */
  client: number;
  origin: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}

/** Messages to the sender thread. */
export type ToSender =
  /** A client's pool: `cas` is the whole trust list (system roots included), or null for Node's defaults. */
  | { t: 'open'; client: number; cas: string[] | null; connections: number }
  | { t: 'send'; orders: SendOrder[] }
  /** The guard's answer to a `connect`: the checked addresses, or why the host is refused. */
  | { t: 'answer'; ask: number; addresses: string[] | null; error: string | null }
  /** Closes a pool once its requests are done (`close`), or at once, failing them (`destroy`). */
  | { t: 'close' | 'destroy'; client: number };

/** One attempt's result, by order id. */
export interface SendResult extends AttemptResult {
  id: number;
}

/** Messages from the sender thread. */
export type FromSender =
  | { t: 'done'; results: SendResult[] }
  /** A pool opens a connection to `hostname`: the main thread resolves and checks it (answered with `answer`). */
  | { t: 'connect'; ask: number; client: number; hostname: string }
  | { t: 'closed'; client: number };

/** The modules of undici's Agent and buildConnector, which the sender thread loads rather than undici's index. */
export const UNDICI_AGENT = 'undici/lib/dispatcher/agent.js';
export const UNDICI_CONNECT = 'undici/lib/core/connect.js';

/** Response bodies are read (to keep the connection reusable) up to this size, then the connection is dropped. */
export const MAX_RESPONSE_BYTES = 64 * 1024;

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | Array<{ address: string; family: number }>,
  family?: number,
) => void;

/**
 * A `lookup` for net/tls/https that answers with the addresses already checked,
 * so the connection goes exactly where the guard looked.
 */
export function pinnedLookup(addresses: string[]) {
  const entries = addresses.map((address) => ({ address, family: net.isIP(address) }));
  return (
    _host: string,
    options: { all?: boolean; family?: number | string } | number | LookupCallback,
    cb?: LookupCallback,
  ): void => {
    const callback = (typeof options === 'function' ? options : cb) as LookupCallback;
    const opts = typeof options === 'object' && options !== null ? options : {};
    const fam = opts.family === 'IPv4' ? 4 : opts.family === 'IPv6' ? 6 : Number(opts.family ?? 0);
    const usable = fam === 4 || fam === 6 ? entries.filter((e) => e.family === fam) : entries;
    if (usable.length === 0) {
      const err: NodeJS.ErrnoException = new Error('no checked address of the requested family');
      err.code = 'ENOTFOUND';
      callback(err, '', 0);
      return;
    }
    if (opts.all) callback(null, usable);
    else callback(null, usable[0]!.address, usable[0]!.family);
  };
}

/** Milliseconds since `started` (a `performance.now()`), to a tenth: an attempt's latency. */
export function since(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}

/** An error whose words were already chosen (a refusal the main thread's guard gave for a connection). */
export function describedError(text: string): Error {
  return Object.assign(new Error(text), { described: text });
}

/** A failure in a few words for the delivery log: the system error's code and message, or the refusal's text. */
export function describeError(err: unknown): string {
  const e = err as (NodeJS.ErrnoException & { cause?: { described?: unknown }; described?: unknown }) | undefined;
  if (typeof e?.described === 'string') return e.described;
  if (typeof e?.cause?.described === 'string') return e.cause.described;
  const text = e?.code
    ? `${e.code}${e.message && !e.message.includes(e.code) ? `: ${e.message}` : ''}`
    : String(e?.message ?? err);
  return text.slice(0, 300);
}

/**
 * One HTTP attempt of a webhook delivery: check the URL and resolve its host,
 * POST the signed body over a keep-alive connection whose address was itself
 * checked when it was opened, and report the outcome. Redirects are never
 * followed; only a 2xx received within the timeout is a success.
 *
 * The transport is undici (the client behind Node's fetch), which costs a
 * fraction of node:https per request; its connector is replaced by one that
 * resolves and checks the host at connect time and connects only to the
 * checked addresses, so a pooled connection can never lead anywhere the guard
 * has not approved.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import tls from 'node:tls';
import type { Agent, Dispatcher } from 'undici';
import { ApiError } from '../core/errors.js';
import {
  knownCheckedUrl,
  pinnedLookup,
  resolveCheckedHost,
  resolveCheckedUrl,
  type CheckUrlOptions,
  type Resolver,
} from './guard.js';

export const DEFAULT_TIMEOUT_MS = 30_000;
/** Response bodies are read (to keep the connection reusable) up to this size, then the connection is dropped. */
const MAX_RESPONSE_BYTES = 64 * 1024;

export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}

export interface WebhookClientOptions {
  /** Extra CA certificate(s), PEM, trusted besides the system roots and NODE_EXTRA_CA_CERTS. */
  ca?: string | Buffer | undefined;
  /** Allow-list for the address guard; default `SVC_WEBHOOK_ALLOW`. */
  allow?: string | undefined;
  resolve?: Resolver | undefined;
  /** Connections kept per receiver origin (default 256). */
  connections?: number | undefined;
}

const contexts = new Map<string, tls.SecureContext>();

/**
 * The TLS trust for deliveries: Node's defaults, or, when `ca` is given, the
 * system roots plus `NODE_EXTRA_CA_CERTS` plus `ca` (an explicit CA list would
 * otherwise replace the roots). Built once per CA.
 */
function secureContext(ca: string | Buffer | undefined): tls.SecureContext | undefined {
  if (ca === undefined) return undefined;
  const key = ca.toString();
  let context = contexts.get(key);
  if (!context) {
    const cas = [...tls.rootCertificates];
    const extraFile = process.env.NODE_EXTRA_CA_CERTS;
    if (extraFile) {
      try {
        cas.push(readFileSync(extraFile, 'utf8'));
      } catch {
        // Node itself warns about an unreadable NODE_EXTRA_CA_CERTS at startup.
      }
    }
    cas.push(key);
    context = tls.createSecureContext({ ca: cas });
    contexts.set(key, context);
  }
  return context;
}

/**
 * undici, loaded with the first attempt rather than at start: a service that sends no webhook for a while (and every
 * `svc mcp`) does not wait for it.
 */
let undici: Promise<typeof import('undici')> | undefined;

/** Sends webhook attempts over a pool of guarded keep-alive connections. Close it when done. */
export class WebhookClient {
  /** The connection pool, made at the first attempt (`#loading` until then). */
  #agent: Agent | undefined;
  #loading: Promise<Agent> | undefined;
  readonly #connections: number;
  /** The TLS trust, built at once: a wrong CA is a configuration error at start, not at the first attempt. */
  readonly #context: tls.SecureContext | undefined;
  /** Allow-list and resolver, for the per-attempt URL check and the connect-time check. */
  readonly #guard: CheckUrlOptions;

  constructor(opts: WebhookClientOptions = {}) {
    this.#connections = opts.connections ?? 256;
    this.#guard = { allow: opts.allow, resolve: opts.resolve };
    this.#context = secureContext(opts.ca);
  }

  /** Loads undici and makes the pool, once. */
  #loadAgent(): Promise<Agent> {
    undici ??= import('undici');
    this.#loading ??= undici.then(({ Agent, buildConnector }) => {
      const guard = this.#guard;
      const context = this.#context;
      this.#agent = new Agent({
        connections: this.#connections,
        pipelining: 1,
        connect: (options, callback) => {
          // Connect time: resolve the host and check every address, then connect
          // only to those addresses (an IP literal host is checked as such).
          resolveCheckedHost(options.hostname, guard).then(
            (addresses) =>
              buildConnector({ lookup: pinnedLookup(addresses), ...(context ? { secureContext: context } : {}) })(
                options,
                callback,
              ),
            (err: Error) => callback(err, null),
          );
        },
      });
      return this.#agent;
    });
    return this.#loading;
  }

  /** Sends one attempt; never throws. */
  async send(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<AttemptResult> {
    const started = performance.now();
    // Checked again at every attempt (the subscription may have changed, the
    // name may now resolve elsewhere); new connections are checked when opened.
    let checked = knownCheckedUrl(url, this.#guard);
    if (!checked) {
      try {
        checked = await resolveCheckedUrl(url, this.#guard);
      } catch (err) {
        return { ok: false, statusCode: null, latencyMs: since(started), error: describe(err) };
      }
    }
    if (this.#closed) return { ok: false, statusCode: null, latencyMs: 0, error: 'the webhook client is closed' };
    const agent = this.#agent ?? (await this.#loadAgent());
    return new Promise<AttemptResult>((done) => {
      const attempt = new Attempt(started, timeoutMs, done);
      agent.dispatch(
        {
          origin: checked.origin,
          path: checked.path,
          method: 'POST',
          headers,
          body,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        },
        attempt,
      );
    });
  }

  #closed = false;

  /** Closes the pooled connections once their requests are done. Later calls do nothing. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const agent = this.#agent ?? (await this.#loading);
    await agent?.close();
  }

  /** Drops every connection at once, in-flight requests included. Later calls do nothing. */
  async destroy(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const agent = this.#agent ?? (await this.#loading);
    await agent?.destroy();
  }
}

/**
 * One request's handler (undici's dispatch API: no response stream or abort
 * signal per request). The response body is read and discarded, up to a limit,
 * so the connection can be reused; the attempt ends at the end of the response,
 * on an error, or at the timeout, whichever comes first.
 */
class Attempt implements Dispatcher.DispatchHandler {
  #status: number | null = null;
  #received = 0;
  #tooLarge = false;
  #timedOut = false;
  #settled = false;
  #controller: Dispatcher.DispatchController | undefined;
  readonly #timer: NodeJS.Timeout;

  constructor(
    private readonly started: number,
    private readonly timeoutMs: number,
    private readonly done: (result: AttemptResult) => void,
  ) {
    this.#timer = setTimeout(() => this.#timeout(), timeoutMs);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#timedOut) controller.abort(new Error('timeout'));
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number): void {
    this.#status = statusCode;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#received += chunk.length;
    if (this.#received > MAX_RESPONSE_BYTES) {
      // Enough read: the status decides; the connection is dropped rather than drained.
      this.#tooLarge = true;
      controller.abort(new Error('response body too large'));
    }
  }

  onResponseEnd(): void {
    this.#finishWithStatus();
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    if (this.#tooLarge) this.#finishWithStatus();
    else this.#finish(null, this.#timedOut ? `timeout after ${this.timeoutMs} ms` : describe(error));
  }

  #timeout(): void {
    this.#timedOut = true;
    this.#controller?.abort(new Error('timeout'));
    this.#finish(null, `timeout after ${this.timeoutMs} ms`);
  }

  #finishWithStatus(): void {
    const status = this.#status;
    if (status !== null && status >= 200 && status < 300) this.#finish(status, null);
    else if (status !== null && status >= 300 && status < 400)
      this.#finish(status, `redirect (HTTP ${status}) not followed`);
    else this.#finish(status, `HTTP ${status}`);
  }

  #finish(statusCode: number | null, error: string | null): void {
    if (this.#settled) return;
    this.#settled = true;
    clearTimeout(this.#timer);
    this.done({ ok: error === null, statusCode, latencyMs: since(this.started), error });
  }
}

/** Milliseconds since `started`, to a tenth. */
function since(started: number): number {
  return Math.round((performance.now() - started) * 10) / 10;
}

function describe(err: unknown): string {
  if (err instanceof ApiError) return `address refused: ${err.details?.[0]?.reason ?? err.message}`;
  const e = err as NodeJS.ErrnoException & { cause?: unknown };
  if (e?.cause instanceof ApiError) return describe(e.cause);
  const text = e?.code
    ? `${e.code}${e.message && !e.message.includes(e.code) ? `: ${e.message}` : ''}`
    : String(e?.message ?? err);
  return text.slice(0, 300);
}

/**
 * One HTTP attempt of a webhook delivery: check the URL and resolve its host,
 * POST the signed body over a keep-alive connection whose address was itself
 * checked when it was opened, and report the outcome. Redirects are never
 * followed; only a 2xx received within the timeout is a success.
 *
 * The transport is undici (the client behind Node's fetch), which costs a
 * fraction of node:https per request, run in a thread of its own (./sender-thread.ts)
 * shared by every client of the process: this thread checks the URL, hands the
 * attempt over and gets its result. The sender thread's connector asks this
 * thread to resolve and check the host at connect time and connects only to the
 * checked addresses, so a pooled connection can never lead anywhere the guard
 * has not approved.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import tls from 'node:tls';
import type { Worker } from 'node:worker_threads';
import { ApiError } from '../core/errors.js';
import {
  knownCheckedUrl,
  resolveCheckedHost,
  resolveCheckedUrl,
  type CheckUrlOptions,
  type Resolver,
} from './guard.js';
import { describeError, since, type AttemptResult, type FromSender, type SendOrder, type ToSender } from './wire.js';

export type { AttemptResult } from './wire.js';

export const DEFAULT_TIMEOUT_MS = 30_000;

export interface WebhookClientOptions {
  /** Extra CA certificate(s), PEM, trusted besides the system roots and NODE_EXTRA_CA_CERTS. */
  ca?: string | Buffer | undefined;
  /** Allow-list for the address guard; default `SVC_WEBHOOK_ALLOW`. */
  allow?: string | undefined;
  resolve?: Resolver | undefined;
  /** Connections kept per receiver origin (default 256). */
  connections?: number | undefined;
}

/** Trust lists already built and checked, by CA text. */
const trustLists = new Map<string, string[]>();

/**
 * The TLS trust for deliveries: Node's defaults (null), or, when `ca` is given, the system roots plus
 * `NODE_EXTRA_CA_CERTS` plus `ca` (an explicit CA list would otherwise replace the roots). Built once per CA, and
 * tried here: a wrong CA is a configuration error at start, not at the first attempt in the sender thread.
 */
function trustList(ca: string | Buffer | undefined): string[] | null {
  if (ca === undefined) return null;
  const key = ca.toString();
  let cas = trustLists.get(key);
  if (!cas) {
    cas = [...tls.rootCertificates];
    const extraFile = process.env.NODE_EXTRA_CA_CERTS;
    if (extraFile) {
      try {
        cas.push(readFileSync(extraFile, 'utf8'));
      } catch {
        // Node itself warns about an unreadable NODE_EXTRA_CA_CERTS at startup.
      }
    }
    cas.push(key);
    tls.createSecureContext({ ca: cas });
    trustLists.set(key, cas);
  }
  return cas;
}

/** The sender thread's module beside this one: the sources' (run by Node's type stripping) or dist/'s. */
const SENDER_URL = new URL(`./sender-thread${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);

/** The sender thread's name, as the system shows it. */
export const SENDER_THREAD_NAME = 'svc-sender';

/**
 * How long the thread stays, unused, after its last client closed: a test delivery's client (one per call of
 * `test_webhook`, closed after its attempt) then finds it running, rather than starting a thread each time (some
 * 120 ms of CPU a start: 70 starts a minute in the fuzzer's run). An idle thread never keeps the process alive.
 */
export const SENDER_IDLE_MS = 10_000;
let idleMs = SENDER_IDLE_MS;

interface Pending {
  done(result: AttemptResult): void;
  started: number;
}

/**
 * The process's sender thread, shared by every open client: started with the first attempt (a service that sends no
 * webhook, and every `svc mcp`, never starts it) and stopped `SENDER_IDLE_MS` after the last client closed, unless
 * another sends first. Attempts handed over in one turn of the event loop travel in one message, and their results
 * come back gathered the same way. The thread keeps the process alive only while attempts or closes are under way,
 * as the pooled sockets did.
 */
class SenderThread {
  readonly #worker: Worker;
  /** Open clients, by id: their guard answers their pools' connects. */
  readonly #clients = new Map<number, WebhookClient>();
  readonly #pending = new Map<number, Pending>();
  readonly #closing = new Map<number, () => void>();
  #orders: SendOrder[] = [];
  #lastOrder = 0;
  #stopped = false;
  /** Set while the thread has no client: its stop, unless a client comes first. */
  #idle: ReturnType<typeof setTimeout> | undefined;

  constructor() {
    const { Worker } = process.getBuiltinModule('node:worker_threads');
    // Named, so that `top -H` and `ps -L` show which thread is busy (and the webhooks bench its CPU).
    this.#worker = new Worker(SENDER_URL, { name: SENDER_THREAD_NAME });
    this.#worker.unref();
    this.#worker.on('message', (message: FromSender) => this.#receive(message));
    this.#worker.on('error', (err) => this.#lost(`the webhook sender thread failed: ${describeError(err)}`));
    this.#worker.on('exit', (code) => this.#lost(`the webhook sender thread exited (code ${code})`));
  }

  /** Hands one attempt of `client` over (its pool is opened with its first); resolves with the result. */
  send(
    client: WebhookClient,
    origin: string,
    path: string,
    body: string,
    headers: Record<string, string>,
    timeoutMs: number,
  ): Promise<AttemptResult> {
    const id = client.id;
    if (!this.#clients.has(id)) {
      this.#cancelIdle();
      this.#clients.set(id, client);
      this.#post({ t: 'open', client: id, cas: client.trust, connections: client.connections });
    }
    const order = ++this.#lastOrder;
    if (this.#orders.length === 0) queueMicrotask(() => this.#handOver());
    this.#orders.push({ id: order, client: id, origin, path, headers, body, timeoutMs });
    return new Promise((done) => {
      this.#pending.set(order, { done, started: performance.now() });
      this.#keepAlive();
    });
  }

  /** Closes the client's pool (`destroy`: failing its attempts under way); the thread stops with the last client. */
  close(id: number, destroy: boolean): Promise<void> {
    if (!this.#clients.has(id) || this.#stopped) return Promise.resolve();
    return new Promise<void>((resolve) => {
      this.#closing.set(id, resolve);
      this.#keepAlive();
      this.#post({ t: destroy ? 'destroy' : 'close', client: id });
    });
  }

  #handOver(): void {
    const orders = this.#orders;
    this.#orders = [];
    if (orders.length > 0) this.#post({ t: 'send', orders });
  }

  #post(message: ToSender): void {
    if (!this.#stopped) this.#worker.postMessage(message);
  }

  #receive(message: FromSender): void {
    switch (message.t) {
      case 'done': {
        for (const result of message.results) {
          const pending = this.#pending.get(result.id);
          this.#pending.delete(result.id);
          const { id: _, ...outcome } = result;
          pending?.done(outcome);
        }
        break;
      }
      case 'connect': {
        const client = this.#clients.get(message.client);
        const answer = (addresses: string[] | null, error: string | null) =>
          this.#post({ t: 'answer', ask: message.ask, addresses, error });
        if (!client) answer(null, 'the webhook client is closed');
        else
          resolveCheckedHost(message.hostname, client.guard).then(
            (addresses) => answer(addresses, null),
            (err: unknown) => answer(null, describe(err)),
          );
        break;
      }
      case 'closed': {
        this.#clients.delete(message.client);
        const closed = this.#closing.get(message.client);
        this.#closing.delete(message.client);
        closed?.();
        break;
      }
    }
    if (this.#clients.size === 0 && !this.#busy) this.#stopWhenIdle();
    else this.#keepAlive();
  }

  /** No client and nothing under way: stops now, or after `idleMs` unless a client sends first (which cancels it). */
  #stopWhenIdle(): void {
    this.#keepAlive();
    this.#cancelIdle();
    if (idleMs <= 0) return this.#stop();
    this.#idle = setTimeout(() => this.#stop(), idleMs);
    this.#idle.unref();
  }

  #cancelIdle(): void {
    clearTimeout(this.#idle);
    this.#idle = undefined;
  }

  /** Whether anything is under way: then the thread is referenced, so the process waits for it. */
  get #busy(): boolean {
    return this.#pending.size > 0 || this.#closing.size > 0;
  }

  /** Referenced while anything is under way, so the process waits for it; otherwise it may exit. */
  #keepAlive(): void {
    if (this.#busy) this.#worker.ref();
    else this.#worker.unref();
  }

  /** For tests: the thread's id, its open clients, whether it keeps the process alive or waits for a client. */
  state(): { threadId: number; clients: number; referenced: boolean; idle: boolean } {
    return {
      threadId: this.#worker.threadId,
      clients: this.#clients.size,
      referenced: this.#busy,
      idle: this.#idle !== undefined,
    };
  }

  /** Waiting for a client: waits again for the idle time set now, or stops at once when it is 0 (tests). */
  stopIfIdle(): void {
    if (this.#idle !== undefined) this.#stopWhenIdle();
  }

  /** Ends the thread as a crash would (tests). */
  async crash(): Promise<void> {
    await this.#worker.terminate();
  }

  #stop(): void {
    this.#cancelIdle();
    this.#stopped = true;
    if (thread === this) thread = undefined;
    void this.#worker.terminate();
  }

  /** The thread died: its attempts fail (they are tried again like any failure), closes end, the next send starts another. */
  #lost(why: string): void {
    if (thread === this) thread = undefined;
    this.#cancelIdle();
    if (this.#stopped) return;
    this.#stopped = true;
    for (const { done, started } of this.#pending.values())
      done({ ok: false, statusCode: null, latencyMs: since(started), error: why });
    this.#pending.clear();
    for (const closed of this.#closing.values()) closed();
    this.#closing.clear();
    this.#clients.clear();
  }
}

let thread: SenderThread | undefined;
let lastClient = 0;

/** For tests: the process's sender thread, when one runs, a way to end it as a crash would, and its idle time. */
export const senderThreadProbe = {
  state: () => thread?.state() ?? null,
  crash: async () => thread?.crash(),
  /** Sets how long an unused thread stays (0: it stops with the last close) and applies it to one waiting now. */
  idleFor(ms: number): number {
    const before = idleMs;
    idleMs = ms;
    thread?.stopIfIdle();
    return before;
  },
};

/** Sends webhook attempts over a pool of guarded keep-alive connections, in the sender thread. Close it when done. */
export class WebhookClient {
  /** This client's number in the process: its pool's in the sender thread. */
  readonly id = ++lastClient;
  /** The thread this client's pool is in (the process's, when it sent there last). */
  #thread: SenderThread | undefined;
  #closed = false;
  readonly connections: number;
  /** The TLS trust list, built at once: a wrong CA is a configuration error at start, not at the first attempt. */
  readonly trust: string[] | null;
  /** Allow-list and resolver, for the per-attempt URL check and the connect-time check. */
  readonly guard: CheckUrlOptions;

  constructor(opts: WebhookClientOptions = {}) {
    this.connections = opts.connections ?? 256;
    this.guard = { allow: opts.allow, resolve: opts.resolve };
    this.trust = trustList(opts.ca);
  }

  /** Sends one attempt; never throws. */
  async send(url: string, body: string, headers: Record<string, string>, timeoutMs: number): Promise<AttemptResult> {
    const started = performance.now();
    // Checked again at every attempt (the subscription may have changed, the
    // name may now resolve elsewhere); new connections are checked when opened.
    let checked = knownCheckedUrl(url, this.guard);
    if (!checked) {
      try {
        checked = await resolveCheckedUrl(url, this.guard);
      } catch (err) {
        return { ok: false, statusCode: null, latencyMs: since(started), error: describe(err) };
      }
    }
    if (this.#closed) return { ok: false, statusCode: null, latencyMs: 0, error: 'the webhook client is closed' };
    thread ??= new SenderThread();
    this.#thread = thread;
    return thread.send(this, checked.origin, checked.path, body, headers, timeoutMs);
  }

  /** Closes the pooled connections once their requests are done. Later calls do nothing. */
  async close(): Promise<void> {
    await this.#end(false);
  }

  /** Drops every connection at once, in-flight requests included. Later calls do nothing. */
  async destroy(): Promise<void> {
    await this.#end(true);
  }

  async #end(destroy: boolean): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#thread?.close(this.id, destroy);
  }
}

/** A failure of the URL or connect-time check: the guard's refusal, or the resolver's error. */
function describe(err: unknown): string {
  if (err instanceof ApiError) return `address refused: ${err.details?.[0]?.reason ?? err.message}`;
  const cause = (err as { cause?: unknown } | undefined)?.cause;
  if (cause instanceof ApiError) return describe(cause);
  return describeError(err);
}

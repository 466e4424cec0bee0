/**
 * The webhook sender thread: the HTTP side of every attempt (undici's pool, TLS, the request and the response) runs
 * here, beside the thread that serves requests and writes the outbox, which only checks URLs, signs and records.
 * Sending was about a quarter of the main thread's CPU per delivery; a second core takes it (docs/architecture.md,
 * "The webhook sender thread").
 *
 * The main thread (./send.ts) opens one pool per client, hands over attempts in batches and gets their results in
 * batches. The address guard stays in the main thread, where the resolver and the allow-list are: when a pool opens
 * a connection it asks there (`connect`), and connects only to the addresses the answer names (`pinnedLookup`).
 *
 * Loaded as a worker from the sources (Node's type stripping: only erasable syntax here, and no import of the
 * project's modules but ./wire, found as a sibling file) and from dist/ compiled.
 */
import { performance } from 'node:perf_hooks';
import tls from 'node:tls';
import { parentPort } from 'node:worker_threads';
import type { Agent, buildConnector as buildConnectorType, Dispatcher } from 'undici';
import type { FromSender, SendOrder, SendResult, ToSender } from './wire.js';

const wireUrl = new URL(`./wire${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);
const { describeError, describedError, pinnedLookup, since, MAX_RESPONSE_BYTES, UNDICI_AGENT, UNDICI_CONNECT } =
  (await import(wireUrl.href)) as typeof import('./wire.js');
const { Pool, buildConnector } = await loadUndici();

/**
 * undici's pool and connector, from their own modules: undici's index loads everything it has (fetch, WebSocket,
 * caches, mocks), some 12 MB more of this thread's memory (a worker importing the index: 84 MB resident against 72 MB
 * with these two; a bare worker 62 MB). They are the very classes the index exports (test/webhooks/sender-thread.test.ts
 * checks it); should a later undici move them, the index is loaded instead.
 */
async function loadUndici(): Promise<{ Pool: typeof Agent; buildConnector: typeof buildConnectorType }> {
  try {
    const [agent, connect] = await Promise.all([import(UNDICI_AGENT), import(UNDICI_CONNECT)]);
    return { Pool: agent.default, buildConnector: connect.default };
  } catch {
    const undici = await import('undici');
    return { Pool: undici.Agent, buildConnector: undici.buildConnector };
  }
}

const port = parentPort!;
const post = (message: FromSender) => port.postMessage(message);

/** Each client's pool. */
const pools = new Map<number, Agent>();
/** Connections waiting for the guard's answer. */
const asks = new Map<number, (answer: { addresses: string[] | null; error: string | null }) => void>();
let lastAsk = 0;

/** Results gathered during one turn of the event loop, posted together. */
let results: SendResult[] = [];
function report(result: SendResult): void {
  if (results.length === 0) setImmediate(postResults);
  results.push(result);
}

function postResults(): void {
  if (results.length === 0) return;
  const batch = results;
  results = [];
  post({ t: 'done', results: batch });
}

function open(client: number, cas: string[] | null, connections: number): void {
  const context = cas ? tls.createSecureContext({ ca: cas }) : undefined;
  const pool = new Pool({
    connections,
    pipelining: 1,
    connect: (options, callback) => {
      // Connect time: the main thread resolves the host and checks every address; the connection goes to those only.
      const ask = ++lastAsk;
      asks.set(ask, ({ addresses, error }) => {
        if (addresses)
          buildConnector({ lookup: pinnedLookup(addresses), ...(context ? { secureContext: context } : {}) })(
            options,
            callback,
          );
        else callback(describedError(error ?? 'address refused'), null);
      });
      post({ t: 'connect', ask, client, hostname: options.hostname });
    },
  });
  pools.set(client, pool);
}

function send(order: SendOrder): void {
  const pool = pools.get(order.client);
  const started = performance.now();
  if (!pool) {
    report({ id: order.id, ok: false, statusCode: null, latencyMs: 0, error: 'the webhook client is closed' });
    return;
  }
  pool.dispatch(
    {
      origin: order.origin,
      path: order.path,
      method: 'POST',
      headers: order.headers,
      body: order.body,
      headersTimeout: order.timeoutMs,
      bodyTimeout: order.timeoutMs,
    },
    new Attempt(order.id, started, order.timeoutMs),
  );
}

async function close(client: number, destroy: boolean): Promise<void> {
  const pool = pools.get(client);
  pools.delete(client);
  try {
    if (destroy) await pool?.destroy();
    else await pool?.close();
  } finally {
    postResults(); // the pool's last results before the word that it is closed
    post({ t: 'closed', client });
  }
}

port.on('message', (message: ToSender) => {
  switch (message.t) {
    case 'open':
      open(message.client, message.cas, message.connections);
      break;
    case 'send':
      for (const order of message.orders) send(order);
      break;
    case 'answer': {
      const answer = asks.get(message.ask);
      asks.delete(message.ask);
      answer?.(message);
      break;
    }
    case 'close':
    case 'destroy':
      void close(message.client, message.t === 'destroy');
      break;
  }
});

/**
 * One request's handler (undici's dispatch API: no response stream or abort signal per request). The response body
 * is read and discarded, up to a limit, so the connection can be reused; the attempt ends at the end of the response,
 * on an error, or at the timeout, whichever comes first. Redirects are never followed; only a 2xx is a success.
 */
class Attempt implements Dispatcher.DispatchHandler {
  readonly #id: number;
  readonly #started: number;
  readonly #timeoutMs: number;
  readonly #timer: NodeJS.Timeout;
  #status: number | null = null;
  #received = 0;
  #tooLarge = false;
  #timedOut = false;
  #settled = false;
  #controller: Dispatcher.DispatchController | undefined;

  constructor(id: number, started: number, timeoutMs: number) {
    this.#id = id;
    this.#started = started;
    this.#timeoutMs = timeoutMs;
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
    else this.#finish(null, this.#timedOut ? `timeout after ${this.#timeoutMs} ms` : describeError(error));
  }

  #timeout(): void {
    this.#timedOut = true;
    this.#controller?.abort(new Error('timeout'));
    this.#finish(null, `timeout after ${this.#timeoutMs} ms`);
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
    report({ id: this.#id, ok: error === null, statusCode, latencyMs: since(this.#started), error });
  }
}

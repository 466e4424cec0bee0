/** Shared test helpers for the webhook domain: TLS material, a receiver, a fake clock and scheduler. */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Keyring } from '../../src/core/keyring.js';
import { openSecrets } from '../../src/webhooks/secrets.js';
import { CursorCodec } from '../../src/core/pagination.js';
import { openLowdbStore, type Store } from '../../src/store/index.js';
import { WEBHOOK_INDEXES, type Scheduler, type WebhookDeps } from '../../src/webhooks/index.js';

/** Whether the openssl CLI is available (needed to make a throwaway certificate). */
export function hasOpenssl(): boolean {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export interface Tls {
  key: string;
  cert: string;
}

/** A self-signed certificate for 127.0.0.1, localhost and receiver.test, made with the openssl CLI. */
export function makeCert(): Tls {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-wh-tls-'));
  try {
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '2',
        '-subj',
        '/CN=svc-test-receiver',
        '-addext',
        'subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:receiver.test',
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface Received {
  body: string;
  headers: Record<string, string | string[] | undefined>;
  path: string;
}

export type Handler = (
  req: Received,
  count: number,
) => number | { status: number; delayMs?: number; headers?: Record<string, string>; body?: string } | 'hang';

/** A local HTTPS receiver recording every request; `handler` chooses the answer. */
export async function startReceiver(tls: Tls, handler: Handler = () => 200, opts: { record?: boolean } = {}) {
  const received: Received[] = [];
  let count = 0;
  const sockets = new Set<import('node:stream').Duplex>();
  let connections = 0;
  const server = https.createServer({ key: tls.key, cert: tls.cert, keepAliveTimeout: 30_000 }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { body: Buffer.concat(chunks).toString('utf8'), headers: req.headers, path: req.url ?? '' };
      if (opts.record !== false) received.push(r);
      const answer = handler(r, ++count);
      if (answer === 'hang') return; // never answers
      const a = typeof answer === 'number' ? { status: answer } : answer;
      const reply = () => {
        res.writeHead(a.status, { 'content-type': 'text/plain', ...(a.headers ?? {}) });
        res.end(a.body ?? 'ok');
      };
      if (a.delayMs) setTimeout(reply, a.delayMs);
      else reply();
    });
  });
  server.on('secureConnection', () => connections++);
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (p = '/hook') => `https://127.0.0.1:${port}${p}`,
    received,
    /** TLS connections accepted so far. */
    connections: () => connections,
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A clock and scheduler moved by hand: `advance(ms)` fires due timers in order. */
export class FakeTime implements Scheduler {
  now = Date.parse('2026-01-01T00:00:00.000Z');
  #timers = new Map<number, { due: number; fn: () => void }>();
  #next = 1;
  readonly clock = { now: () => new Date(this.now) };

  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.#next++;
    this.#timers.set(id, { due: this.now + Math.max(0, ms), fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.#timers.delete(handle as number);
  }

  /** Due time of the earliest timer, or null. */
  nextTimer(): number | null {
    let min: number | null = null;
    for (const t of this.#timers.values()) if (min === null || t.due < min) min = t.due;
    return min;
  }

  advance(ms: number): void {
    const target = this.now + ms;
    for (;;) {
      let first: [number, { due: number; fn: () => void }] | undefined;
      for (const e of this.#timers) if (e[1].due <= target && (!first || e[1].due < first[1].due)) first = e;
      if (!first) break;
      this.#timers.delete(first[0]);
      this.now = Math.max(this.now, first[1].due);
      first[1].fn();
    }
    this.now = target;
  }

  /** Moves to the next timer (if any) and fires it. Returns false when none is set. */
  advanceToNext(): boolean {
    const due = this.nextTimer();
    if (due === null) return false;
    this.advance(Math.max(0, due - this.now));
    return true;
  }
}

export async function tempStore(): Promise<{ store: Store; dir: string; cleanup: () => Promise<void> }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-wh-store-'));
  const store = await openLowdbStore({ dataDir: dir, indexes: WEBHOOK_INDEXES });
  return {
    store,
    dir,
    cleanup: async () => {
      await store.close();
      if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The master key of the webhook domain's unit tests (a fixed one: the crash test's child process uses it too). */
export const testKeyring = new Keyring(Buffer.alloc(32, 0x5a));

/** A stored record's signing secrets opened with the test keyring (the stored fields are sealed). */
export async function openedSecrets(
  store: Store,
  id: string,
  collection = 'webhooks',
): Promise<{ secret: string; previousSecret: string | null; previousSecretExpiresAt: number | null }> {
  const r = await store.get<{
    id: string;
    secret: string;
    previousSecret: string | null;
    previousSecretExpiresAt: number | null;
  }>(collection, id);
  if (!r) throw new Error(`no ${collection} record ${id}`);
  return openSecrets(testKeyring, collection, r);
}

export function deps(store: Store, clock: { now(): Date }, extra: Partial<WebhookDeps> = {}): WebhookDeps {
  return {
    store,
    clock,
    keyring: testKeyring,
    cursors: new CursorCodec('test-cursor-secret-0123456789'),
    allow: '127.0.0.1',
    ...extra,
  };
}

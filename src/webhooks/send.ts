/**
 * One HTTP attempt of a webhook delivery: resolve and check the host (connect
 * time), connect to exactly the checked addresses, POST the signed body, and
 * report the outcome. Redirects are never followed; only a 2xx received within
 * the timeout is a success.
 */
import { readFileSync } from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import tls from 'node:tls';
import { ApiError } from '../core/errors.js';
import { pinnedLookup, resolveCheckedUrl, type Resolver } from './guard.js';

export const DEFAULT_TIMEOUT_MS = 30_000;
/** Response bodies are read (to keep the connection reusable) up to this size, then the socket is dropped. */
const MAX_RESPONSE_BYTES = 64 * 1024;

export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
}

export interface SendOptions {
  url: string;
  body: string;
  headers: Record<string, string>;
  agent: https.Agent;
  timeoutMs: number;
  allow?: string | undefined;
  resolve?: Resolver | undefined;
}

const agents = new Map<string, https.Agent>();

/**
 * A keep-alive HTTPS agent trusting the system roots, `NODE_EXTRA_CA_CERTS`
 * and `ca` (when given). Agents are shared per CA.
 */
export function httpsAgent(ca?: string | Buffer, maxSockets = 256): https.Agent {
  const key = `${maxSockets}|${ca === undefined ? '' : ca.toString()}`;
  let agent = agents.get(key);
  if (!agent) {
    let cas: string[] | undefined;
    if (ca !== undefined) {
      // An explicit `ca` replaces Node's default roots, so add them back.
      cas = [...tls.rootCertificates];
      const extraFile = process.env.NODE_EXTRA_CA_CERTS;
      if (extraFile) {
        try {
          cas.push(readFileSync(extraFile, 'utf8'));
        } catch {
          // Node itself warns about an unreadable NODE_EXTRA_CA_CERTS at startup.
        }
      }
      cas.push(ca.toString());
    }
    // A prebuilt secure context rather than a `ca` option: the agent would
    // otherwise put the whole CA list into every request's pool key.
    agent = new https.Agent({ keepAlive: true, maxSockets, ...(cas ? { secureContext: tls.createSecureContext({ ca: cas }) } : {}) });
    agents.set(key, agent);
  }
  return agent;
}

function describe(err: unknown): string {
  if (err instanceof ApiError) return `address refused: ${err.details?.[0]?.reason ?? err.message}`;
  const e = err as NodeJS.ErrnoException;
  const text = e?.code ? `${e.code}${e.message && !e.message.includes(e.code) ? `: ${e.message}` : ''}` : String(e?.message ?? err);
  return text.slice(0, 300);
}

/** Sends one attempt; never throws. */
export async function sendAttempt(opts: SendOptions): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round((performance.now() - started) * 10) / 10;
  let checked;
  try {
    checked = await resolveCheckedUrl(opts.url, { allow: opts.allow, resolve: opts.resolve });
  } catch (err) {
    return { ok: false, statusCode: null, latencyMs: elapsed(), error: describe(err) };
  }
  return new Promise<AttemptResult>((done) => {
    let settled = false;
    const finish = (statusCode: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      const ok = error === null && statusCode !== null && statusCode >= 200 && statusCode < 300;
      done({ ok, statusCode, latencyMs: elapsed(), error: ok ? null : error ?? `HTTP ${statusCode}` });
    };
    const req = https.request(
      checked.url,
      {
        method: 'POST',
        agent: opts.agent,
        headers: { ...opts.headers, 'content-length': String(Buffer.byteLength(opts.body)) },
        lookup: pinnedLookup(checked.addresses) as never,
        ...(net.isIP(checked.host) ? {} : { servername: checked.host }),
      },
      (res) => {
        const status = res.statusCode ?? null;
        let received = 0;
        res.on('data', (chunk: Buffer) => {
          received += chunk.length;
          if (received > MAX_RESPONSE_BYTES) res.destroy();
        });
        const verdict = (): string | null =>
          status !== null && status >= 300 && status < 400 ? `redirect (HTTP ${status}) not followed` : status !== null && status >= 200 && status < 300 ? null : `HTTP ${status}`;
        res.on('end', () => finish(status, verdict()));
        res.on('close', () => finish(status, verdict()));
        res.on('error', () => finish(status, verdict()));
      },
    );
    const timer = setTimeout(() => {
      finish(null, `timeout after ${opts.timeoutMs} ms`);
      req.destroy();
    }, opts.timeoutMs);
    req.on('error', (err) => finish(null, describe(err)));
    req.end(opts.body);
  });
}

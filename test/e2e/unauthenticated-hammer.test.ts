import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANONYMOUS_LIMIT, RATE_WINDOW_MS } from '../../src/keys/limits.js';
import { REPO_ROOT, tmpDir } from '../helpers.js';
import { startServe, type Served } from '../support/cli.js';

// Every unauthenticated route of a real `svc serve` process, hammered past the per-address limit: the process
// lives, keeps answering, and refuses with 429 in the envelope, never a 5xx. (The wizard page once left the
// address guard's 429 un-awaited; Node ended the process on the unhandled rejection after ~100 anonymous loads.)
// Each route is hammered from an address of its own on the loopback network (127.0.0.0/8), so each one really
// goes from its normal refusal to the limit's 429.

const OVER = ANONYMOUS_LIMIT + 30;
const CONCURRENCY = 8;

let data: Awaited<ReturnType<typeof tmpDir>>;
let serve: Served;

beforeAll(async () => {
  data = await tmpDir();
  // Stripe's webhook is configured, so an unsigned notification is refused for its signature (400), not for
  // missing configuration (503).
  serve = await startServe(data.dir, { STRIPE_WEBHOOK_SECRET: 'whsec_hammer_test_secret' });
}, 120_000);

afterAll(async () => {
  if (serve && serve.child.exitCode === null) {
    serve.child.kill('SIGTERM');
    await serve.exited;
  }
  await data?.cleanup();
});

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One HTTP request from a given local (loopback) address; a fresh connection each time, like separate clients. */
function request(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string | Buffer; from: string },
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: opts.method ?? 'GET', headers: opts.headers, localAddress: opts.from, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

interface Route {
  name: string;
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** The answers expected before the limit (a refusal of the request itself). */
  before: number[];
  /** Whether the route is refused with 429 once the address's budget is spent. */
  limited: boolean;
  /**
   * Sign-in and sign-up may have stricter limits of their own besides the address budget: for them, at most the
   * budget gets the route's answer, and the last requests are 429 all the same.
   */
  stricter?: boolean;
}

const json = { 'content-type': 'application/json' };
const mcpHeaders = { ...json, accept: 'application/json, text/event-stream' };
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'hammer', version: '1' } },
});
const TAMPERED = `svc_et_emb_01J00000000000000000000000.${'A'.repeat(43)}`;

const ROUTES: Route[] = [
  {
    name: 'wizard page without credentials',
    method: 'GET',
    path: '/api/v1/embed/wizard',
    before: [401],
    limited: true,
  },
  {
    name: 'wizard page (old path) without credentials',
    method: 'GET',
    path: '/api/embed/wizard',
    before: [401],
    limited: true,
  },
  {
    name: 'wizard page, garbage token',
    method: 'GET',
    path: '/api/v1/embed/wizard?token=garbage',
    before: [401],
    limited: true,
  },
  {
    name: 'wizard page, well-formed unknown token',
    method: 'GET',
    path: `/api/v1/embed/wizard?token=${TAMPERED}&origin=https%3A%2F%2Fpartner.example`,
    before: [401],
    limited: true,
  },
  {
    name: 'wizard page, unknown key',
    method: 'GET',
    path: '/api/v1/embed/wizard?key=svc_pt_nope',
    before: [401],
    limited: true,
  },
  // A public, cached static file: counted, never refused.
  { name: 'SDK', method: 'GET', path: '/api/v1/embed/sdk.js', before: [200], limited: false },
  {
    name: 'login, wrong password',
    method: 'POST',
    path: '/api/v1/auth/login',
    headers: json,
    body: JSON.stringify({ email: 'nobody@example.com', password: 'wrong password 1234' }),
    before: [401],
    limited: true,
    stricter: true,
  },
  {
    name: 'login (old path), unreadable body',
    method: 'POST',
    path: '/api/auth/login',
    headers: json,
    body: '{"email":',
    before: [400],
    limited: false,
  },
  {
    name: 'register, bad input',
    method: 'POST',
    path: '/api/v1/auth/register',
    headers: json,
    body: JSON.stringify({ email: 'not an email', password: 'x' }),
    before: [400],
    limited: true,
    stricter: true,
  },
  {
    name: '/mcp without a key',
    method: 'POST',
    path: '/mcp',
    headers: mcpHeaders,
    body: INITIALIZE,
    before: [401],
    limited: true,
  },
  {
    name: '/mcp with a garbage key',
    method: 'POST',
    path: '/mcp',
    headers: { ...mcpHeaders, authorization: 'Bearer garbage' },
    body: INITIALIZE,
    before: [401],
    limited: true,
  },
  {
    name: 'Stripe webhook, unsigned',
    method: 'POST',
    path: '/api/v1/payments/stripe/webhook',
    headers: json,
    body: JSON.stringify({ id: 'evt_1', type: 'checkout.session.completed' }),
    before: [400],
    limited: false,
  },
  { name: 'unknown route', method: 'GET', path: '/api/v1/no-such-route', before: [404], limited: false },
];

async function hammer(route: Route, from: string): Promise<Answer[]> {
  const answers: Answer[] = [];
  let next = 0;
  const worker = async () => {
    while (next < OVER) {
      next++;
      answers.push(
        await request(serve.url + route.path, { method: route.method, headers: route.headers, body: route.body, from }),
      );
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return answers;
}

/** The envelope's error code of an answer (JSON envelope, JSON-RPC error data, or the wizard page's config block). */
function codeOf(a: Answer): string | undefined {
  const page = /<script type="application\/json" id="svc-wizard-config">(.*?)<\/script>/.exec(a.body);
  try {
    const body = JSON.parse(page ? page[1]! : a.body) as {
      error?: { code?: string | number; data?: { code?: string } };
    };
    // A JSON-RPC error (/mcp) has a numeric code and the envelope's error in its data.
    return typeof body.error?.code === 'string' ? body.error.code : body.error?.data?.code;
  } catch {
    return undefined;
  }
}

describe('a real svc serve, every unauthenticated route hammered past its limit', () => {
  it('lives, answers 429 where the route is limited, and never a 5xx', async () => {
    // All routes at once, each from its own address (127.0.0.10, .11, ...; a second round from .40, .41, ...), the
    // sign-in with an email of the round's own (its failures are also counted per email, from every address).
    const round = (first: number) =>
      Promise.all(
        ROUTES.map((route, i) => {
          const body = route.body?.replace('nobody@', `nobody${first}@`);
          return hammer({ ...route, body }, `127.0.0.${first + i}`).then((answers) => ({ route, answers }));
        }),
      );
    // The limiter counts in fixed windows on the clock's quarter hours: a round that straddled a boundary saw the
    // budget twice. Then it runs once more, from addresses of its own, wholly in the new window (a round takes
    // seconds), instead of waiting for a boundary before starting.
    const windowOf = (t: number) => Math.floor(t / RATE_WINDOW_MS);
    const startedIn = windowOf(Date.now());
    let results = await round(10);
    if (windowOf(Date.now()) !== startedIn) results = await round(40);
    const summary: string[] = [];
    for (const { route, answers } of results) {
      const statuses = answers.map((a) => a.status);
      const counts = Object.entries(
        statuses.reduce<Record<number, number>>((m, s) => {
          m[s] = (m[s] ?? 0) + 1;
          return m;
        }, {}),
      );
      summary.push(`${route.name}: ${counts.map(([s, n]) => `${n}×${s}`).join(', ')}`);
      expect(
        statuses.filter((s) => s >= 500),
        route.name,
      ).toEqual([]);
      expect(answers).toHaveLength(OVER);
      if (route.limited) {
        // Exactly the budget gets the route's own answer; everything after it is the limit's 429.
        const own = statuses.filter((s) => s !== 429);
        if (route.stricter) expect(own.length, route.name).toBeLessThanOrEqual(ANONYMOUS_LIMIT);
        else expect(own.length, route.name).toBe(ANONYMOUS_LIMIT);
        expect(new Set(own), route.name).toEqual(new Set(route.before));
        const limited = answers.filter((a) => a.status === 429);
        expect(limited.length).toBe(OVER - own.length);
        for (const a of limited) {
          expect(codeOf(a), route.name).toBe('RATE_LIMIT_EXCEEDED');
          expect(Number(a.headers['retry-after']), route.name).toBeGreaterThan(0);
        }
      } else {
        expect(new Set(statuses), route.name).toEqual(new Set(route.before));
      }
    }
    process.stderr.write(
      `hammer (${OVER} requests per route, ${CONCURRENCY} at a time, per-address limit ${ANONYMOUS_LIMIT}):\n  ${summary.join('\n  ')}\n`,
    );

    // Still alive and serving, with nothing escaped to the process-level handlers.
    expect(serve.child.exitCode).toBeNull();
    const health = await request(`${serve.url}/health`, { from: '127.0.0.9' });
    expect(health.status).toBe(200);
    expect(serve.stderr()).not.toMatch(/unhandledRejection|uncaughtException/);
    // An address that did nothing is still served normally.
    expect((await request(`${serve.url}/api/v1/embed/wizard`, { from: '127.0.0.9' })).status).toBe(401);
  }, 300_000);

  it('stops cleanly on SIGTERM afterwards (exit code 0)', async () => {
    serve.child.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
  }, 60_000);
});

describe('the process guard (src/core/process-guard.ts) in a process of its own', () => {
  it('logs an unhandled rejection and keeps running; an uncaught exception asks for a clean stop, exit code 1', async () => {
    const script = path.join(data.dir, 'guard.ts');
    const src = path.join(REPO_ROOT, 'src');
    await writeFile(
      script,
      `import { installProcessGuard } from ${JSON.stringify(path.join(src, 'core', 'process-guard.ts'))};
import { createLogger } from ${JSON.stringify(path.join(src, 'core', 'log.ts'))};
const guard = installProcessGuard(createLogger('info'));
const rejected = Object.assign(new Error('nobody awaited me'), { requestId: 'req_hammer1' });
void Promise.reject(rejected);
setTimeout(() => {
  process.stdout.write('alive after rejection: ' + guard.rejections() + '\\n');
  guard.fatal.then((why) => {
    process.stdout.write('clean stop asked: ' + why + '\\n');
    setTimeout(() => process.stdout.write('still stopping cleanly\\n'), 50);
  });
  setTimeout(() => { throw new Error('thrown from a timer'); }, 10);
}, 50);
`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', script], { cwd: REPO_ROOT });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stdout).toBe('alive after rejection: 1\nclean stop asked: uncaughtException\nstill stopping cleanly\n');
    expect(code).toBe(1);
    const lines = stderr
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({
      event: 'unhandledRejection',
      requestId: 'req_hammer1',
      err: expect.objectContaining({ message: 'nobody awaited me' }),
    });
    expect(lines[1]).toMatchObject({
      event: 'uncaughtException',
      err: expect.objectContaining({ message: 'thrown from a timer' }),
    });
  }, 60_000);
});

/**
 * Where the REST tool route's cost goes, step by step: routes added to the service's app, each answering the bare
 * route's body and headers (bench/rest.ts) after doing one more part of what the templates tool route does, loaded
 * in alternating rounds with autocannon in this process. Printed: each step's CPU per request (the process's,
 * autocannon's included, median of the rounds) and what it adds to the step before.
 *
 *   npm run bench -- rest-steps
 *
 * The steps: `plain` the bare handler in the service's app; `schema` with the tool route's querystring schema;
 * `call` reading the call (restCall: key, cookie, CSRF header); `key` the key cache's lookup; `admit` the key's
 * checks, its account's and the rate counters (src/access/key.ts); `admitCall` the tool's scope and tier and the
 * sign of life (src/access/admit.ts); `invoke` the whole tool wrapper (invokeTool: admission, validation, the
 * handler, the output check), its answer serialised as the bare route's is; `tool` the real route, whose answer is
 * the constant output's text made once (src/http/success.ts).
 */
import type { FastifyReply } from 'fastify';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { admitCall } from '../src/access/admit.js';
import type { CallInfo } from '../src/access/call.js';
import { admit } from '../src/access/key.js';
import { lookupKey } from '../src/access/key-cache.js';
import { closeServices, openServices } from '../src/app.js';
import { systemClock } from '../src/core/clock.js';
import { loadConfig } from '../src/core/config.js';
import { createLogger } from '../src/core/log.js';
import { buildApp } from '../src/http/app.js';
import { setRateHeaders } from '../src/http/rate-headers.js';
import { restCall } from '../src/http/rest-call.js';
import { cookieOptionsOf } from '../src/http/session-cookie.js';
import { createKey } from '../src/keys/provision.js';
import { listTemplates } from '../src/tools/contracts/list-templates.js';
import { invokeTool } from '../src/tools/invoke.js';
import { TOOLS } from '../src/tools/index.js';
import { bareAnswer, benchLimiter } from './rest.js';
import { loadRun } from './load.js';
import { fmt, isMain, median } from './util.js';

const ROUNDS = 7;
const DURATION_S = 2;
const CONNECTIONS = 32;

export async function benchRestSteps(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'svc-bench-rest-steps-'));
  const services = await openServices(loadConfig({ 'data-dir': dir }, {}), { log: createLogger('warn') });
  services.limiter = benchLimiter();
  const { key } = await createKey(services.store, { name: 'bench', tier: 'internal', scopes: ['all'] }, systemClock);
  const app = await buildApp(services, TOOLS);

  const { requestId, body } = bareAnswer();
  const fixed = { limit: 10_000, remaining: 9_999, resetAt: new Date(Date.now() + 15 * 60_000), allowed: true };
  const cookies = cookieOptionsOf(services.config);
  const schema = { querystring: listTemplates.input };
  const answer = (reply: FastifyReply, rate = fixed) => {
    reply.header('x-request-id', requestId);
    setRateHeaders(reply, rate);
    return body;
  };
  /** A step's work on the call it reads (restCall); what admission leaves in `call.rate` goes to the headers. */
  type Step = (call: CallInfo) => unknown;
  const steps: Array<[string, Step | undefined]> = [
    ['plain', undefined],
    ['schema', undefined],
    ['call', () => undefined],
    ['key', (call) => lookupKey(services.store, call.apiKey!, call.connection)],
    ['admit', (call) => admit(services, call, 'all')],
    ['admitCall', (call) => admitCall(listTemplates, services, call)],
    ['invoke', (call) => invokeTool(listTemplates, {}, services, call)],
  ];
  for (const [name, step] of steps) {
    const url = `/bench/steps/${name}`;
    if (name === 'plain') app.get(url, async (_req, reply) => answer(reply));
    else if (!step) app.get(url, { schema }, async (_req, reply) => answer(reply));
    else
      app.get(url, { schema }, async (req, reply) => {
        const call = restCall(req, cookies);
        const done = step(call);
        if (done instanceof Promise) await done;
        return answer(reply, call.rate ?? fixed);
      });
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const urls = new Map<string, string>([
    ...steps.map(([name]) => [name, `${base}/bench/steps/${name}`] as [string, string]),
    ['tool', `${base}/api/v1/contracts/templates`],
  ]);
  const headers = { authorization: `Bearer ${key}` };

  const cpuPerRequest = async (url: string, seconds: number): Promise<number> =>
    (await loadRun({ url, headers, connections: CONNECTIONS, duration: seconds, pipelining: 1 })).cpuPerRequest;
  for (const url of urls.values()) await cpuPerRequest(url, 1);
  const runs = new Map<string, number[]>([...urls.keys()].map((n) => [n, []]));
  for (let i = 0; i < ROUNDS; i++) {
    // Forwards, then backwards: a machine getting busier or quieter favours no step.
    const order = i % 2 === 0 ? [...urls] : [...urls].reverse();
    for (const [name, url] of order) runs.get(name)!.push(await cpuPerRequest(url, DURATION_S));
  }
  await app.close();
  await closeServices(services);
  await rm(dir, { recursive: true, force: true });

  console.log(
    `\nREST steps: CPU per request (autocannon's included), median of ${ROUNDS} alternating rounds of ${DURATION_S} s`,
  );
  let before: number | undefined;
  const plain = median(runs.get('plain')!);
  for (const [name, xs] of runs) {
    const m = median(xs);
    const added = before === undefined ? '' : `  ${m - before >= 0 ? '+' : ''}${fmt(m - before, 1)} µs`;
    console.log(`  ${name.padEnd(10)} ${fmt(m, 1).padStart(6)} µs  ratio ${fmt(plain / m)}${added}`);
    before = m;
  }
}

if (isMain(import.meta.url)) await benchRestSteps();

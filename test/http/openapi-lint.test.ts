import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Ajv, type AnySchema } from 'ajv';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../src/core/errors.js';
import { SolcPool } from '../../src/contracts/evm/pool.js';
import { TOOLS } from '../../src/tools/index.js';
import { chainsAt, startEmptyEvmNode } from '../support/evm-rpc-standin.js';
import { REPO_ROOT, startTestServer, type TestServer } from '../helpers.js';
import { resolveRef, type Json } from '../support/openapi.js';

// The OpenAPI document as code generators and API testers see it: Redocly's
// linter accepts it without a warning, shared schemas are components, every
// operation carries a valid example, and what the server really sends (status,
// Content-Type, headers) is what the document declares.

// The create_webhook example names a public host. Tests have no DNS: the host
// resolves to a public address here, so the example is checked as written.
vi.mock('node:dns', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:dns')>();
  const lookup = (async (host: string, options: unknown) =>
    host === 'hooks.example.com'
      ? [{ address: '93.184.215.14', family: 4 }]
      : real.promises.lookup(host, options as never)) as typeof real.promises.lookup;
  const promises = { ...real.promises, lookup };
  return { ...real, promises, default: { ...real, promises } };
});

const run = promisify(execFile);

let server: TestServer;
let doc: Json;
let node: { url: string; close(): Promise<void> };

beforeAll(async () => {
  node = await startEmptyEvmNode();
  server = await startTestServer({ listen: false, config: { chains: chainsAt(node.url) } });
  const res = await server.app.inject({ url: '/api/v1/openapi.json' });
  expect(res.statusCode).toBe(200);
  doc = res.json();
});

afterAll(async () => {
  await server?.close();
  await node?.close();
});

const resolve = (node: Json): Json => resolveRef(doc, node);

/** A schema with every local `$ref` replaced and OpenAPI 3.0's boolean exclusive bounds made numeric, for Ajv. */
function deref(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(deref);
  if (node === null || typeof node !== 'object') return node;
  const obj = node as Json;
  if (typeof obj.$ref === 'string') return deref(resolve(obj));
  const out: Json = Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, deref(v)]));
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof out[flag] !== 'boolean') continue;
    if (out[flag]) out[flag] = out[bound];
    else delete out[flag];
    if (out[flag] !== undefined) delete out[bound];
  }
  return out;
}

interface Op {
  path: string;
  method: string;
  op: Json;
}

function operations(): Op[] {
  return Object.entries(doc.paths as Record<string, Record<string, Json>>).flatMap(([p, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path: p, method, op })),
  );
}

/** The request an operation's examples make: URL with path and query examples, and the body example. */
function exampleRequest({ path: p, op }: Op): { url: string; body: unknown } {
  let url = p;
  const query: string[] = [];
  for (const param of (op.parameters ?? []) as Json[]) {
    if (param.in === 'path') url = url.replace(`{${param.name}}`, encodeURIComponent(String(param.example)));
    if (param.in === 'query' && param.example !== undefined)
      query.push(`${encodeURIComponent(param.name)}=${encodeURIComponent(String(param.example))}`);
  }
  return {
    url: url + (query.length ? `?${query.join('&')}` : ''),
    body: op.requestBody?.content?.['application/json']?.example,
  };
}

describe('Redocly lint', () => {
  it('finds 0 errors and 0 warnings in the served document, offline', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'svc-openapi-'));
    try {
      const file = path.join(dir, 'openapi.json');
      await writeFile(file, JSON.stringify(doc));
      const cli = path.join(REPO_ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
      const { stdout } = await run(
        process.execPath,
        [cli, 'lint', '--config', path.join(REPO_ROOT, 'redocly.yaml'), '--format=json', file],
        {
          cwd: dir,
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
          timeout: 120_000,
          maxBuffer: 16 * 1024 * 1024,
        },
      ).catch((err: { stdout?: string; stderr?: string }) => {
        throw new Error(`redocly lint failed:\n${err.stdout ?? ''}\n${err.stderr ?? ''}`);
      });
      const report = JSON.parse(stdout) as {
        totals: { errors: number; warnings: number };
        problems: Array<{ ruleId: string; message: string }>;
      };
      expect(report.problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 150_000);

  it('declares 4xx answers on every /api operation (the rule redocly.yaml turns off only for /health)', () => {
    for (const { path: p, method, op } of operations()) {
      if (!p.startsWith('/api/')) continue;
      expect(
        Object.keys(op.responses).some((s) => s.startsWith('4')),
        `${method} ${p}`,
      ).toBe(true);
    }
  });
});

describe('Swagger UI', () => {
  it('is given the same finished document (examples for "Try it out")', async () => {
    const res = await server.app.inject({ url: '/docs/json' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(doc);
  });
});

describe('components', () => {
  it('names the shared schemas and refers to them', () => {
    const names = Object.keys(doc.components.schemas);
    for (const name of [
      'ErrorEnvelope',
      'Meta',
      'OffsetPagination',
      'CursorPagination',
      'ApiKey',
      'Webhook',
      'Account',
    ])
      expect(names).toContain(name);
    const text =
      JSON.stringify({ paths: doc.paths, components: { ...doc.components, schemas: undefined } }) +
      JSON.stringify(doc.components.schemas);
    for (const name of ['Meta', 'OffsetPagination', 'CursorPagination', 'ApiKey', 'Webhook', 'Account']) {
      expect(text.includes(`"#/components/schemas/${name}"`), `${name} is referenced`).toBe(true);
    }
    // The error envelope lives in one place: components.responses refer to it, operations to them.
    expect(JSON.stringify(doc.paths).includes('Always false on error.')).toBe(false);
    for (const r of Object.values(doc.components.responses as Record<string, Json>)) {
      expect(Object.values(r.content as Record<string, Json>)[0]!.schema).toEqual({
        $ref: '#/components/schemas/ErrorEnvelope',
      });
    }
  });

  it('leaves no object schema inline in two operations', () => {
    const seen = new Map<string, Set<string>>();
    const walk = (node: unknown, op: string): void => {
      if (Array.isArray(node)) return node.forEach((n) => walk(n, op));
      if (node === null || typeof node !== 'object') return;
      const obj = node as Json;
      if (obj.type === 'object' && Object.keys(obj.properties ?? {}).length) {
        const { description: _d, ...rest } = obj;
        const key = JSON.stringify(rest);
        seen.set(key, (seen.get(key) ?? new Set()).add(op));
      }
      for (const [k, v] of Object.entries(obj)) if (k !== 'example') walk(v, op);
    };
    for (const { op } of operations()) walk(op, op.operationId);
    const shared = [...seen.entries()]
      .filter(([, ops]) => ops.size > 1)
      .map(([k, ops]) => `${[...ops].join(',')}: ${k.slice(0, 120)}`);
    expect(shared).toEqual([]);
  });

  it('states the bounds validation enforces: the real ones, else the safe-integer range, with the integer format', () => {
    const limit = (doc.paths['/api/v1/api-keys'].get.parameters as Json[]).find((p) => p.name === 'limit')!;
    expect(limit.schema).toMatchObject({ minimum: 1, maximum: 100, format: 'int32' });
    const detail = doc.components.schemas.ErrorEnvelope.properties.error.properties.details.items.properties;
    expect(detail.line).toEqual({
      type: 'integer',
      format: 'int64',
      minimum: -Number.MAX_SAFE_INTEGER,
      maximum: Number.MAX_SAFE_INTEGER,
      description: expect.any(String),
    });
  });
});

describe('examples', () => {
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });

  it('gives every operation of a tool its example: body, path and required query parameters, each valid against its schema', () => {
    for (const tool of TOOLS) {
      expect(tool.example, `${tool.name} has an example`).toBeDefined();
      const found = operations().find((o) => o.op.operationId === tool.name)!;
      const params = (found.op.parameters ?? []) as Json[];
      for (const p of params) {
        if (p.in === 'path' || p.required) expect(p.example, `${tool.name} ${p.in} ${p.name}`).toBeDefined();
        if (p.example !== undefined && p.in !== 'path')
          expect(
            ajv.validate(deref(p.schema) as AnySchema, p.example),
            `${tool.name} ${p.name}: ${ajv.errorsText()}`,
          ).toBe(true);
      }
      const media = found.op.requestBody?.content?.['application/json'];
      if (media) {
        expect(media.example, `${tool.name} body example`).toBeDefined();
        expect(
          ajv.validate(deref(media.schema) as AnySchema, media.example),
          `${tool.name} body: ${ajv.errorsText()}`,
        ).toBe(true);
      }
    }
  });

  it('answers each example without VALIDATION_ERROR, with the declared status, Content-Type and headers', async () => {
    const auth = { authorization: `Bearer ${server.adminKey}` };
    // create_embed_session's example needs its origin among the key's allowedOrigins.
    const keys = (await server.app.inject({ method: 'GET', url: '/api/v1/api-keys?limit=100', headers: auth })).json()
      .data as Array<{ id: string; displayPrefix: string }>;
    const admin = keys.find((k) => server.adminKey.startsWith(k.displayPrefix))!;
    await server.app.inject({
      method: 'PATCH',
      url: `/api/v1/api-keys/${admin.id}`,
      headers: auth,
      payload: { allowedOrigins: ['https://partner.example'] },
    });
    // create_webhook last, and its subscription removed at once: no event is delivered to the example host.
    const ops = operations()
      .filter((o) => o.path.startsWith('/api/'))
      .sort((a, b) => Number(a.op.operationId === 'create_webhook') - Number(b.op.operationId === 'create_webhook'));
    const statuses: Record<string, number> = {};
    for (const o of ops) {
      const { url, body } = exampleRequest(o);
      const res = await server.app.inject({
        method: o.method.toUpperCase() as 'GET',
        url,
        headers: auth,
        ...(body !== undefined ? { payload: body as object } : {}),
      });
      const id = o.op.operationId as string;
      statuses[id] = res.statusCode;
      const json = res.json();
      expect(json.error?.code, `${id}: ${res.body.slice(0, 300)}`).not.toBe('VALIDATION_ERROR');
      const declared = o.op.responses[String(res.statusCode)];
      expect(declared, `${id} answered an undeclared ${res.statusCode}`).toBeDefined();
      const response = resolve(declared);
      expect(Object.keys(response.content), `${id} ${res.statusCode}`).toContain(res.headers['content-type']);
      for (const header of Object.keys(response.headers ?? {})) {
        if (header === 'Retry-After' || header === 'Set-Cookie') continue;
        expect(res.headers[header.toLowerCase()], `${id} ${res.statusCode} ${header}`).toBeDefined();
      }
      if (id === 'create_webhook' && res.statusCode === 201) {
        const del = await server.app.inject({
          method: 'DELETE',
          url: `/api/v1/webhooks/subscriptions/${json.data.id}`,
          headers: auth,
        });
        expect(del.statusCode).toBe(200);
      }
      // Registering answers 202 without a session (the same answer whether or not the address was taken).
      if (id === 'register') expect(res.headers['set-cookie'], id).toBeUndefined();
      if (id === 'login' && res.statusCode < 300) {
        expect(response.headers['Set-Cookie']).toBeDefined();
        expect(res.headers['set-cookie'], id).toBeDefined();
      }
    }
    // The examples that need no prior data succeed; planned routes answer 501.
    expect(statuses).toMatchObject({
      generate_contract: 200,
      compile_contract: 200,
      estimate_gas: 200,
      check_plan: 200,
      calculate_inheritance: 200,
      create_api_key: 201,
      create_webhook: 201,
      create_account: 201,
      register: 202,
      login: 200,
      list_jurisdictions: 200,
      get_jurisdiction: 200,
      search_docs: 200,
      get_doc: 200,
      generate_legal_document: 501,
      sign_legal_document: 501,
    });
  }, 180_000);
});

describe('declared headers', () => {
  it('sends Retry-After with 503 SERVICE_BUSY, as the document declares', async () => {
    const busy = new ApiError(
      'SERVICE_BUSY',
      'All compiler workers are busy',
      undefined,
      new Date(Date.now() + 30_000).toISOString(),
    );
    const spy = vi.spyOn(SolcPool.prototype, 'compile').mockRejectedValueOnce(busy);
    try {
      const compile = operations().find((o) => o.op.operationId === 'compile_contract')!;
      const res = await server.app.inject({
        method: 'POST',
        url: compile.path,
        headers: { authorization: `Bearer ${server.adminKey}` },
        payload: compile.op.requestBody.content['application/json'].example,
      });
      expect(res.statusCode).toBe(503);
      expect(res.json().error.code).toBe('SERVICE_BUSY');
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      const declared = resolve(compile.op.responses['503']);
      expect(Object.keys(declared.headers)).toEqual(
        expect.arrayContaining(['Retry-After', 'X-RateLimit-Limit', 'X-Request-Id']),
      );
      expect(Object.keys(declared.content)).toContain(res.headers['content-type']);
    } finally {
      spy.mockRestore();
    }
  });

  it('sends and declares WWW-Authenticate on every 401', async () => {
    const templates = operations().find((o) => o.op.operationId === 'list_templates')!;
    const res = await server.app.inject({ url: templates.path });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="svc"');
    for (const { op } of operations()) {
      if (op.responses['401'])
        expect(Object.keys(resolve(op.responses['401']).headers), op.operationId).toContain('WWW-Authenticate');
    }
  });

  it('declares Retry-After on every 429 and Set-Cookie on the session routes', () => {
    for (const { op } of operations()) {
      if (op.responses['429']) expect(Object.keys(resolve(op.responses['429']).headers)).toContain('Retry-After');
    }
    for (const id of ['register', 'login', 'change_password', 'logout']) {
      const { op } = operations().find((o) => o.op.operationId === id)!;
      const success = Object.entries(op.responses as Record<string, Json>).find(([s]) => s.startsWith('2'))![1];
      expect(Object.keys(success.headers), id).toContain('Set-Cookie');
    }
  });
});

/**
 * Constant outputs (src/tools/constant.ts): checked against the output schema the first time only, and answered over
 * REST from text serialised once (src/http/success.ts), byte for byte what serialising the envelope gives, with each
 * request's own id and timestamp.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { constantOutput, isConstantOutput } from '../../src/tools/constant.js';
import { defineTool, READ, type AnyTool } from '../../src/tools/define.js';
import { envelope, successBody } from '../../src/http/success.js';
import { listTemplates } from '../../src/tools/contracts/list-templates.js';
import { startTestServer, type TestServer } from '../helpers.js';

const Item = z.object({ n: z.number().describe('A number.') }).describe('An item.');

/** A tool answering a constant; `answer` is swapped by the tests. */
let answer: Record<string, unknown> = {};
const probe = defineTool({
  name: 'test_constant',
  title: 'Constant',
  description: 'Answers a constant output.',
  domain: 'test',
  scope: 'contracts:read',
  bucket: 'default',
  annotations: READ,
  input: z.strictObject({}),
  output: z.object({
    items: z.array(Item).describe('Items.'),
    total: z.number().describe('How many.'),
  }),
  rest: { method: 'GET', path: '/test/constant', shape: 'top-level', metaFields: ['total'] },
  handler: () => answer as { items: Array<{ n: number }>; total: number },
});

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ tools: [probe as AnyTool, listTemplates as AnyTool], listen: false });
});
afterAll(async () => {
  await server?.close();
});

const get = (url: string, headers: Record<string, string> = {}) =>
  server.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${server.adminKey}`, ...headers } });

describe('a constant output over REST', () => {
  it('is checked once and answered as the serialised envelope, with each request its own id and time', async () => {
    answer = constantOutput({ items: [{ n: 1 }, { n: 2, extra: 'not in the schema' }], total: 2 });
    const check = vi.spyOn(probe.output, 'safeParse');
    try {
      const ids = new Set<string>();
      for (let i = 0; i < 3; i++) {
        const res = await get('/api/v1/test/constant');
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
        const body = res.json();
        expect(body).toEqual({
          success: true,
          items: [{ n: 1 }, { n: 2 }],
          meta: { requestId: res.headers['x-request-id'], timestamp: expect.any(String), total: 2 },
        });
        expect(Date.parse(body.meta.timestamp)).not.toBeNaN();
        // The text itself is what serialising the answer gives.
        expect(res.body).toBe(JSON.stringify(body));
        ids.add(body.meta.requestId);
      }
      expect(ids.size).toBe(3);
      expect(check).toHaveBeenCalledTimes(1);
    } finally {
      check.mockRestore();
    }
  });

  it("carries the caller's request id as given", async () => {
    answer = constantOutput({ items: [], total: 0 });
    const res = await get('/api/v1/test/constant', { 'x-request-id': 'client.id:42' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toBe('client.id:42');
    expect(res.json().meta.requestId).toBe('client.id:42');
  });

  it('that does not match its schema is refused on every call, never remembered', async () => {
    answer = constantOutput({ items: [{ n: 'one' }], total: 1 });
    const check = vi.spyOn(probe.output, 'safeParse');
    try {
      for (let i = 0; i < 2; i++) {
        const res = await get('/api/v1/test/constant');
        expect(res.statusCode).toBe(500);
        expect(res.json().error.code).toBe('INTERNAL_ERROR');
      }
      expect(check).toHaveBeenCalledTimes(2);
    } finally {
      check.mockRestore();
    }
  });

  it('is frozen: a change to it throws', () => {
    const value = constantOutput({ items: [{ n: 1 }], total: 1 });
    expect(isConstantOutput(value)).toBe(true);
    expect(() => {
      (value.items[0] as { n: number }).n = 2;
    }).toThrow(TypeError);
    expect(isConstantOutput({ items: [], total: 0 })).toBe(false);
  });

  it('the template catalogue answers each page from the same constant', async () => {
    const whole = await get('/api/v1/contracts/templates');
    const again = await get('/api/v1/contracts/templates');
    const second = await get('/api/v1/contracts/templates?page=2&limit=2');
    expect(whole.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(again.json().templates).toEqual(whole.json().templates);
    expect(second.json().templates).toEqual(whole.json().templates.slice(2, 4));
    expect(second.json().meta.pagination).toMatchObject({ page: 2, limit: 2, hasPrev: true });
  });
});

describe('successBody', () => {
  const now = new Date('2026-01-02T03:04:05.678Z');
  const output = () => constantOutput({ items: [{ n: 1 }], pagination: { page: 1 }, note: 'a "quoted" note' });
  const shapes: Array<[string, AnyTool['rest']]> = [
    ['top-level', { method: 'GET', path: '/x', shape: 'top-level' }],
    ['top-level with meta fields', { method: 'GET', path: '/x', shape: 'top-level', metaFields: ['pagination'] }],
    ['list', { method: 'GET', path: '/x', shape: 'list', metaFields: ['note'] }],
    ['data', { method: 'GET', path: '/x', shape: 'data', dataField: 'items', metaFields: ['note'] }],
    ['data without a field', { method: 'GET', path: '/x', shape: 'data', metaFields: ['pagination'] }],
  ];
  for (const [name, rest] of shapes) {
    it(`gives the text of the envelope for a constant output (${name})`, () => {
      const tool = { rest } as AnyTool;
      const out = output();
      for (const requestId of ['req_01ABC', 'odd"id\\']) {
        const text = successBody(tool, out, requestId, now);
        expect(typeof text).toBe('string');
        expect(text).toBe(JSON.stringify(envelope(tool, out, { requestId, timestamp: now.toISOString() })));
      }
    });
  }

  it('gives the envelope object for any other output', () => {
    const tool = { rest: shapes[0]![1] } as AnyTool;
    const body = successBody(tool, { a: 1 }, 'req_1', now);
    expect(body).toEqual({ success: true, a: 1, meta: { requestId: 'req_1', timestamp: now.toISOString() } });
  });
});

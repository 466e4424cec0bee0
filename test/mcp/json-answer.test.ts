import type { IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { JsonAnswer, soleRequest } from '../../src/mcp/json-answer.js';
import { startTestServer, type TestServer } from '../helpers.js';

// The usual MCP POST (one request, one JSON answer) is answered by the service's own transport; everything else by
// the SDK's. Both must give the same answers: the SDK's is the reference.

const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-06-18',
};

/** A request with these headers, for soleRequest (which reads only the headers). */
const withHeaders = (headers: Record<string, string | undefined>) => ({ headers }) as unknown as IncomingMessage;

const CALL = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'list_templates', arguments: {} } };

describe('which POSTs the service answers itself', () => {
  it('takes one request of the shape the SDK accepts, with the headers the specification asks for', () => {
    expect(soleRequest(withHeaders(HEADERS), CALL)).toBe(CALL);
    expect(soleRequest(withHeaders(HEADERS), { jsonrpc: '2.0', id: 'a', method: 'ping' })).toBeDefined();
    const charset = { ...HEADERS, 'content-type': 'Application/JSON; charset=utf-8' };
    expect(soleRequest(withHeaders(charset), CALL)).toBe(CALL);
    // No version header: the SDK then assumes the one negotiated at initialization.
    expect(soleRequest(withHeaders({ ...HEADERS, 'mcp-protocol-version': undefined }), CALL)).toBe(CALL);
  });

  it('leaves every other message to the SDK', () => {
    const others: unknown[] = [
      [CALL],
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 7, result: {} },
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} },
      { ...CALL, extra: true },
      { ...CALL, jsonrpc: '1.0' },
      { ...CALL, id: 1.5 },
      { ...CALL, id: null },
      { ...CALL, method: 3 },
      { ...CALL, params: [] },
      { ...CALL, params: { ...CALL.params, _meta: { progressToken: 1 } } },
      null,
      'tools/call',
    ];
    for (const body of others) expect(soleRequest(withHeaders(HEADERS), body), JSON.stringify(body)).toBeUndefined();
  });

  it('leaves requests with other headers to the SDK, which refuses them', () => {
    const headers: Array<Record<string, string | undefined>> = [
      { ...HEADERS, accept: 'application/json' },
      { ...HEADERS, accept: undefined },
      { ...HEADERS, 'content-type': 'text/plain' },
      { ...HEADERS, 'content-type': undefined },
      { ...HEADERS, 'mcp-protocol-version': '1999-01-01' },
    ];
    for (const h of headers) expect(soleRequest(withHeaders(h), CALL), JSON.stringify(h)).toBeUndefined();
  });
});

describe('the answers of both transports', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server.close();
  });

  async function post(body: unknown, headers: Record<string, string> = HEADERS) {
    const res = await fetch(new URL('/mcp', server.url), {
      method: 'POST',
      headers: { ...headers, authorization: `Bearer ${server.adminKey}` },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      requestId: res.headers.get('x-request-id'),
      text,
    };
  }

  /** An answer with what differs from call to call (request ids, timestamps) put aside. */
  function comparable(text: string): unknown {
    return JSON.parse(
      text.replace(/req_[0-9A-HJKMNP-TV-Z]{26}/g, 'req_').replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, 'time'),
    );
  }

  it('are the same for tool calls, lists, errors and unknown methods, the usual ones answered by the service', async () => {
    const requests = [
      CALL,
      { jsonrpc: '2.0', id: 'list', method: 'tools/list' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } },
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_contract', arguments: { contractId: 7 } } },
      { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'list_templates', arguments: { limit: 'x' } } },
      { jsonrpc: '2.0', id: 5, method: 'resources/list' },
      { jsonrpc: '2.0', id: 6, method: 'no/such/method' },
      { jsonrpc: '2.0', id: 8, method: 'ping' },
    ];
    const sent = vi.spyOn(JsonAnswer.prototype, 'send');
    try {
      for (const request of requests) {
        sent.mockClear();
        const ours = await post(request);
        expect(sent, request.method).toHaveBeenCalledTimes(1);
        sent.mockClear();
        // A batch of one: the SDK's transport answers it, with the one answer alone.
        const sdks = await post([request]);
        expect(sent).not.toHaveBeenCalled();
        expect(ours.status, request.method).toBe(200);
        expect(ours.type).toBe('application/json');
        expect([sdks.status, sdks.type]).toEqual([ours.status, ours.type]);
        expect(ours.requestId).toMatch(/^req_/);
        expect(comparable(ours.text), `${request.method} ${ours.text.slice(0, 200)}`).toEqual(comparable(sdks.text));
        expect((comparable(ours.text) as { id: unknown }).id).toBe(request.id);
      }
    } finally {
      sent.mockRestore();
    }
  });

  // A body of another type never reaches MCP: the app refuses it first.
  it('leaves refusals to the SDK: a wrong Accept or protocol version', async () => {
    const cases: Array<[Record<string, string>, number]> = [
      [{ ...HEADERS, accept: 'application/json' }, 406],
      [{ ...HEADERS, 'mcp-protocol-version': '1999-01-01' }, 400],
    ];
    for (const [headers, status] of cases) {
      const answer = await post(CALL, headers);
      expect(answer.status, JSON.stringify(headers)).toBe(status);
      expect(JSON.parse(answer.text)).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) } });
    }
  });
});

describe('an answer that cannot be written as JSON', () => {
  it('is answered with a JSON-RPC internal error rather than left hanging', async () => {
    const written: Array<{ status: number; headers: unknown; body: string }> = [];
    const res = {
      headersSent: false,
      writeHead(status: number, headers: unknown) {
        written.push({ status, headers, body: '' });
        this.headersSent = true;
      },
      end(body: string) {
        written[0]!.body = body;
      },
    };
    const transport = new JsonAnswer(res as never, CALL as never);
    await transport.send({ jsonrpc: '2.0', id: 6, result: {} });
    expect(written).toEqual([]); // another request's answer is not this one's
    await transport.send({ jsonrpc: '2.0', id: 7, result: { big: 1n } as never });
    expect(written).toHaveLength(1);
    expect(JSON.parse(written[0]!.body)).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32603, message: 'Internal error' },
    });
  });
});

describe('a client gone before its request was handed over', () => {
  it('starts no call', async () => {
    const transport = new JsonAnswer({ headersSent: false } as never, CALL as never);
    const handed: unknown[] = [];
    transport.onmessage = (m) => handed.push(m);
    let closed = 0;
    transport.onclose = () => closed++;
    await transport.close();
    transport.deliver();
    expect(handed).toEqual([]);
    expect(closed).toBe(1);
    await transport.close();
    expect(closed).toBe(1);
  });
});

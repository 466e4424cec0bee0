/**
 * A connection remembers the hash of the key it presented last (src/access/key-cache.ts): requests on one kept-alive
 * connection that change keys, present a wrong one or use a key just revoked are each admitted as themselves, over
 * REST and over MCP (POST /mcp).
 */
import { Pool } from 'undici';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { API_KEYS } from '../../src/keys/keys.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { mcpToolCallRequest } from '../mcp-clients.js';

let server: TestServer;
let pool: Pool;
beforeAll(async () => {
  server = await startTestServer();
  // One connection: every request below goes over the same socket.
  pool = new Pool(server.url, { connections: 1, pipelining: 1 });
});
afterAll(async () => {
  await pool?.close();
  await server?.close();
});

async function get(path: string, key: string): Promise<{ status: number; code?: string }> {
  const res = await pool.request({ method: 'GET', path, headers: { authorization: `Bearer ${key}` } });
  const body = (await res.body.json()) as { error?: { code: string } };
  return { status: res.statusCode, code: body.error?.code };
}

it('admits each request on a connection with the key it presents', async () => {
  const reader = await server.key({ tier: 'partner', scopes: ['contracts'], name: 'reader' });
  const other = await server.key({ tier: 'partner', scopes: ['webhooks'], name: 'no contracts' });
  const templates = '/api/v1/contracts/templates';
  for (let i = 0; i < 3; i++) {
    expect(await get(templates, reader)).toMatchObject({ status: 200 });
    expect(await get(templates, other)).toMatchObject({ status: 403, code: 'INSUFFICIENT_SCOPE' });
    expect(await get(templates, `${reader.slice(0, -1)}x`)).toMatchObject({ status: 401, code: 'API_KEY_INVALID' });
  }
  expect(await get(templates, reader)).toMatchObject({ status: 200 });
  // Revoked between two requests of the same connection (written straight to the store): refused at once.
  const store = server.services.store;
  const record = (await store.all<{ id: string; name: string }>(API_KEYS)).find((k) => k.name === 'reader');
  await store.put(API_KEYS, { ...record!, revokedAt: new Date().toISOString() });
  expect(await get(templates, reader)).toMatchObject({ status: 401, code: 'API_KEY_INVALID' });
});

/** One tools/call of list_templates over /mcp on the pool's connection: the HTTP status, and the error code if any. */
async function mcpCall(key: string): Promise<{ status: number; code?: string }> {
  const call = mcpToolCallRequest(key, 'list_templates', '{}');
  const res = await pool.request({ method: 'POST', path: call.url, headers: call.headers, body: call.payload });
  const body = (await res.body.json()) as {
    result?: { isError?: boolean; content: Array<{ text: string }> };
    error?: { data?: { code?: string } };
  };
  // A refused admission is a JSON-RPC error; a tool the key may not call answers an error result with the envelope.
  if (body.error) return { status: res.statusCode, code: body.error.data?.code };
  if (body.result?.isError) {
    const envelope = JSON.parse(body.result.content[0]!.text) as { error: { code: string } };
    return { status: res.statusCode, code: envelope.error.code };
  }
  return { status: res.statusCode };
}

it('admits each MCP call on a connection with the key it presents', async () => {
  const reader = await server.key({ tier: 'partner', scopes: ['contracts'], name: 'mcp reader' });
  const other = await server.key({ tier: 'partner', scopes: ['webhooks'], name: 'mcp no contracts' });
  for (let i = 0; i < 3; i++) {
    expect(await mcpCall(reader)).toEqual({ status: 200 });
    expect(await mcpCall(other)).toEqual({ status: 200, code: 'INSUFFICIENT_SCOPE' });
    expect(await mcpCall(`${reader.slice(0, -1)}x`)).toEqual({ status: 401, code: 'API_KEY_INVALID' });
  }
  expect(await mcpCall(reader)).toEqual({ status: 200 });
  const store = server.services.store;
  const record = (await store.all<{ id: string; name: string }>(API_KEYS)).find((k) => k.name === 'mcp reader');
  await store.put(API_KEYS, { ...record!, revokedAt: new Date().toISOString() });
  expect(await mcpCall(reader)).toEqual({ status: 401, code: 'API_KEY_INVALID' });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers.js';

// /mcp and browser origins: a page of this server's own loopback origin (http://127.0.0.1:PORT for a server on that
// port) may call it without being listed in SVC_ALLOWED_ORIGINS; any other origin still needs to be listed (DNS
// rebinding guard of the MCP transport).

let server: TestServer;
let port: number;

beforeAll(async () => {
  server = await startTestServer({ config: { allowedOrigins: [] } });
  port = Number(new URL(server.url).port);
});
afterAll(async () => {
  await server?.close();
});

async function list(origin: string) {
  const res = await fetch(new URL('/mcp', server.url), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${server.adminKey}`,
      origin,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : undefined };
}

describe('/mcp and the Origin header', () => {
  it('allows the same-origin loopback Origin of the port it listens on', async () => {
    for (const origin of [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`]) {
      const res = await list(origin);
      expect(res.status, origin).toBe(200);
      expect(Array.isArray(res.json.result.tools)).toBe(true);
    }
  });

  it('refuses other origins: another port, another host, a path or "null"', async () => {
    for (const origin of [
      `http://127.0.0.1:${port + 1}`,
      `http://127.0.0.1`,
      'https://evil.example',
      `http://evil.example:${port}`,
      `http://127.0.0.1:${port}/x`,
      'null',
    ]) {
      const res = await list(origin);
      expect(res.status, origin).toBe(403);
      expect(res.json.error.data.code).toBe('ORIGIN_NOT_ALLOWED');
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../src/core/errors.js';
import { defineTool } from '../../src/tools/define.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { connectInMemory } from './in-memory.js';
import { slowSolidity, untilCompileStarts } from '../support/slow-compile.js';

// notifications/cancelled from an MCP client stops the work it asked for.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ listen: false });
});
afterAll(async () => {
  await server?.close();
});

describe('MCP cancellation', () => {
  it('a cancelled compile_contract call stops its compile and frees the worker', async () => {
    const { client, close } = await connectInMemory(server, 'cancel-test');
    try {
      const pool = server.services.contracts.pool;
      const before = pool.stats.aborted;
      const source = slowSolidity('Cancelled');
      const misses = pool.stats.misses;
      const controller = new AbortController();
      const call = client.callTool(
        { name: 'compile_contract', arguments: { blockchain: 'evm', sourceCode: source } },
        undefined,
        { signal: controller.signal },
      );
      // Cancel once the compile has started.
      await untilCompileStarts(pool, misses);
      controller.abort('changed my mind');
      await expect(call).rejects.toThrow();
      for (let i = 0; i < 200 && pool.stats.aborted === before; i++) await new Promise((r) => setTimeout(r, 50));
      expect(pool.stats.aborted).toBe(before + 1);
      // The same call, not cancelled, still works.
      const again = await client.callTool({
        name: 'compile_contract',
        arguments: { blockchain: 'evm', sourceCode: source },
      });
      expect(again.isError).toBeFalsy();
    } finally {
      await close();
    }
  });

  it("aborts the handler with the API error REST gives a client that went away, not the client's own reason", async () => {
    // A pool rejects with the signal's reason, and generate_contract records a contract.error (sent to webhooks) of
    // whatever it rejected with: a client's reason string became INTERNAL_ERROR and an error log line.
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const reasons: unknown[] = [];
    const waits = defineTool({
      name: 'test_waits',
      title: 'Waits',
      description: 'Waits until its call is cancelled.',
      domain: 'test',
      scope: 'contracts:read',
      bucket: 'default',
      annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      input: z.strictObject({}),
      output: z.object({}),
      rest: { method: 'POST', path: '/test/waits', shape: 'data' },
      handler: (_input, ctx) =>
        new Promise<Record<string, never>>((_resolve, reject) => {
          ctx.signal?.addEventListener('abort', () => {
            reasons.push(ctx.signal?.reason);
            reject(ctx.signal?.reason);
          });
          started();
        }),
    });
    const { client, close } = await connectInMemory(server, 'cancel-test', { tools: [waits] });
    try {
      const controller = new AbortController();
      const call = client.callTool({ name: 'test_waits', arguments: {} }, undefined, { signal: controller.signal });
      await running;
      controller.abort('changed my mind');
      await expect(call).rejects.toThrow();
      for (let i = 0; i < 200 && reasons.length === 0; i++) await new Promise((r) => setImmediate(r));
      expect(reasons).toHaveLength(1);
      expect(reasons[0]).toBeInstanceOf(ApiError);
      expect(reasons[0]).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: '', reason: 'cancelled' }] });
    } finally {
      await close();
    }
  });
});

/**
 * Admission and the tool runner answer without a promise when nothing needs waiting for (a cached key on the
 * embedded store, the in-process limiter, a synchronous handler), so that the usual REST call is answered within the
 * request's own turn; anything else still answers through a promise, with the same outcome.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { admitCall } from '../../src/access/admit.js';
import type { CallInfo } from '../../src/access/call.js';
import { admit } from '../../src/access/key.js';
import { listTemplates } from '../../src/tools/contracts/list-templates.js';
import type { AnyTool } from '../../src/tools/define.js';
import { invokeTool } from '../../src/tools/invoke.js';
import { startTestServer, type TestServer } from '../helpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ listen: false });
});
afterAll(async () => {
  await server?.close();
});

const call = (apiKey: string | undefined): CallInfo => ({
  apiKey,
  requestId: 'req_test',
  transport: 'rest',
  clientIp: '127.0.0.1',
});
const tool = listTemplates as AnyTool;

describe('answers at once', () => {
  it('admits a cached key and runs a synchronous tool without a promise, counting the call', async () => {
    const key = await server.key({ name: 'at-once' });
    // The first calls read the key (and record its use, which moves the access revision): then it is cached.
    for (let i = 0; i < 3; i++) await invokeTool(tool, {}, server.services, call(key));

    const admitted = call(key);
    const found = admit(server.services, admitted);
    expect(found).not.toBeInstanceOf(Promise);
    expect((found as Awaited<typeof found>).principal.kind).toBe('key');
    expect(admitted.rate?.allowed).toBe(true);

    const principal = admitCall(tool, server.services, call(key));
    expect(principal).not.toBeInstanceOf(Promise);

    const counted = call(key);
    const output = invokeTool(tool, {}, server.services, counted);
    expect(output).not.toBeInstanceOf(Promise);
    expect((output as Record<string, unknown>).templates).toHaveLength(5);
    // One more request counted in the same counter.
    expect(counted.rate!.remaining).toBe(admitted.rate!.remaining - 2);
  });

  it('refuses a bad input of an admitted call by throwing, in the envelope error', async () => {
    const key = await server.key({ name: 'at-once-bad' });
    for (let i = 0; i < 3; i++) await invokeTool(tool, {}, server.services, call(key));
    expect(() => invokeTool(tool, { limit: 0 }, server.services, call(key))).toThrow(
      expect.objectContaining({ code: 'VALIDATION_ERROR' }),
    );
  });

  it('answers through a promise when the key must be read, with the same outcome', async () => {
    const key = await server.key({ name: 'fresh' });
    const first = invokeTool(tool, {}, server.services, call(key));
    expect(first).toBeInstanceOf(Promise);
    expect((await first).templates).toHaveLength(5);
    const unknown = invokeTool(tool, {}, server.services, call('svc_internal_not-a-real-key'));
    expect(unknown).toBeInstanceOf(Promise);
    await expect(unknown).rejects.toMatchObject({ code: 'API_KEY_INVALID' });
  });
});

/**
 * A key admission that waits for the store (a key not cached yet) counts at the time it counts, not at its arrival:
 * counted in a window the in-process limiter has already left, it would start that window again for the account's
 * counter and drop the counts already made in the new one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallInfo } from '../../src/access/call.js';
import { admit } from '../../src/access/key.js';
import { RATE_WINDOW_MS } from '../../src/keys/limits.js';
import { FakeClock, startTestServer, type TestServer } from '../helpers.js';

const clock = new FakeClock();
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ listen: false, clock });
});
afterAll(async () => {
  await server?.close();
});

const call = (apiKey: string): CallInfo => ({
  apiKey,
  requestId: 'req_test',
  transport: 'rest',
  clientIp: '127.0.0.1',
});

describe('a key admission that waited for the store', () => {
  it("counts in the window it ends in, beside the account's other calls", async () => {
    // Two keys of one account: they count in the account's one counter.
    const ownerId = await server.account({ tier: 'internal' });
    const cached = await server.key({ name: 'edge-cached', ownerId });
    const fresh = await server.key({ name: 'edge-fresh', ownerId });
    // Read once and its use recorded: then the first key is answered from the cache, at once.
    for (let i = 0; i < 3; i++) await admit(server.services, call(cached));
    clock.ms += RATE_WINDOW_MS - (clock.ms % RATE_WINDOW_MS) - 1; // the window's last millisecond
    expect(admit(server.services, call(cached))).not.toBeInstanceOf(Promise);

    const waiting = call(fresh);
    const pending = admit(server.services, waiting); // not cached: read from the store first
    expect(pending).toBeInstanceOf(Promise);
    clock.advance(2); // the next window begins while it waits
    const first = call(cached);
    expect(admit(server.services, first)).not.toBeInstanceOf(Promise);
    await pending;
    const after = call(cached);
    // (The fresh key's first use was recorded meanwhile, which moves the access revision: this one reads again.)
    await admit(server.services, after);

    // The three calls of the new window are counted in it, one after the other.
    expect(waiting.rate!.resetAt.getTime()).toBe(first.rate!.resetAt.getTime());
    expect(waiting.rate!.remaining).toBe(first.rate!.remaining - 1);
    expect(after.rate!.remaining).toBe(first.rate!.remaining - 2);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { ApiError } from '../../src/core/errors.js';
import { generateContract } from '../../src/contracts/engine.js';
import { EVENTS, type EventRecord } from '../../src/events/events.js';
import { startTestServer, type TestServer } from '../helpers.js';

// A generation its caller cancelled (the MCP client's notifications/cancelled, or a REST client that went away) is
// not a failure of the contract: it records no contract.error, which goes to the owner's webhooks as one. Before, the
// cancel's own error was recorded and sent as the contract's.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ listen: false });
});
afterAll(async () => server?.close());

const OWNER = 'acct_GENCANCEL0000000000000000000';
const plan = {
  blockchain: 'evm' as const,
  ownerAddress: '0x27b1fdb04752bbc536007a920d24acb045561c26',
  beneficiaries: [
    { name: 'A', address: '0x52908400098527886E0F7030069857D2E4169EE7', percentage: 60 },
    { name: 'B', address: '0x8617e340b3d01fa5f11f306f4090fd50e238070d', percentage: 40 },
  ],
};

const errorsOf = async () =>
  (await server.services.store.all<EventRecord>(EVENTS)).filter(
    (e) => e.type === 'contract.error' && e.ownerId === OWNER,
  );

describe('a cancelled generate_contract', () => {
  it('records no contract.error; a failure that is no cancel still does', async () => {
    const cancelled = ApiError.validation('The client cancelled the request before the answer.', [
      { field: '', reason: 'cancelled' },
    ]);
    const deps = {
      engine: server.services.contracts,
      store: server.services.store,
      clock: systemClock,
      log: server.services.log,
      jurisdictions: server.services.jurisdictions,
    };
    await expect(
      generateContract(plan as never, OWNER, { ...deps, signal: AbortSignal.abort(cancelled) }),
    ).rejects.toBe(cancelled);
    expect(await errorsOf()).toEqual([]);

    // The same plan on a chain the engine refuses to build fails for itself: that is recorded.
    const broken = { ...deps, engine: { ...server.services.contracts, evm: undefined } as never };
    await expect(generateContract(plan as never, OWNER, broken)).rejects.toBeInstanceOf(ApiError);
    expect((await errorsOf()).map((e) => e.data.code)).toEqual(['INTERNAL_ERROR']);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { closeServices, openServices } from '../../src/app.js';
import { systemClock } from '../../src/core/clock.js';
import { loadConfig } from '../../src/core/config.js';
import { createLogger } from '../../src/core/log.js';
import { createKey } from '../../src/keys/provision.js';
import { tmpDir } from '../helpers.js';
import { mcpOutcome, stdioClient } from '../mcp-clients.js';

// The heavy tools over stdio: compilers, the EVM and the TON sandbox must never
// write to standard output, which carries the MCP protocol.

let data: Awaited<ReturnType<typeof tmpDir>>;
let client: Client;

beforeAll(async () => {
  data = await tmpDir();
  const services = await openServices(loadConfig({ 'data-dir': data.dir }, {}), { log: createLogger('silent') });
  const { key } = await createKey(services.store, { name: 'stdio', tier: 'internal', scopes: ['all'] }, systemClock);
  await closeServices(services);
  client = await stdioClient(data.dir, key);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await data?.cleanup();
});

describe('contract tools over stdio', () => {
  it('generates EVM and TON contracts and reports a compile error, with the protocol intact', async () => {
    const evm = await mcpOutcome(client, 'generate_contract', {
      blockchain: 'evm',
      ownerAddress: '0x27b1fdb04752bbc536007a920d24acb045561c26',
      beneficiaries: [{ name: 'A', address: '0x8617e340b3d01fa5f11f306f4090fd50e238070d', percentage: 100 }],
    });
    expect(evm.ok).toBe(true);
    expect((evm.body as { compiled: { deployData: string } }).compiled.deployData).toMatch(/^0x[0-9a-f]+$/);
    const ton = await mcpOutcome(client, 'generate_contract', {
      blockchain: 'ton',
      ownerAddress: '0:' + 'b'.repeat(64),
      beneficiaries: [{ name: 'A', address: '0:' + 'a'.repeat(64), percentage: 100 }],
      deadMansSwitch: { enabled: true },
    });
    expect(ton.ok).toBe(true);
    const broken = await mcpOutcome(client, 'estimate_gas', {
      blockchain: 'ton',
      contractCode: '() recv_internal() { oops }',
    });
    expect(broken).toMatchObject({ ok: false, body: { error: { code: 'VALIDATION_ERROR' } } });
    // The connection still answers after all of it.
    expect((await client.listTools()).tools.length).toBeGreaterThan(20);
  }, 120_000);
});

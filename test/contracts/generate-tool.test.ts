import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS, type EventRecord } from '../../src/events/events.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { httpClient, mcpOutcome, restOutcome } from '../mcp-clients.js';

// generate_contract / estimate_gas as tools: every chain, the template's law, events, and MCP = REST.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({});
});
afterAll(async () => {
  await server?.close();
});

const EVM = {
  owner: '0x27b1fdb04752bbc536007a920d24acb045561c26',
  a: '0x52908400098527886E0F7030069857D2E4169EE7',
  b: '0x8617e340b3d01fa5f11f306f4090fd50e238070d',
};

async function generate(payload: object) {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/v1/contracts/generate',
    headers: { authorization: `Bearer ${server.adminKey}` },
    payload,
  });
  return { status: res.statusCode, body: res.json() };
}

describe('generate_contract', () => {
  it('generates a TON contract, run in the sandbox, the same over MCP and REST', async () => {
    const plan = {
      blockchain: 'ton',
      ownerAddress: '0:' + 'b'.repeat(64),
      beneficiaries: [
        { name: 'A', address: '0:' + 'a'.repeat(64), percentage: 70 },
        { name: 'B', address: 'EQCD39VS5jcptHL8vMjEXrzGaRcCVYto7HUn4bpAOg8xqB2N', percentage: 30 },
      ],
      deadMansSwitch: { enabled: true, intervalDays: 90, gracePeriodDays: 7 },
    };
    const rest = await generate(plan);
    expect(rest.status, JSON.stringify(rest.body).slice(0, 400)).toBe(200);
    expect(rest.body.contractInfo).toMatchObject({ blockchain: 'ton', distribution: { ['0:' + 'a'.repeat(64)]: 70 } });
    expect(rest.body.compiled.codeBoc).toMatch(/^[A-Za-z0-9+/=]+$/);
    expect(rest.body.compiled.deployScript).toContain('@ton/core');
    expect(rest.body.contractInfo.verified.join(' ')).toMatch(/sandbox/);
    const client = await httpClient(server.url, server.adminKey);
    const mcp = await mcpOutcome(client, 'generate_contract', plan);
    await client.close();
    // Each call stores a contract of its own: the answers are the same but for the id.
    const { id: mcpId, ...mcpRest } = mcp.body as { id: string };
    const { id: restId, ...restRest } = restOutcome(200, rest.body, 'top-level').body as { id: string };
    expect(mcpId).not.toBe(restId);
    expect(mcpRest).toEqual(restRest);
  }, 120_000);

  it("refuses an islamic-mirth plan whose shares differ from fara'id, with the expected shares", async () => {
    const res = await generate({
      blockchain: 'evm',
      ownerAddress: EVM.owner,
      inheritanceTemplate: 'islamic-mirth',
      beneficiaries: [
        { name: 'Wife', address: EVM.a, percentage: 50, relationship: 'wife' },
        { name: 'Son', address: EVM.b, percentage: 50, relationship: 'son' },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    const expected = Object.fromEntries(
      res.body.error.details
        .filter((d: { expected?: string }) => d.expected)
        .map((d: { field: string; expected: string }) => [d.field, d.expected]),
    );
    expect(expected).toEqual({ 'beneficiaries.0.percentage': '12.50', 'beneficiaries.1.percentage': '87.50' });
  });

  it("accepts the fara'id shares and applies a jurisdiction's law as warnings", async () => {
    const ok = await generate({
      blockchain: 'evm',
      ownerAddress: EVM.owner,
      inheritanceTemplate: 'islamic-mirth',
      beneficiaries: [
        { name: 'Wife', address: EVM.a, percentage: 12.5, relationship: 'wife' },
        { name: 'Son', address: EVM.b, percentage: 87.5, relationship: 'son' },
      ],
    });
    expect(ok.status, JSON.stringify(ok.body).slice(0, 300)).toBe(200);
    const fr = await generate({
      blockchain: 'evm',
      ownerAddress: EVM.owner,
      inheritanceTemplate: 'civil-law',
      jurisdiction: 'fr',
      beneficiaries: [
        { name: 'Child', address: EVM.a, percentage: 10, relationship: 'son' },
        { name: 'Friend', address: EVM.b, percentage: 90, relationship: 'friend' },
      ],
    });
    expect(fr.status).toBe(200);
    expect(fr.body.analysis.warnings.map((w: { id: string }) => w.id)).toContain('forced-heirship.reserve');
  });

  it('validates the plan first, one detail per problem, and records events', async () => {
    const bad = await generate({
      blockchain: 'evm',
      ownerAddress: EVM.owner,
      beneficiaries: [{ name: 'A', address: EVM.owner, percentage: 90 }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.map((d: { field: string }) => d.field)).toEqual([
      'beneficiaries.0.address',
      'beneficiaries',
    ]);
    const events = await server.services.store.all<EventRecord>(EVENTS);
    const types = events.map((e) => e.type);
    expect(types).toContain('contract.generated');
    expect(types).toContain('contract.compiled');
    const generated = events.find((e) => e.type === 'contract.generated')!;
    expect(JSON.stringify(generated.data)).not.toMatch(/Wife|Son|Child|Friend/);
  });
});

describe('estimate_gas', () => {
  it('measures evm, ton and solana costs and says how', async () => {
    for (const blockchain of ['evm', 'ton', 'solana']) {
      const res = await server.app.inject({
        method: 'POST',
        url: '/api/v1/contracts/estimate-gas',
        headers: { authorization: `Bearer ${server.adminKey}` },
        payload: { blockchain },
      });
      expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
      const body = res.json();
      expect(body.estimate.currency).toBe({ evm: 'ETH', ton: 'TON', solana: 'SOL' }[blockchain]);
      expect(body.estimate.deployment).toMatch(/\d/);
      expect(body.method).toMatch(/no network|nothing was executed|sandbox|measured/i);
    }
  }, 120_000);

  it('evm: the beneficiaries field reaches the measurement (worker thread) and sets the sample list', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/v1/contracts/estimate-gas',
      headers: { authorization: `Bearer ${server.adminKey}` },
      payload: { blockchain: 'evm', beneficiaries: 8 },
    });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const body = res.json();
    expect(body.figures).toMatchObject({ beneficiaries: 8 });
    expect(body.figures.updateGrow).toBeGreaterThan(body.figures.update);
    expect(body.figures.updateShrink).toBeLessThan(body.figures.update);
    expect(body.estimate.update).toMatch(
      /\(8 beneficiaries replaced by 8 new\); to 16 beneficiaries: .*; to 4 beneficiaries: /,
    );
    expect(body.method).toMatch(/8 beneficiaries \(as given\)/);
  }, 120_000);

  it('locates compile errors in contractCode', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/v1/contracts/estimate-gas',
      headers: { authorization: `Bearer ${server.adminKey}` },
      payload: {
        blockchain: 'evm',
        contractCode: 'pragma solidity ^0.8.0;\ncontract A {\n  function f() public { uint x = ; }\n}\n',
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details[0]).toMatchObject({ field: 'contractCode', line: 3 });
  });
});

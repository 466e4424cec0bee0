import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers.js';
import { httpClient } from '../mcp-clients.js';

let server: TestServer;
let client: Client;
beforeAll(async () => {
  server = await startTestServer({});
  client = await httpClient(server.url, server.adminKey);
});
afterAll(async () => {
  await client?.close();
  await server?.close();
});

describe('MCP resources', () => {
  it('offers the three resource templates', async () => {
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates.map((r) => r.uriTemplate)).toEqual([
      'svc://jurisdictions/{id}',
      'svc://templates/{type}',
      'svc://docs/{slug}',
    ]);
  });

  it('lists concrete resources of each kind', async () => {
    const { resources } = await client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toContain('svc://jurisdictions/us-ca');
    expect(uris).toContain('svc://templates/islamic-mirth');
    expect(uris).toContain('svc://docs/authentication');
    expect(uris.filter((u) => u.startsWith('svc://jurisdictions/')).length).toBeGreaterThanOrEqual(118);
  });

  it('reads a jurisdiction, a template and a doc page', async () => {
    const j = await client.readResource({ uri: 'svc://jurisdictions/fr' });
    expect(JSON.parse((j.contents[0] as { text: string }).text)).toMatchObject({ id: 'fr', name: 'France' });
    const alias = await client.readResource({ uri: 'svc://jurisdictions/California' });
    expect(JSON.parse((alias.contents[0] as { text: string }).text).id).toBe('us-ca');
    const t = await client.readResource({ uri: 'svc://templates/custom' });
    expect(JSON.parse((t.contents[0] as { text: string }).text).type).toBe('custom');
    const d = await client.readResource({ uri: 'svc://docs/limits' });
    expect(d.contents[0]).toMatchObject({ mimeType: 'text/markdown', text: expect.stringMatching(/^# Rate limits/) });
  });

  it('answers unknown resources with a not-found error', async () => {
    await expect(client.readResource({ uri: 'svc://templates/feudal' })).rejects.toThrow(/Resource not found/);
    await expect(client.readResource({ uri: 'svc://nothing/x' })).rejects.toThrow(/Resource not found/);
  });

  it('answers a URI with broken percent-encoding as not found, not as an internal error', async () => {
    for (const uri of ['svc://docs/%E0%A4%A', 'svc://jurisdictions/%', 'svc://templates/%zz']) {
      await expect(client.readResource({ uri })).rejects.toMatchObject({
        code: -32002,
        message: expect.stringMatching(/Resource not found/),
      });
    }
  });

  it('completes resource arguments', async () => {
    const res = await client.complete({
      ref: { type: 'ref/resource', uri: 'svc://jurisdictions/{id}' },
      argument: { name: 'id', value: 'us-n' },
    });
    expect(res.completion.values).toEqual(
      expect.arrayContaining(['us-nc', 'us-nd', 'us-ne', 'us-nh', 'us-nj', 'us-nm', 'us-nv', 'us-ny']),
    );
    expect(res.completion.values.every((v) => v.startsWith('us-n'))).toBe(true);
    const t = await client.complete({
      ref: { type: 'ref/resource', uri: 'svc://templates/{type}' },
      argument: { name: 'type', value: 'isl' },
    });
    expect(t.completion.values).toEqual(['islamic-mirth', 'islamic-wasiyyah']);
  });

  it('refuses resources without a valid key', async () => {
    // Without a key the client cannot even connect: every JSON-RPC request needs one.
    await expect(httpClient(server.url, undefined)).rejects.toThrow(/No API key supplied/);
    const chatOnly = await httpClient(server.url, await server.key({ tier: 'public', scopes: ['chat'] }));
    await expect(chatOnly.readResource({ uri: 'svc://docs/limits' })).rejects.toMatchObject({
      code: -32001,
      data: { code: 'INSUFFICIENT_SCOPE' },
    });
    await chatOnly.close();
  });
});

describe('MCP prompts', () => {
  it('offers plan_inheritance, which walks through the plan and ends with generate_contract', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['plan_inheritance']);
    const p = await client.getPrompt({
      name: 'plan_inheritance',
      arguments: { jurisdiction: 'fr', blockchain: 'evm' },
    });
    const text = (p.messages[0]!.content as { text: string }).text;
    expect(text).toContain('Jurisdiction: fr');
    for (const tool of [
      'get_jurisdiction',
      'list_templates',
      'calculate_inheritance',
      'check_plan',
      'estimate_gas',
      'generate_contract',
    ])
      expect(text).toContain(tool);
    expect(text.indexOf('generate_contract')).toBeGreaterThan(text.indexOf('check_plan'));
  });

  it('completes prompt arguments', async () => {
    const res = await client.complete({
      ref: { type: 'ref/prompt', name: 'plan_inheritance' },
      argument: { name: 'blockchain', value: 's' },
    });
    expect(res.completion.values).toEqual(['solana']);
    const j = await client.complete({
      ref: { type: 'ref/prompt', name: 'plan_inheritance' },
      argument: { name: 'jurisdiction', value: 'gb-' },
    });
    expect(j.completion.values.sort()).toEqual(['gb-eng', 'gb-nir', 'gb-sct']);
  });
});

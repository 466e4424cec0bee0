import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers.js';

// The Solana answer carries a buildable Anchor workspace: the generated program at programs/<name>/src/lib.rs,
// Anchor.toml naming that program, the workspace and program Cargo.toml, the IDL under target/idl/, and commands.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({});
});
afterAll(async () => {
  await server?.close();
});

const PLAN = {
  blockchain: 'solana',
  ownerAddress: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
  beneficiaries: [
    { name: 'A', address: 'So11111111111111111111111111111111111111112', percentage: 50 },
    { name: 'B', address: 'Vote111111111111111111111111111111111111111', percentage: 50 },
  ],
  deadMansSwitch: { enabled: true, intervalDays: 180 },
};

describe('Solana deployable output', () => {
  it('answers an Anchor workspace whose lib.rs is the generated program', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/v1/contracts/generate',
      headers: { authorization: `Bearer ${server.adminKey}` },
      payload: PLAN,
    });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const body = res.json();
    const ws = body.compiled.workspace;
    const name = ws.program as string;
    expect(name).toMatch(/^[a-z_]+$/);
    const files = new Map<string, string>(ws.files.map((f: { path: string; content: string }) => [f.path, f.content]));
    expect([...files.keys()]).toEqual(
      expect.arrayContaining([
        'Cargo.toml',
        'Anchor.toml',
        `programs/${name}/Cargo.toml`,
        `programs/${name}/src/lib.rs`,
        `target/idl/${name}.json`,
      ]),
    );
    expect(files.get(`programs/${name}/src/lib.rs`)).toBe(body.contractCode);
    expect(files.get('Anchor.toml')).toMatch(new RegExp(`^\\[programs\\.devnet\\]\\n${name} = "`, 'm'));
    expect(files.get('Cargo.toml')).toContain('members = ["programs/*"]');
    expect(files.get(`programs/${name}/Cargo.toml`)).toContain(`name = "${name}"`);
    expect(JSON.parse(files.get(`target/idl/${name}.json`)!)).toEqual(body.compiled.idl);
    expect(ws.commands).toEqual(expect.arrayContaining(['anchor build', 'anchor deploy --provider.cluster devnet']));
  }, 120_000);
});

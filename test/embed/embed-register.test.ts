import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers.js';
import { chainsAt, startEmptyEvmNode } from '../support/evm-rpc-standin.js';
import { embedToken, partnerKey } from './support.js';

// The wizard registers the deployment it made with its embed token: a token reaches the contract its own wizard
// session generated, and nothing else of the account (nor of another account).

const ORIGIN = 'https://partner.example';
const PLAN = {
  blockchain: 'evm',
  ownerAddress: '0x27b1fdb04752bbc536007a920d24acb045561c26',
  beneficiaries: [
    { name: 'A', address: '0x52908400098527886E0F7030069857D2E4169EE7', percentage: 60 },
    { name: 'B', address: '0x8617e340b3d01fa5f11f306f4090fd50e238070d', percentage: 40 },
  ],
};
const ADDRESS = '0x5FbDB2315678afecb367f032d93F642f64180aa3';

let server: TestServer;
let node: Awaited<ReturnType<typeof startEmptyEvmNode>>;

beforeAll(async () => {
  node = await startEmptyEvmNode();
  server = await startTestServer({ config: { chains: chainsAt(node.url) }, listen: false });
}, 60_000);
afterAll(async () => {
  await server?.close();
  await node?.close();
});

async function call(credential: string, method: 'GET' | 'POST', url: string, payload?: object) {
  const res = await server.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: { authorization: `Bearer ${credential}`, origin: ORIGIN },
    ...(payload ? { payload } : {}),
  });
  return { status: res.statusCode, body: res.json() };
}

async function generate(credential: string): Promise<string> {
  const r = await call(credential, 'POST', '/contracts/generate', PLAN);
  expect(r.status).toBe(200);
  return r.body.id as string;
}

const register = (credential: string, id: string, address = ADDRESS) =>
  call(credential, 'POST', `/contracts/${id}/deployments`, { network: 31337, address });

/** What the wizard page's configuration block holds, as far as these tests read it. */
interface WizardPageConfig {
  options: { wallet: boolean; networks?: number[]; chainId?: number } | null;
  error: { details?: Array<{ field: string; reason: string }> } | null;
}

describe('register_deployment with an embed token', () => {
  it('registers the contract its own session generated, and only that one', async () => {
    const { key } = await partnerKey(server, [ORIGIN]);
    const mine = await embedToken(server, key, ORIGIN);
    const sibling = await embedToken(server, key, ORIGIN);
    const ownId = await generate(mine);
    const siblingsId = await generate(sibling);
    const keysId = await generate(key);

    // Its own: registered (the stand-in chain has no code there, so it is stored unverified, with the reason).
    const ok = await register(mine, ownId);
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({ contractId: ownId, status: 'unverified' });

    // Another session's contract and the key's own contract, in the same account, are not there for this token.
    for (const id of [siblingsId, keysId]) {
      const r = await register(mine, id, '0x8617e340b3d01fa5f11f306f4090fd50e238070d');
      expect(r.status).toBe(404);
      expect(r.body.error.code).toBe('NOT_FOUND');
    }
    // Another account's token cannot reach it either.
    const other = await partnerKey(server, [ORIGIN]);
    const stranger = await embedToken(server, other.key, ORIGIN);
    expect((await register(stranger, ownId, '0x52908400098527886E0F7030069857D2E4169EE7')).status).toBe(404);

    // The key itself still registers any of its account's contracts.
    expect((await register(key, siblingsId, '0x52908400098527886E0F7030069857D2E4169EE7')).status).toBe(200);
  }, 120_000);

  it('an embed token still cannot list or read deployments', async () => {
    const { key } = await partnerKey(server, [ORIGIN]);
    const token = await embedToken(server, key, ORIGIN);
    const id = await generate(token);
    const r = await call(token, 'GET', `/contracts/${id}/deployments`);
    expect(r.status).toBe(403);
    expect(r.body.error.code).toBe('INSUFFICIENT_SCOPE');
  }, 120_000);

  /** The wizard page's status and configuration for a fresh embed token and these extra query parameters. */
  async function wizardPage(extra: string): Promise<{ status: number; config: WizardPageConfig }> {
    const { key } = await partnerKey(server, [ORIGIN]);
    const token = await embedToken(server, key, ORIGIN);
    const res = await server.app.inject({
      method: 'GET',
      url: `/api/v1/embed/wizard?token=${encodeURIComponent(token)}&origin=${encodeURIComponent(ORIGIN)}${extra}`,
    });
    const json = /<script type="application\/json" id="svc-wizard-config">(.*?)<\/script>/s.exec(res.body)![1]!;
    return { status: res.statusCode, config: JSON.parse(json) as WizardPageConfig };
  }

  it("the wizard page given a wallet carries the chains svc reads, so the wizard checks the wallet's before sending", async () => {
    const options = async (extra: string) => {
      const { status, config } = await wizardPage(extra);
      expect(status).toBe(200);
      return config.options;
    };
    expect(await options('&wallet=1')).toMatchObject({ wallet: true, networks: [31337] });
    expect(await options('')).not.toHaveProperty('networks');
    // The host page may name the one chain to deploy to (the SDK's chainId), if svc reads it.
    expect(await options('&wallet=1&chainId=31337')).toMatchObject({ networks: [31337], chainId: 31337 });
  });

  it('a chain svc does not read, or a chain without a wallet, is refused with the field named', async () => {
    const refused = async (extra: string) => {
      const { status, config } = await wizardPage(extra);
      expect(status).toBe(400);
      expect(config.options).toBeNull();
      return config.error?.details ?? [];
    };
    expect(await refused('&wallet=1&chainId=1')).toEqual([
      { field: 'chainId', reason: 'this service registers deployments on chain 31337 only' },
    ]);
    expect((await refused('&chainId=31337'))[0]?.field).toBe('chainId');
    expect((await refused('&wallet=1&chainId=0x7a69'))[0]?.field).toBe('chainId');
  });
});

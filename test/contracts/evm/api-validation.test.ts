import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers.js';

// Issue #15 through the REST routes: the default dead man's switch is applied and
// said, a plan nobody could release is refused, and the inputs that answered 500
// (duplicate token ids, one address as two kinds of token, a tiny gas price) are
// VALIDATION_ERRORs whose details name the field.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ listen: false });
});
afterAll(async () => {
  await server?.close();
});

const OWNER = '0x27b1fdb04752bbc536007a920d24acb045561c26';
const A = '0x52908400098527886E0F7030069857D2E4169EE7';
const B = '0x8617e340b3d01fa5f11f306f4090fd50e238070d';
const NFT = '0x1111111111111111111111111111111111111111';

const base = {
  blockchain: 'evm',
  ownerAddress: OWNER,
  beneficiaries: [
    { name: 'A', address: A, percentage: 60 },
    { name: 'B', address: B, percentage: 40 },
  ],
};

async function post(url: string, payload: object) {
  const res = await server.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${server.adminKey}` },
    payload,
  });
  return { status: res.statusCode, body: res.json() };
}
const generate = (payload: object) => post('/api/v1/contracts/generate', payload);

describe('generate_contract: a way to release the estate and plan assets (issue #15)', () => {
  it('without deadMansSwitch the default switch of 365 days is built, and the answer says so', async () => {
    const res = await generate(base);
    expect(res.status, JSON.stringify(res.body).slice(0, 400)).toBe(200);
    expect(res.body.contractInfo.features).toContain('deadMansSwitch');
    expect(res.body.contractInfo.features).not.toContain('ownerRelease');
    const note = res.body.analysis.warnings.find((w: { id: string }) => w.id === 'default-dead-mans-switch');
    expect(note).toMatchObject({ severity: 'info', message: expect.stringMatching(/365 days/) });
    expect(res.body.analysis.suggestions.join(' ')).toMatch(/default dead man's switch \(365 days\)/);
    expect(res.body.contractCode).toContain('function deadline() public view returns (uint256)');
  }, 120_000);

  it('an explicit switch-off without guardians is a VALIDATION_ERROR explaining why; with guardians it is built', async () => {
    const off = { ...base, deadMansSwitch: { enabled: false } };
    const res = await generate(off);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details).toEqual([
      { field: 'deadMansSwitch.enabled', reason: expect.stringMatching(/locked forever/) },
    ]);
    const guarded = await generate({
      ...off,
      guardians: { addresses: ['0x5555555555555555555555555555555555555555'], threshold: 1 },
    });
    expect(guarded.status, JSON.stringify(guarded.body).slice(0, 400)).toBe(200);
    expect(guarded.body.contractInfo.features).toEqual(
      expect.arrayContaining(['ownerRelease', 'guardianEarlyRelease']),
    );
  }, 120_000);

  it('tokenId "7" and "007" are one NFT; one address as erc20 and erc721 is refused: 400 naming the fields, never 500', async () => {
    const dup = await generate({
      ...base,
      assets: [
        { type: 'erc721', address: NFT, tokenId: '7', beneficiary: A },
        { type: 'erc721', address: NFT, tokenId: '007', beneficiary: B },
      ],
    });
    expect(dup.status).toBe(400);
    expect(dup.body.error.code).toBe('VALIDATION_ERROR');
    expect(dup.body.error.details).toEqual([
      { field: 'assets.1.tokenId', reason: expect.stringMatching(/same NFT as assets\.0/) },
    ]);
    const twoKinds = await generate({
      ...base,
      assets: [
        { type: 'erc20', address: NFT },
        { type: 'erc721', address: NFT, tokenId: '1', beneficiary: A },
      ],
    });
    expect(twoKinds.status).toBe(400);
    expect(twoKinds.body.error.code).toBe('VALIDATION_ERROR');
    expect(twoKinds.body.error.details).toEqual([
      { field: 'assets.1.address', reason: expect.stringMatching(/listed as erc20 in assets\.0/) },
    ]);
  });
});

describe('estimate_gas: tiny gas prices (issue #15)', () => {
  it('1e-7 gwei is exact (100 wei); below one wei is a VALIDATION_ERROR naming gasPriceGwei', async () => {
    const ok = await post('/api/v1/contracts/estimate-gas', { blockchain: 'evm', gasPriceGwei: 1e-7 });
    expect(ok.status, JSON.stringify(ok.body).slice(0, 400)).toBe(200);
    expect(ok.body.estimate.deployment).toMatch(/ETH at 1e-7 gwei$/);
    const bad = await post('/api/v1/contracts/estimate-gas', { blockchain: 'evm', gasPriceGwei: 1e-10 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('VALIDATION_ERROR');
    expect(bad.body.error.details[0]).toMatchObject({
      field: 'gasPriceGwei',
      reason: expect.stringMatching(/one wei/),
    });
  }, 120_000);
});

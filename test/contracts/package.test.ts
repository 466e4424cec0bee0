import { createRequire } from 'node:module';
import { Address, Cell, contractAddress, loadStateInit } from '@ton/core';
import { strFromU8 } from 'fflate';
import { getAddress } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gunzipSync } from 'fflate';
import { startTestServer, type TestServer } from '../helpers.js';
import { download, EVM_PLAN, generate, unpack, untar } from './package-support.js';

// get_contract_package: each chain's archive holds a project that deploys exactly the stored contract, with a
// README, built reproducibly; another account's id and an unknown id are 404, an unknown format a 400.

const require = createRequire(import.meta.url);
let server: TestServer;
let evmId: string;
beforeAll(async () => {
  server = await startTestServer({});
  evmId = await generate(server, server.adminKey, EVM_PLAN);
});
afterAll(async () => {
  await server?.close();
});

const text = (b: Uint8Array | undefined) => strFromU8(b ?? new Uint8Array());

async function stored(id: string) {
  const res = await server.app.inject({
    method: 'GET',
    url: `/api/v1/contracts/${id}`,
    headers: { authorization: `Bearer ${server.adminKey}` },
  });
  return res.json().data;
}

function expectReadme(readme: string) {
  expect(readme).toMatch(/owner's key must sign every check-in/);
  expect(readme).toMatch(/makes registration fail verification/);
}

/** Compiles the packaged source and forge script with solc, the settings of foundry.toml: both must build. */
function compileWithSolc(files: Record<string, Uint8Array>, name: string) {
  const solc = require('solc') as { compile(input: string): string };
  const input = {
    language: 'Solidity',
    sources: {
      [`src/${name}.sol`]: { content: text(files[`src/${name}.sol`]) },
      'script/Deploy.s.sol': { content: text(files['script/Deploy.s.sol']) },
    },
    settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: 'cancun', outputSelection: {} },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input))) as { errors?: { severity: string; message: string }[] };
  return (out.errors ?? []).filter((e) => e.severity === 'error').map((e) => e.message);
}

describe('get_contract_package', () => {
  it('packs an evm contract as a Foundry project with the plan, the compiler and a viem deploy script', async () => {
    const c = await stored(evmId);
    const res = await download(server, server.adminKey, evmId);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/zip/);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="svc-evm-${evmId}.zip"`);
    const files = unpack(res.raw, 'zip', `svc-evm-${evmId}`);
    const name = /^contract\s+(\w+)/m.exec(c.source)?.[1] as string;
    expect(Object.keys(files).sort()).toEqual(
      [
        'README.md',
        'abi.json',
        'deploy-data.hex',
        'deploy.mjs',
        'foundry.toml',
        'package.json',
        'script/Deploy.s.sol',
        `src/${name}.sol`,
      ].sort(),
    );
    expect(text(files[`src/${name}.sol`])).toBe(c.source);
    expect(JSON.parse(text(files['abi.json']))).toEqual(c.compiled.abi);
    expect(text(files['deploy-data.hex']).trim()).toBe(c.deployData);
    // The script deploys with the plan's values as literals: owner, beneficiaries, shares in basis points, interval.
    const script = text(files['script/Deploy.s.sol']);
    expect(script).toContain(`address owner = ${getAddress(EVM_PLAN.ownerAddress)};`);
    expect(script).toContain(`beneficiaries[0] = ${getAddress(EVM_PLAN.beneficiaries[0]?.address as string)};`);
    expect(script).toContain(`beneficiaries[1] = ${getAddress(EVM_PLAN.beneficiaries[1]?.address as string)};`);
    expect(script).toContain('shares[0] = 6000;');
    expect(script).toContain('shares[1] = 4000;');
    expect(script).toContain('uint256 intervalDays = 180;');
    expect(script).toContain(`deployed = new ${name}(owner, beneficiaries, shares, intervalDays);`);
    // foundry.toml names the solc the service compiled with (the source's pragma, the installed solc) and its settings.
    const solcVersion = (require('solc/package.json') as { version: string }).version;
    const toml = text(files['foundry.toml']);
    expect(toml).toContain(`solc_version = "${solcVersion}"`);
    expect(c.source).toContain(`pragma solidity ${solcVersion};`);
    expect(toml).toMatch(/optimizer = true\noptimizer_runs = 200\nevm_version = "cancun"/);
    expect(JSON.parse(text(files['package.json'])).dependencies).toEqual({
      viem: (require('viem/package.json') as { version: string }).version,
    });
    const readme = text(files['README.md']);
    expectReadme(readme);
    expect(readme).toContain('`checkIn()`');
    expect(readme).toMatch(/`withdraw`.*`cancel`|`cancel`.*`withdraw`/);
    expect(readme).toContain(`/api/v1/contracts/${evmId}/deployments`);
    expect(compileWithSolc(files, name)).toEqual([]);
  });

  it('packs the same bytes every time, in both formats, entries sorted and dated when generated', async () => {
    const c = await stored(evmId);
    const zipA = await download(server, server.adminKey, evmId, '?format=zip');
    const zipB = await download(server, server.adminKey, evmId);
    expect(Buffer.compare(zipA.raw, zipB.raw)).toBe(0);
    const tarA = await download(server, server.adminKey, evmId, '?format=tar.gz');
    const tarB = await download(server, server.adminKey, evmId, '?format=tar.gz');
    expect(tarA.status).toBe(200);
    expect(tarA.headers['content-type']).toMatch(/^application\/gzip/);
    expect(tarA.headers['content-disposition']).toBe(`attachment; filename="svc-evm-${evmId}.tar.gz"`);
    expect(Buffer.compare(tarA.raw, tarB.raw)).toBe(0);
    const { files, meta } = untar(gunzipSync(tarA.raw));
    const paths = Object.keys(files);
    expect(paths).toEqual([...paths].sort());
    const created = Math.floor(Date.parse(c.created) / 1000);
    for (const m of Object.values(meta)) expect(m.mtime).toBe(created);
    expect(meta[`svc-evm-${evmId}/deploy.mjs`]?.mode).toBe(0o755);
    // Both formats hold the same files.
    const fromZip = unpack(zipA.raw, 'zip', `svc-evm-${evmId}`);
    const fromTar = unpack(tarA.raw, 'tar.gz', `svc-evm-${evmId}`);
    expect(Object.keys(fromTar).sort()).toEqual(Object.keys(fromZip).sort());
    for (const p of Object.keys(fromZip))
      expect(Buffer.compare(fromTar[p] as Uint8Array, fromZip[p] as Uint8Array)).toBe(0);
  });

  it('packs a TON contract: the BoC cells, the address its StateInit gives, a deploy script', async () => {
    const id = await generate(server, server.adminKey, {
      blockchain: 'ton',
      ownerAddress: 'EQDKbjIcfM6ezt8KjKJJLshZJJSqX7XOA4ff-W72r5gqPrHF',
      beneficiaries: [{ name: 'A', address: 'EQBvI0aFLnw2QbZgjMPCLRdtRHxhUyinQudg6sdiohIwg5jL', percentage: 100 }],
      deadMansSwitch: { enabled: true, intervalDays: 180 },
    });
    const c = await stored(id);
    const res = await download(server, server.adminKey, id, '?format=tar.gz');
    expect(res.status).toBe(200);
    const files = unpack(res.raw, 'tar.gz', `svc-ton-${id}`);
    expect(Object.keys(files).sort()).toEqual(
      [
        'README.md',
        'address.txt',
        'code.boc',
        'contract.fc',
        'data.boc',
        'deploy.mjs',
        'deploy.ts',
        'package.json',
        'state-init.boc',
      ].sort(),
    );
    expect(text(files['contract.fc'])).toBe(c.source);
    const init = loadStateInit(
      (Cell.fromBoc(Buffer.from(files['state-init.boc'] as Uint8Array))[0] as Cell).beginParse(),
    );
    const code = Cell.fromBoc(Buffer.from(files['code.boc'] as Uint8Array))[0] as Cell;
    const data = Cell.fromBoc(Buffer.from(files['data.boc'] as Uint8Array))[0] as Cell;
    expect(init.code?.equals(code)).toBe(true);
    expect(init.data?.equals(data)).toBe(true);
    expect(code.hash().toString('hex')).toBe(c.compiled.codeHash);
    const address = Address.parse(text(files['address.txt']).trim());
    expect(contractAddress(0, init).equals(address)).toBe(true);
    expect(address.equals(Address.parse(c.compiled.address))).toBe(true);
    expect(JSON.parse(text(files['package.json'])).dependencies).toEqual({
      '@ton/core': (require('@ton/core/package.json') as { version: string }).version,
    });
    const readme = text(files['README.md']);
    expectReadme(readme);
    expect(readme).toContain('`checkIn` (0x636b696e');
    expect(readme).toContain('"network": "ton-mainnet"');
  });

  it('packs a Solana contract as its Anchor workspace tree', async () => {
    const id = await generate(server, server.adminKey, {
      blockchain: 'solana',
      ownerAddress: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
      beneficiaries: [{ name: 'A', address: 'DRpbCBMxVnDK7maPM5tGv6MvB3v1sRMC86PZ8okm21hy', percentage: 100 }],
      deadMansSwitch: { enabled: true, intervalDays: 180 },
    });
    const c = await stored(id);
    const res = await download(server, server.adminKey, id);
    expect(res.status).toBe(200);
    const files = unpack(res.raw, 'zip', `svc-solana-${id}`);
    const ws = c.compiled.workspace as { files: { path: string; content: string }[]; commands: string[] };
    expect(Object.keys(files).sort()).toEqual([...ws.files.map((f) => f.path), 'README.md'].sort());
    for (const f of ws.files) expect(text(files[f.path])).toBe(f.content);
    expect(text(files['programs/svc_inheritance/src/lib.rs'])).toBe(c.source);
    const readme = text(files['README.md']);
    expectReadme(readme);
    expect(readme).toContain('`check_in`');
    for (const cmd of ws.commands) expect(readme).toContain(cmd);
  });

  it("answers 404 for another account's contract and an unknown id, 400 for an unknown format", async () => {
    const other = await server.key({ ownerId: await server.account() });
    const foreign = await download(server, other, evmId);
    expect(foreign.status).toBe(404);
    expect(foreign.json().error.code).toBe('NOT_FOUND');
    const unknown = await download(server, server.adminKey, 'ctr_01JD0000000000000000000000');
    expect(unknown.status).toBe(404);
    const bad = await download(server, server.adminKey, evmId, '?format=rar');
    expect(bad.status).toBe(400);
    const body = JSON.stringify(bad.json());
    expect(body).toContain('zip');
    expect(body).toContain('tar.gz');
  });
});

import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { type Abi, createPublicClient, getAddress, type Hex, http } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers.js';
import { ANVIL_KEYS, type Anvil, startAnvil } from '../support/anvil.js';
import { download, EVM_PLAN, generate, unpack } from './package-support.js';

// The packaged deploy.mjs, run as the owner would run it (node, RPC_URL, PRIVATE_KEY) against a real node: the
// contract it creates holds the packaged code and records the plan's owner.

const run = promisify(execFile);
let server: TestServer;
let anvil: Anvil;
let dir: string;
beforeAll(async () => {
  [server, anvil] = await Promise.all([startTestServer({}), startAnvil()]);
  dir = await mkdtemp(join(tmpdir(), 'svc-package-'));
});
afterAll(async () => {
  await Promise.all([server?.close(), anvil?.stop()]);
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the EVM package deploys on a real node', () => {
  it('node deploy.mjs creates the contract with the plan and prints how to register it', async () => {
    const id = await generate(server, server.adminKey, EVM_PLAN);
    const res = await download(server, server.adminKey, id);
    expect(res.status).toBe(200);
    const files = unpack(res.raw, 'zip', `svc-evm-${id}`);
    for (const [path, data] of Object.entries(files)) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), data);
    }
    // ESM ignores NODE_PATH: the project's node_modules is linked in its place, so no npm install is needed.
    await symlink(resolve('node_modules'), join(dir, 'node_modules'), 'dir');
    const { stdout } = await run(process.execPath, ['deploy.mjs'], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', RPC_URL: anvil.url, PRIVATE_KEY: ANVIL_KEYS[0] },
      timeout: 60_000,
    });
    const address = /^address: (0x[0-9a-fA-F]{40})$/m.exec(stdout)?.[1] as Hex;
    const txHash = /^txHash: (0x[0-9a-f]{64})$/m.exec(stdout)?.[1];
    expect(address, stdout).toBeDefined();
    expect(txHash, stdout).toBeDefined();
    expect(stdout).toContain(`/api/v1/contracts/${id}/deployments`);
    expect(stdout).toContain(`"network": ${anvil.chainId}, "address": "${address}", "txHash": "${txHash}"`);

    const client = createPublicClient({ transport: http(anvil.url) });
    const code = await client.getCode({ address });
    expect(code && code.length > 2).toBe(true);
    const abi = JSON.parse(Buffer.from(files['abi.json'] as Uint8Array).toString('utf8')) as Abi;
    const owner = (await client.readContract({ address, abi, functionName: 'owner' })) as string;
    expect(getAddress(owner)).toBe(getAddress(EVM_PLAN.ownerAddress));
    const [beneficiaries, shares] = (await client.readContract({ address, abi, functionName: 'beneficiaries' })) as [
      string[],
      bigint[],
    ];
    expect(beneficiaries.map((a) => getAddress(a))).toEqual(EVM_PLAN.beneficiaries.map((b) => getAddress(b.address)));
    expect(shares.map(Number)).toEqual([6000, 4000]);
  });
});

import { Address, Cell, loadStateInit, toNano } from '@ton/core';
import { Blockchain, internal } from '@ton/sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../helpers.js';

// The TON answer carries what a deployment needs: the StateInit (code and data BoCs) and the address it deploys to.

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({});
});
afterAll(async () => {
  await server?.close();
});

const PLAN = {
  blockchain: 'ton',
  ownerAddress: `0:${'b'.repeat(64)}`,
  beneficiaries: [
    { name: 'A', address: `0:${'a'.repeat(64)}`, percentage: 70 },
    { name: 'B', address: `0:${'c'.repeat(64)}`, percentage: 30 },
  ],
  deadMansSwitch: { enabled: true, intervalDays: 90, gracePeriodDays: 7 },
};

describe('TON deployable output', () => {
  it('answers a StateInit that the sandbox deploys at the answered address', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/v1/contracts/generate',
      headers: { authorization: `Bearer ${server.adminKey}` },
      payload: PLAN,
    });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const compiled = res.json().compiled;
    const init = loadStateInit(Cell.fromBase64(compiled.stateInit).beginParse());
    expect(init.code!.equals(Cell.fromBase64(compiled.codeBoc))).toBe(true);
    expect(init.data!.equals(Cell.fromBase64(compiled.dataBoc))).toBe(true);
    expect(init.code!.hash().toString('hex')).toBe(compiled.codeHash);

    const address = Address.parse(compiled.address);
    expect(address.workChain).toBe(0);
    const chain = await Blockchain.create({ config: 'slim' });
    const owner = Address.parse(PLAN.ownerAddress);
    const sent = await chain.sendMessage(
      internal({
        from: owner,
        to: address,
        value: toNano('1'),
        bounce: false,
        stateInit: { code: init.code!, data: init.data! },
      }),
    );
    // The message reached the answered address and deployed the StateInit there.
    const deployTx = sent.transactions.find((t) => t.inMessage?.info.dest instanceof Address);
    expect((deployTx!.inMessage!.info.dest as Address).equals(address)).toBe(true);
    const account = await chain.getContract(address);
    expect(account.accountState?.type).toBe('active');
    const state = account.accountState as { type: 'active'; state: { code?: Cell; data?: Cell } };
    expect(state.state.code!.equals(init.code!)).toBe(true);
    // (The data is not compared: the owner's first message already starts the switch's clock in it.)

    // The stored contract keeps the same deployable output.
    const stored = await server.app.inject({
      method: 'GET',
      url: `/api/v1/contracts/${res.json().id}`,
      headers: { authorization: `Bearer ${server.adminKey}` },
    });
    expect(stored.json().data.compiled).toMatchObject({ stateInit: compiled.stateInit, address: compiled.address });
  }, 120_000);
});

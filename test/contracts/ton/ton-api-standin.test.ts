import { Address, beginCell, Cell, external, loadStateInit, storeMessage, toNano } from '@ton/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../../helpers.js';
import { startTonApiStandin, type TonApiStandin } from '../../support/ton-api.js';

// The toncenter-like stand-in answers what the service reads, from a real TON emulator.

const PLAN = {
  blockchain: 'ton',
  ownerAddress: `0:${'b'.repeat(64)}`,
  beneficiaries: [
    { name: 'A', address: `0:${'a'.repeat(64)}`, percentage: 70 },
    { name: 'B', address: `0:${'c'.repeat(64)}`, percentage: 30 },
  ],
  deadMansSwitch: { enabled: true, intervalDays: 90, gracePeriodDays: 7 },
};

let api: TonApiStandin;
beforeAll(async () => {
  api = await startTonApiStandin({ apiKey: 'k1' });
});
afterAll(async () => {
  await api?.close();
});

const get = (path: string, key = 'k1') => fetch(`${api.url}${path}`, { headers: { 'x-api-key': key } });
const post = (path: string, body: unknown) =>
  fetch(`${api.url}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': 'k1', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('TON API stand-in', () => {
  it('refuses a request without the API key', async () => {
    const res = await get('/api/v2/getMasterchainInfo', 'wrong');
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ ok: false, code: 401 });
  });

  it('answers an active wallet with its code, data and balance, and an unknown address as uninitialized', async () => {
    const wallet = await api.chain.treasury('owner');
    const info = await (await get(`/api/v2/getAddressInformation?address=${wallet.address.toString()}`)).json();
    expect(info.ok).toBe(true);
    expect(info.result.state).toBe('active');
    expect(BigInt(info.result.balance)).toBeGreaterThan(0n);
    const contract = await api.chain.getContract(wallet.address);
    const state = contract.accountState as { type: 'active'; state: { code: Cell; data: Cell } };
    expect(Cell.fromBase64(info.result.code).equals(state.state.code)).toBe(true);
    expect(Cell.fromBase64(info.result.data).equals(state.state.data)).toBe(true);

    const nobody = new Address(0, Buffer.alloc(32, 7));
    const empty = await (await get(`/api/v2/getAddressInformation?address=${nobody.toString()}`)).json();
    expect(empty.result).toMatchObject({ state: 'uninitialized', code: '', data: '', balance: '0' });
  });

  it('answers a failing get method with its exit code, as toncenter does', async () => {
    const wallet = await api.chain.treasury('owner');
    const res = await (
      await post('/api/v2/runGetMethod', { address: wallet.address.toString(), method: 'seqno', stack: [] })
    ).json();
    expect(res).toMatchObject({ ok: true, result: { exit_code: 11, stack: [] } });
  });

  it('runs a generated contract get method and converts its stack', async () => {
    const server = await startTestServer({});
    try {
      const res = await server.app.inject({
        method: 'POST',
        url: '/api/v1/contracts/generate',
        headers: { authorization: `Bearer ${server.adminKey}` },
        payload: PLAN,
      });
      expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
      const compiled = res.json().compiled;
      const init = loadStateInit(Cell.fromBase64(compiled.stateInit).beginParse());
      const owner = await api.chain.treasury('plan-owner');
      await owner.send({
        to: Address.parse(compiled.address),
        value: toNano('1'),
        bounce: false,
        init: { code: init.code!, data: init.data! },
      });
      const answer = await (
        await post('/api/v2/runGetMethod', { address: compiled.address, method: 'get_interval', stack: [] })
      ).json();
      expect(answer.ok, JSON.stringify(answer)).toBe(true);
      expect(answer.result.exit_code).toBe(0);
      expect(answer.result.stack[0]).toEqual(['num', `0x${(90 * 86_400).toString(16)}`]);
      const info = await (await get(`/api/v2/getAddressInformation?address=${compiled.address}`)).json();
      expect(info.result.state).toBe('active');
      expect(Cell.fromBase64(info.result.code).equals(init.code!)).toBe(true);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('delivers an external message from sendBoc and counts a new seqno', async () => {
    const before = (await (await get('/api/v2/getMasterchainInfo')).json()).result.last.seqno;
    const nobody = new Address(0, Buffer.alloc(32, 9));
    const message = external({ to: nobody, body: beginCell().storeUint(1, 32).endCell() });
    const boc = beginCell().store(storeMessage(message)).endCell().toBoc().toString('base64');
    // An external message to an account with no code fails in the emulator: the stand-in answers the error.
    const res = await post('/api/v2/sendBoc', { boc });
    expect([200, 500]).toContain(res.status);
    // A valid internal transfer from the treasury reaches its destination.
    const wallet = await api.chain.treasury('owner');
    await wallet.send({ to: nobody, value: toNano('1'), bounce: false });
    api.bump();
    const after = (await (await get('/api/v2/getMasterchainInfo')).json()).result.last.seqno;
    expect(after).toBeGreaterThan(before);
    const info = await (await get(`/api/v2/getAddressInformation?address=${nobody.toString()}`)).json();
    expect(BigInt(info.result.balance)).toBeGreaterThan(0n);
  });

  it('moves the emulator clock', async () => {
    const t0 = (await (await get('/api/v2/getMasterchainInfo')).json()).result.sync_utime;
    api.advance(86_400);
    const t1 = (await (await get('/api/v2/getMasterchainInfo')).json()).result.sync_utime;
    expect(t1 - t0).toBe(86_400);
  });

  it('answers 404 in the envelope for an unknown method', async () => {
    const res = await get('/api/v2/nothing');
    expect(res.status).toBe(404);
    expect((await res.json()).ok).toBe(false);
  });
});

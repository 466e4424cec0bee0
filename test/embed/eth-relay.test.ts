import { describe, expect, it } from 'vitest';
import { type Eip1193Provider, fromWizard, RELAYED, relayEth } from '../../src/embed/sdk/eth-relay.js';

/** A provider that records what it is asked and answers from a table (or throws what the table gives). */
function fakeProvider(answers: Record<string, unknown>) {
  const calls: Array<{ method: string; params?: unknown[] }> = [];
  const provider: Eip1193Provider = {
    async request(args) {
      calls.push(args);
      const a = answers[args.method];
      if (a instanceof Error) throw a;
      return a;
    },
  };
  return { provider, calls };
}

describe('the SDK wallet relay', () => {
  it("relays deployment's methods and a chain switch to the provider, with the request id", async () => {
    const { provider, calls } = fakeProvider({
      eth_requestAccounts: ['0xabc'],
      eth_chainId: '0x7a69',
      eth_sendTransaction: '0xhash',
      eth_getTransactionReceipt: { status: '0x1' },
      wallet_switchEthereumChain: null,
    });
    expect(await relayEth(provider, { id: 'a', method: 'eth_requestAccounts' })).toEqual({
      id: 'a',
      result: ['0xabc'],
    });
    expect(await relayEth(provider, { id: 'b', method: 'eth_chainId', params: [] })).toEqual({
      id: 'b',
      result: '0x7a69',
    });
    const tx = { from: '0xabc', data: '0x6080' };
    expect(await relayEth(provider, { id: 'c', method: 'eth_sendTransaction', params: [tx] })).toEqual({
      id: 'c',
      result: '0xhash',
    });
    expect(await relayEth(provider, { id: 'd', method: 'eth_getTransactionReceipt', params: ['0xhash'] })).toEqual({
      id: 'd',
      result: { status: '0x1' },
    });
    expect(
      await relayEth(provider, { id: 'e', method: 'wallet_switchEthereumChain', params: [{ chainId: '0x7a69' }] }),
    ).toEqual({ id: 'e', result: null });
    expect(calls.map((c) => c.method)).toEqual(RELAYED);
    expect(calls[4]!.params).toEqual([{ chainId: '0x7a69' }]);
    expect(calls[2]!.params).toEqual([tx]);
  });

  it('refuses every other method without asking the provider', async () => {
    const { provider, calls } = fakeProvider({});
    for (const method of ['eth_sign', 'personal_sign', 'eth_signTypedData_v4', 'wallet_addEthereumChain', 'x']) {
      const r = await relayEth(provider, { id: method, method, params: [] });
      expect(r).toEqual({ id: method, error: { code: 4200, message: 'Method not relayed.' } });
    }
    expect(calls).toEqual([]);
  });

  it('relays only contract creations: a transaction with a recipient is refused', async () => {
    const { provider, calls } = fakeProvider({ eth_sendTransaction: '0xhash' });
    const sendTo = { from: '0xabc', to: '0x52908400098527886E0F7030069857D2E4169EE7', value: '0xde0b6b3a7640000' };
    expect((await relayEth(provider, { id: 'x', method: 'eth_sendTransaction', params: [sendTo] }))?.error?.code).toBe(
      4200,
    );
    expect((await relayEth(provider, { id: 'y', method: 'eth_sendTransaction', params: [] }))?.error?.code).toBe(4200);
    expect(calls).toEqual([]);
  });

  it('relays a chain switch only as one well-formed chain id, nothing added', async () => {
    const { provider, calls } = fakeProvider({ wallet_switchEthereumChain: null });
    const bad: unknown[][] = [
      [],
      [{}],
      [{ chainId: 31337 }],
      [{ chainId: '0x07a69' }],
      [{ chainId: '7a69' }],
      [{ chainId: '0x7a69', rpcUrls: ['http://evil.example'] }],
      [{ chainId: '0x7a69' }, { chainId: '0x1' }],
      [null],
    ];
    for (const params of bad) {
      const r = await relayEth(provider, { id: 's', method: 'wallet_switchEthereumChain', params });
      expect(r?.error?.code, JSON.stringify(params)).toBe(4200);
    }
    expect(calls).toEqual([]);
  });

  it("passes on the wallet's error (a user rejection keeps its code 4001)", async () => {
    const rejected = Object.assign(new Error('User rejected the request.'), { code: 4001 });
    const { provider } = fakeProvider({ eth_requestAccounts: rejected, eth_chainId: new Error('boom') });
    expect(await relayEth(provider, { id: 'r', method: 'eth_requestAccounts' })).toEqual({
      id: 'r',
      error: { code: 4001, message: 'User rejected the request.' },
    });
    expect((await relayEth(provider, { id: 's', method: 'eth_chainId' }))?.error).toEqual({
      code: -32603,
      message: 'boom',
    });
  });

  it('refuses everything when the host gave no wallet, and ignores a request without an id', async () => {
    expect(await relayEth(undefined, { id: 'n', method: 'eth_chainId' })).toEqual({
      id: 'n',
      error: { code: 4200, message: 'The host page gave no wallet.' },
    });
    const { provider, calls } = fakeProvider({ eth_chainId: '0x1' });
    expect(await relayEth(provider, { method: 'eth_chainId' })).toBeUndefined();
    expect(await relayEth(provider, null)).toBeUndefined();
    expect(await relayEth(provider, { id: 'z'.repeat(65), method: 'eth_chainId' })).toBeUndefined();
    expect(calls).toEqual([]);
  });

  it("takes requests only from the wizard's frame and the svc origin", () => {
    const frame = {};
    const origin = 'http://svc.example';
    expect(fromWizard({ source: frame, origin }, frame, origin)).toBe(true);
    expect(fromWizard({ source: {}, origin }, frame, origin)).toBe(false);
    expect(fromWizard({ source: frame, origin: 'http://evil.example' }, frame, origin)).toBe(false);
    expect(fromWizard({ source: null, origin }, null, origin)).toBe(false);
  });
});

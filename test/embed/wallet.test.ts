import { describe, expect, it } from 'vitest';
import type { ApiResult, WizardApi } from '../../src/embed/ui/api.js';
import { DeployError, deployWithWallet, switchChain, walletChain } from '../../src/embed/ui/wallet.js';

// The wizard's side of a wallet deployment, without a browser: a wallet that answers from a script and an API that
// records what it is asked. The browser walk (wallet-browser.test.ts) does the same against anvil.

const FROM = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const CONTRACT = '0x5FbDB2315678afecb367f032d93F642f64180aa3';
const HASH = `0x${'ab'.repeat(32)}`;
const INPUT = { id: 'ctr_01JD0000000000000000000000', deployData: '0x6080' };

/** A wallet on `chain` (hex) whose receipt is `receipt`; it records every method asked, and moves when asked to. */
function fakeWallet(chain: string, receipt: unknown, opts: { staysOnSwitch?: boolean } = {}) {
  const asked: Array<[string, unknown[]]> = [];
  let on = chain;
  const wallet = {
    async request(method: string, params: unknown[] = []): Promise<unknown> {
      asked.push([method, params]);
      switch (method) {
        case 'eth_requestAccounts':
          return [FROM];
        case 'eth_chainId':
          return on;
        case 'eth_sendTransaction':
          return HASH;
        case 'eth_getTransactionReceipt':
          return receipt;
        case 'wallet_switchEthereumChain':
          if (!opts.staysOnSwitch) on = (params[0] as { chainId: string }).chainId;
          return null;
        default:
          throw new Error(`not expected: ${method}`);
      }
    },
  };
  return { wallet, methods: () => asked.map((a) => a[0]), asked };
}

/** An API whose register_deployment answers `status`; it records its calls. */
function fakeApi(answer: ApiResult<{ address: string; status: string }>) {
  const calls: Array<[string, Record<string, unknown>]> = [];
  const api: WizardApi = {
    async tool<T>(name: string, input: Record<string, unknown>) {
      calls.push([name, input]);
      return answer as ApiResult<T>;
    },
  };
  return { api, calls };
}

const registered = (status: string) => fakeApi({ ok: true, data: { address: CONTRACT, status } });
const mined = { status: '0x1', contractAddress: CONTRACT.toLowerCase() };

async function failure(p: Promise<unknown>): Promise<DeployError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DeployError);
  return err as DeployError;
}

describe('deploying with the host wallet', () => {
  it('on a chain the service reads: sends, registers on that chain, and reports verified', async () => {
    const { wallet, methods } = fakeWallet('0x7a69', mined);
    const { api, calls } = registered('verified');
    const d = await deployWithWallet(wallet, api, INPUT, { networks: [1, 31337] });
    expect(d).toEqual({ address: CONTRACT, transactionHash: HASH, verified: true });
    expect(methods()).toEqual([
      'eth_requestAccounts',
      'eth_chainId',
      'eth_sendTransaction',
      'eth_getTransactionReceipt',
    ]);
    expect(calls).toEqual([
      ['register_deployment', { id: INPUT.id, network: 31337, address: mined.contractAddress, txHash: HASH }],
    ]);
  });

  it('on another chain: refused before anything is sent, naming the chain and those that would do', async () => {
    const { wallet, methods } = fakeWallet('0x1', mined);
    const { api, calls } = registered('verified');
    const err = await failure(deployWithWallet(wallet, api, INPUT, { networks: [31337, 11155111] }));
    expect(err.reason).toBe('wrongChain');
    expect(err.chain).toEqual({ actual: 1, expected: [31337, 11155111] });
    expect(methods()).not.toContain('eth_sendTransaction');
    expect(calls).toEqual([]);
  });

  it('without a list of chains the chain is not checked here (registration answers for it)', async () => {
    const { wallet, methods } = fakeWallet('0x1', mined);
    const { api } = registered('verified');
    await deployWithWallet(wallet, api, INPUT, { networks: [] });
    expect(methods()).toContain('eth_sendTransaction');
  });

  it('code that is not the generated one is reported, not verified', async () => {
    const { wallet } = fakeWallet('0x7a69', mined);
    const { api } = registered('unverified');
    expect(await deployWithWallet(wallet, api, INPUT, { networks: [31337] })).toEqual({
      address: CONTRACT,
      transactionHash: HASH,
      verified: false,
    });
  });

  for (const [what, receipt] of [
    ['status 0', { status: '0x0', contractAddress: CONTRACT }],
    ['no contract address', { status: '0x1', contractAddress: null }],
    ['no status', { contractAddress: CONTRACT }],
  ] as const) {
    it(`a receipt with ${what} is a failed transaction: nothing is registered`, async () => {
      const { wallet } = fakeWallet('0x7a69', receipt);
      const { api, calls } = registered('verified');
      const err = await failure(deployWithWallet(wallet, api, INPUT, { networks: [31337] }));
      expect([err.reason, err.message]).toEqual(['txFailed', HASH]);
      expect(calls).toEqual([]);
    });
  }

  it('a wallet answering no chain id is a wallet error, and nothing is sent', async () => {
    for (const answer of ['31337', '0x', 'mainnet', '0x0']) {
      const { wallet, methods } = fakeWallet(answer, mined);
      const err = await failure(deployWithWallet(wallet, registered('verified').api, INPUT, { networks: [31337] }));
      expect(err.reason, answer).toBe('wallet');
      expect(methods()).not.toContain('eth_sendTransaction');
    }
  });
});

describe('switching the wallet to another chain', () => {
  it('asks with the chain id in hex, then reads back where the wallet is', async () => {
    const { wallet, asked } = fakeWallet('0x1', mined);
    expect(await switchChain(wallet, 31337)).toBe(31337);
    expect(asked).toEqual([
      ['wallet_switchEthereumChain', [{ chainId: '0x7a69' }]],
      ['eth_chainId', []],
    ]);
    expect(await walletChain(wallet)).toBe(31337);
  });

  it('a wallet that says yes but stays is not taken at its word', async () => {
    const { wallet } = fakeWallet('0x1', mined, { staysOnSwitch: true });
    expect(await switchChain(wallet, 31337)).toBe(1);
  });
});

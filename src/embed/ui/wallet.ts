/**
 * Deploying with the host page's wallet. The wizard never holds a key: it asks
 * the host's EIP-1193 provider (through the SDK, src/embed/sdk/eth-relay.ts) for
 * the account and chain, has it send the creation transaction, polls for the
 * receipt, then registers and verifies the deployment with svc.
 */
import type { WizardApi } from './api.js';
import type { EthResponse } from './protocol.js';

/** Why a deployment stopped, for the reader's words; `detail` is the wallet's or the service's own message. */
export type DeployFailure = 'rejected' | 'noAccount' | 'wrongChain' | 'txFailed' | 'timeout' | 'wallet' | 'service';

/** The wallet's chain and the ones the service reads, when the wallet is on none of them. */
export interface ChainMismatch {
  actual: number;
  expected: number[];
}

export class DeployError extends Error {
  constructor(
    readonly reason: DeployFailure,
    detail: string,
    /** For 'wrongChain' found before sending: which chain the wallet is on and which would do. */
    readonly chain?: ChainMismatch,
  ) {
    super(detail);
  }
}

export interface Deployment {
  address: string;
  transactionHash: string;
  verified: boolean;
}

/** Sends eth requests as messages and matches the answers by id. */
export class WalletBridge {
  private next = 0;
  private pending = new Map<string, (a: EthResponse) => void>();

  constructor(private readonly post: (type: string, payload: unknown) => void) {}

  request(method: string, params: unknown[] = []): Promise<unknown> {
    const id = `eth-${++this.next}`;
    return new Promise((resolve, reject) => {
      this.pending.set(id, (a) => {
        if (a.error) {
          const reason: DeployFailure = a.error.code === 4001 ? 'rejected' : 'wallet';
          reject(new DeployError(reason, a.error.message));
        } else resolve(a.result);
      });
      this.post('svc:wizard:eth-request', { id, method, params });
    });
  }

  /** An answer from the host; one with no pending request is dropped. */
  answer(a: EthResponse): void {
    const done = this.pending.get(a.id);
    this.pending.delete(a.id);
    done?.(a);
  }
}

export interface DeployInput {
  /** The stored contract's id (ctr_...), from generate_contract. */
  id: string;
  /** Creation data: bytecode plus the ABI-encoded constructor arguments. */
  deployData: string;
}

interface Receipt {
  status?: string;
  contractAddress?: string | null;
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Names of well-known EVM chains (proper nouns, the same in every language); others are shown by their id. */
export const CHAIN_NAMES: Readonly<Record<number, string>> = {
  1: 'Ethereum',
  10: 'OP Mainnet',
  56: 'BNB Smart Chain',
  137: 'Polygon',
  8453: 'Base',
  42161: 'Arbitrum One',
  43114: 'Avalanche C-Chain',
  11155111: 'Sepolia',
};

/** A chain id as the wallet writes it (EIP-695 / EIP-3326): hex, no leading zero. */
export const chainHex = (id: number): string => `0x${id.toString(16)}`;

/** The wallet's chain id as a number; a wallet that answers something else is a wallet error. */
export async function walletChain(wallet: Pick<WalletBridge, 'request'>): Promise<number> {
  const answer = await wallet.request('eth_chainId');
  const id =
    typeof answer === 'string' && /^0x[0-9a-f]{1,16}$/i.test(answer) ? Number.parseInt(answer, 16) : Number.NaN;
  if (!Number.isSafeInteger(id) || id <= 0)
    throw new DeployError('wallet', `The wallet gave no chain id (${String(answer).slice(0, 40)}).`);
  return id;
}

/**
 * Asks the wallet to move to `chainId` (its user approves or declines there), then reads the chain back: a wallet
 * that says yes but stays where it was is not taken at its word. Resolves to the chain the wallet is on.
 */
export async function switchChain(wallet: Pick<WalletBridge, 'request'>, chainId: number): Promise<number> {
  await wallet.request('wallet_switchEthereumChain', [{ chainId: chainHex(chainId) }]);
  return walletChain(wallet);
}

export async function deployWithWallet(
  wallet: Pick<WalletBridge, 'request'>,
  api: WizardApi,
  input: DeployInput,
  opts: {
    /**
     * The EVM chain ids the service reads (it registers and verifies deployments only there). A wallet on another
     * chain is refused before anything is sent. Empty or absent: not checked here (registration says so after).
     */
    networks?: readonly number[];
    pollMs?: number;
    tries?: number;
    onStage?: (stage: 'account' | 'sending' | 'mining' | 'verifying') => void;
  } = {},
): Promise<Deployment> {
  opts.onStage?.('account');
  const accounts = (await wallet.request('eth_requestAccounts')) as unknown;
  const from = Array.isArray(accounts) ? accounts[0] : undefined;
  if (typeof from !== 'string') throw new DeployError('noAccount', 'The wallet gave no account.');
  const chainId = await walletChain(wallet);
  const networks = opts.networks ?? [];
  if (networks.length && !networks.includes(chainId))
    throw new DeployError('wrongChain', `The wallet is on chain ${chainId}.`, {
      actual: chainId,
      expected: [...networks],
    });
  opts.onStage?.('sending');
  const hash = await wallet.request('eth_sendTransaction', [{ from, data: input.deployData }]);
  if (typeof hash !== 'string') throw new DeployError('wallet', 'The wallet gave no transaction hash.');
  opts.onStage?.('mining');
  let receipt: Receipt | null = null;
  for (let i = 0; i < (opts.tries ?? 120) && !receipt; i++) {
    receipt = (await wallet.request('eth_getTransactionReceipt', [hash])) as Receipt | null;
    if (!receipt) await wait(opts.pollMs ?? 1000);
  }
  if (!receipt) throw new DeployError('timeout', hash);
  if (receipt.status !== '0x1' || !receipt.contractAddress) throw new DeployError('txFailed', hash);
  opts.onStage?.('verifying');
  const r = await api.tool<{ address: string; status: string }>('register_deployment', {
    id: input.id,
    network: chainId,
    address: receipt.contractAddress,
    txHash: hash,
  });
  if (!r.ok) {
    // No endpoint for this chain: the wallet is on a network the service does not read.
    const onNetwork = r.error.details.some((d) => d.field === 'network');
    throw new DeployError(onNetwork ? 'wrongChain' : 'service', r.error.message);
  }
  // Unverified (the chain does not hold what was generated) is an answer, not a failure: it is shown and reported.
  // The address as the service stored it (checksummed), the one its events and lists name.
  return { address: r.data.address, transactionHash: hash, verified: r.data.status === 'verified' };
}

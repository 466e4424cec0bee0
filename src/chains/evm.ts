/**
 * A small reader of an EVM chain over JSON-RPC: only what deployment verification and the watcher need. Every
 * failure of the endpoint (refused, timed out, an error answer) becomes one 503 envelope error that never repeats
 * the endpoint URL, since operators often put an API key in it.
 */
import { type Abi, type AbiEvent, createPublicClient, type Hex, http, type PublicClient } from 'viem';
import { ApiError } from '../core/errors.js';

/** How long one call may take before the endpoint counts as not answering. */
export const CHAIN_TIMEOUT_MS = 10_000;

export interface EvmTransaction {
  hash: Hex;
  from: Hex;
  to: Hex | null;
  input: Hex;
  blockNumber: bigint | null;
}

/** A decoded log: which contract emitted which event, where. */
export interface EvmLog {
  address: Hex;
  eventName: string;
  args: Record<string, unknown>;
  blockNumber: bigint;
  blockHash: Hex;
  transactionHash: Hex;
  logIndex: number;
}

export interface EvmReader {
  chainId: number;
  /** Confirms the endpoint serves the chain it is configured for (a wrong URL must not verify anything). */
  checkChainId(): Promise<void>;
  getCode(address: Hex): Promise<Hex>;
  getTransaction(hash: Hex): Promise<EvmTransaction | null>;
  getTransactionReceipt(hash: Hex): Promise<{ contractAddress: Hex | null; blockNumber: bigint } | null>;
  getBlock(number?: bigint): Promise<{ number: bigint; timestamp: bigint; hash: Hex }>;
  getStorageAt(address: Hex, slot: Hex): Promise<Hex>;
  readContract(address: Hex, abi: Abi, functionName: string): Promise<unknown>;
  /** The latest block's number. */
  getBlockNumber(): Promise<bigint>;
  /** A view called at a given block (the watcher reads confirmed state, not the head). */
  readContractAt(
    address: Hex,
    abi: Abi,
    functionName: string,
    args: readonly unknown[],
    blockNumber: bigint,
  ): Promise<unknown>;
  /** The native balance of an address at a given block. */
  getBalance(address: Hex, blockNumber: bigint): Promise<bigint>;
  /** The logs of the given events emitted by `addresses` in blocks `fromBlock`..`toBlock` (both included), decoded. */
  getLogs(
    addresses: readonly Hex[],
    events: readonly AbiEvent[],
    fromBlock: bigint,
    toBlock: bigint,
  ): Promise<EvmLog[]>;
  /** Runs creation data without sending it: the answer is the runtime code that data would deploy. */
  simulateCreation(data: Hex, from: Hex | null): Promise<Hex>;
}

export function unavailable(): ApiError {
  return new ApiError('SERVICE_UNAVAILABLE', 'The chain endpoint did not answer; try again later.');
}

/** Runs one call; any transport failure becomes `unavailable()`, a "not found" answer stays null. */
async function guarded<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof ApiError) throw err;
    const name = (err as { name?: string }).name ?? '';
    if (/NotFound/.test(name)) return null as T;
    throw unavailable();
  }
}

export function createEvmReader(url: string, chainId: number): EvmReader {
  const client: PublicClient = createPublicClient({
    transport: http(url, { timeout: CHAIN_TIMEOUT_MS, retryCount: 0 }),
  });
  return {
    chainId,
    checkChainId: async () => {
      const found = await guarded(() => client.getChainId());
      if (found !== chainId)
        throw new ApiError(
          'SERVICE_UNAVAILABLE',
          `The endpoint configured for chain ${chainId} serves chain ${found}; fix SVC_EVM_RPC_URLS.`,
        );
    },
    getCode: async (address) => (await guarded(() => client.getCode({ address }))) ?? '0x',
    getTransaction: (hash) =>
      guarded(async () => {
        const tx = await client.getTransaction({ hash });
        return { hash: tx.hash, from: tx.from, to: tx.to ?? null, input: tx.input, blockNumber: tx.blockNumber };
      }),
    getTransactionReceipt: (hash) =>
      guarded(async () => {
        const r = await client.getTransactionReceipt({ hash });
        return { contractAddress: r.contractAddress ?? null, blockNumber: r.blockNumber };
      }),
    getBlock: (number) =>
      guarded(async () => {
        const b = await client.getBlock(number === undefined ? {} : { blockNumber: number });
        return { number: b.number as bigint, timestamp: b.timestamp, hash: b.hash as Hex };
      }),
    getStorageAt: async (address, slot) => (await guarded(() => client.getStorageAt({ address, slot }))) ?? '0x',
    readContract: (address, abi, functionName) => guarded(() => client.readContract({ address, abi, functionName })),
    getBlockNumber: () => guarded(() => client.getBlockNumber({ cacheTime: 0 })),
    readContractAt: (address, abi, functionName, args, blockNumber) =>
      guarded(() => client.readContract({ address, abi, functionName, args, blockNumber })),
    getBalance: (address, blockNumber) => guarded(() => client.getBalance({ address, blockNumber })),
    getLogs: (addresses, events, fromBlock, toBlock) =>
      guarded(async () => {
        const logs = await client.getLogs({
          address: [...addresses],
          events: [...events],
          fromBlock,
          toBlock,
          strict: true,
        });
        return logs.map((l) => ({
          address: l.address,
          eventName: l.eventName,
          args: l.args as Record<string, unknown>,
          blockNumber: l.blockNumber,
          blockHash: l.blockHash,
          transactionHash: l.transactionHash,
          logIndex: l.logIndex,
        }));
      }),
    simulateCreation: async (data, from) =>
      guarded(async () => {
        const out = await client.request({
          method: 'eth_call',
          params: [{ data, ...(from ? { from } : {}) }, 'latest'],
        });
        return out as Hex;
      }),
  };
}

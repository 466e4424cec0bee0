/**
 * Picks the reader of a network from the operator's configuration. A network nobody configured is the caller's
 * problem to report to the operator: a 400 naming the variable to set, not a 5xx. The reader (and viem behind it) is
 * loaded on first use, so a service that never reads a chain never loads it.
 */
import type { Config } from '../core/config.js';
import { ApiError } from '../core/errors.js';
import type { EvmReader } from './evm.js';

export type ChainFamily = 'evm' | 'ton' | 'solana';

/** `ton-mainnet` / `ton-testnet` are TON; a decimal chain id is EVM. */
export function networkFamily(network: string): ChainFamily | null {
  if (network === 'ton-mainnet' || network === 'ton-testnet') return 'ton';
  if (/^[1-9][0-9]{0,15}$/.test(network)) return 'evm';
  return null;
}

export async function evmReaderFor(config: Config, network: string): Promise<EvmReader> {
  const url = config.chains?.evmRpcUrls[network];
  if (!url) {
    const reason =
      `No JSON-RPC endpoint is configured for EVM chain ${network}: the operator sets SVC_EVM_RPC_URLS, ` +
      `e.g. {"${network}": "https://..."}.`;
    throw new ApiError('VALIDATION_ERROR', reason, [{ field: 'network', reason }]);
  }
  const { createEvmReader } = await import('./evm.js');
  return createEvmReader(url, Number(network));
}

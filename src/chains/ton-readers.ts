/**
 * Picks the reader of a TON network from the operator's configuration, like ./readers.ts does for EVM: a network
 * nobody configured is a 400 naming the variable to set. The reader (and @ton/core behind it) is loaded on first use.
 */
import type { Config } from '../core/config.js';
import { ApiError } from '../core/errors.js';
import type { TonNetwork, TonReader } from './ton.js';

export const TON_API_VARIABLE: Record<TonNetwork, string> = {
  'ton-mainnet': 'SVC_TON_API_MAINNET',
  'ton-testnet': 'SVC_TON_API_TESTNET',
};

export const isTonNetwork = (network: string): network is TonNetwork =>
  network === 'ton-mainnet' || network === 'ton-testnet';

export async function tonReaderFor(config: Config, network: TonNetwork): Promise<TonReader> {
  const url = config.chains?.tonApis[network];
  if (!url) {
    const reason = `No TON API endpoint is configured for ${network}: the operator sets ${TON_API_VARIABLE[network]}.`;
    throw new ApiError('VALIDATION_ERROR', reason, [{ field: 'network', reason }]);
  }
  const { createTonReader } = await import('./ton.js');
  return createTonReader(url, network, config.chains?.tonApiKey);
}

/**
 * The SDK's wallet relay: the wizard (in its iframe, on the svc origin) asks
 * the host page's EIP-1193 provider for a few things by postMessage; the key
 * stays in the host's wallet. Only the methods a contract deployment needs
 * are relayed, and a transaction must create a contract (no `to`), so a
 * wizard page cannot use the host's wallet to move funds elsewhere. Asking the
 * wallet to switch to another chain is relayed too (the wallet asks its user,
 * and it moves no funds); adding a chain is not.
 */
// The answer posted back is the message the wizard parses (type only: nothing of the wizard enters the SDK).
import type { EthResponse } from '../ui/protocol.js';

export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

export const RELAYED = [
  'eth_requestAccounts',
  'eth_chainId',
  'eth_sendTransaction',
  'eth_getTransactionReceipt',
  'wallet_switchEthereumChain',
];

/** A chain id as EIP-3326 writes it: hex, no leading zero. */
const CHAIN_HEX = /^0x[1-9a-f][0-9a-f]{0,15}$/;

/** EIP-1193's "unsupported method" code, used for every refusal. */
const REFUSED = 4200;

const refuse = (id: string, message: string): EthResponse => ({ id, error: { code: REFUSED, message } });

/** An eth request payload as posted by the wizard's frame: every field is checked before use. */
interface EthRequest {
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

/** True when a message event came from the wizard's own frame and origin. */
export function fromWizard(e: { source: unknown; origin: string }, frame: unknown, origin: string): boolean {
  return !!frame && e.source === frame && e.origin === origin;
}

/**
 * Answers one `svc:wizard:eth-request` payload `{id, method, params}` with the
 * provider, or refuses it; undefined when the payload has no usable id (nothing
 * to answer to).
 */
export async function relayEth(
  provider: Eip1193Provider | undefined,
  payload: unknown,
): Promise<EthResponse | undefined> {
  const p = payload as EthRequest | null | undefined;
  if (!p || typeof p.id !== 'string' || p.id.length > 64) return undefined;
  const id = p.id;
  const params = p.params === undefined ? [] : p.params;
  if (!provider) return refuse(id, 'The host page gave no wallet.');
  if (typeof p.method !== 'string' || RELAYED.indexOf(p.method) < 0 || !Array.isArray(params))
    return refuse(id, 'Method not relayed.');
  if (
    p.method === 'eth_sendTransaction' &&
    (params.length !== 1 || !params[0] || (params[0] as { to?: unknown }).to != null)
  )
    return refuse(id, 'Only a contract creation transaction is relayed.');
  if (p.method === 'wallet_switchEthereumChain' && !switchParams(params))
    return refuse(id, 'A switch names one chain id and nothing else.');
  try {
    return { id, result: await provider.request({ method: p.method, params }) };
  } catch (err) {
    const e = err as { code?: unknown; message?: unknown } | null | undefined;
    const code = typeof e?.code === 'number' ? e.code : -32603;
    return { id, error: { code, message: String(e?.message || 'Wallet request failed.').slice(0, 300) } };
  }
}

/** `[{ chainId: '0x…' }]` exactly: nothing else is passed to the wallet with a switch. */
function switchParams(params: unknown[]): boolean {
  const p = params[0] as Record<string, unknown> | null;
  return (
    params.length === 1 &&
    !!p &&
    typeof p === 'object' &&
    Object.keys(p).length === 1 &&
    typeof p.chainId === 'string' &&
    CHAIN_HEX.test(p.chainId)
  );
}

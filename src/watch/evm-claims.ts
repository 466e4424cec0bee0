/**
 * Claims of ERC-20 tokens and NFTs from a generated EVM contract. Unlike the native coin (whose running total per
 * beneficiary is a view, `claimedBy`), the contract keeps no readable total of token claims (any ERC-20 it holds
 * can be claimed, airdrops included, round after round), so they are read from the contract's own events:
 * `TokenClaimed(token, beneficiary, amount)` and `NftClaimed(token, tokenId, recipient)`.
 *
 * Each claim gets a once-key that a re-read of the same blocks (a restart, a reorganisation that includes the same
 * transaction again, perhaps in another block) finds again: an NFT is listed once and claimed once, so its key is
 * the NFT; a token claim's key is its transaction and its place among the same token's claims by the same
 * beneficiary in that transaction.
 */
import { type Abi, type AbiEvent, getAddress, type Hex, parseAbiItem } from 'viem';
import type { EvmLog, EvmReader } from '../chains/evm.js';

export const TOKEN_CLAIMED = parseAbiItem(
  'event TokenClaimed(address indexed token, address indexed beneficiary, uint256 amount)',
) as AbiEvent;
export const NFT_CLAIMED = parseAbiItem(
  'event NftClaimed(address indexed token, uint256 indexed tokenId, address indexed recipient)',
) as AbiEvent;
const CLAIM_EVENTS = [TOKEN_CLAIMED, NFT_CLAIMED];

/** Blocks per log query: public endpoints commonly refuse larger ranges. */
export const LOG_BLOCK_RANGE = 5_000n;
/** Contracts per log query (one filter with many addresses, rather than one query per contract). */
export const LOG_ADDRESSES = 500;

/** A claim of a token or an NFT, as `deadman.claimed` reports it. */
export interface AssetClaim {
  asset: 'erc20' | 'erc721';
  key: string;
  token: Hex;
  /** The beneficiary whose share was claimed. */
  beneficiary: Hex;
  /** ERC-20: units claimed (decimal string). */
  amount?: string;
  /** ERC-721: the token id (decimal string) and where the NFT went (the beneficiary, or the address it chose). */
  tokenId?: string;
  recipient?: Hex;
  transactionHash: Hex;
  blockNumber: number;
}

/** Whether a contract's ABI declares any claim event (contracts without one are not queried). */
export const hasClaimEvents = (abi: Abi): boolean =>
  abi.some((e) => e.type === 'event' && (e.name === 'TokenClaimed' || e.name === 'NftClaimed'));

/**
 * The claim logs of `addresses` in blocks `from`..`to`, by contract (lower-case address), oldest first. Queried in
 * slices of blocks and of addresses.
 */
export async function readClaimLogs(
  reader: EvmReader,
  addresses: readonly Hex[],
  from: bigint,
  to: bigint,
): Promise<Map<string, EvmLog[]>> {
  const out = new Map<string, EvmLog[]>();
  if (addresses.length === 0 || from > to) return out;
  for (let i = 0; i < addresses.length; i += LOG_ADDRESSES) {
    const slice = addresses.slice(i, i + LOG_ADDRESSES);
    for (let start = from; start <= to; start += LOG_BLOCK_RANGE) {
      const end = start + LOG_BLOCK_RANGE - 1n < to ? start + LOG_BLOCK_RANGE - 1n : to;
      for (const log of await reader.getLogs(slice, CLAIM_EVENTS, start, end)) {
        const key = log.address.toLowerCase();
        const list = out.get(key) ?? [];
        list.push(log);
        out.set(key, list);
      }
    }
  }
  for (const list of out.values())
    list.sort((a, b) =>
      a.blockNumber === b.blockNumber ? a.logIndex - b.logIndex : a.blockNumber < b.blockNumber ? -1 : 1,
    );
  return out;
}

const hasView = (abi: Abi, name: string) => abi.some((e) => e.type === 'function' && e.name === name);

/**
 * One contract's claim logs as claims. An NFT's beneficiary is the recipient the contract assigns it to (`nftAt`,
 * read at block `at`; the assignment cannot change once the contract is released), since the event names where
 * the NFT went, which a beneficiary may choose.
 */
export async function claimsOf(
  reader: EvmReader,
  abi: Abi,
  address: Hex,
  logs: readonly EvmLog[],
  at: bigint,
): Promise<AssetClaim[]> {
  const out: AssetClaim[] = [];
  const seen = new Map<string, number>();
  let listed: { token: string; tokenId: bigint; recipient: Hex }[] | undefined;
  const nfts = async () => {
    if (listed) return listed;
    listed = [];
    if (!hasView(abi, 'nftCount') || !hasView(abi, 'nftAt')) return listed;
    const count = (await reader.readContractAt(address, abi, 'nftCount', [], at)) as bigint;
    const items = await Promise.all(
      Array.from({ length: Number(count) }, (_, i) => reader.readContractAt(address, abi, 'nftAt', [BigInt(i)], at)),
    );
    listed = items.map((item) => {
      const [token, tokenId, recipient] = item as readonly [Hex, bigint, Hex, boolean];
      return { token: token.toLowerCase(), tokenId, recipient: getAddress(recipient) };
    });
    return listed;
  };
  for (const log of logs) {
    const base = { transactionHash: log.transactionHash, blockNumber: Number(log.blockNumber) };
    if (log.eventName === 'TokenClaimed') {
      const token = getAddress(log.args.token as Hex);
      const beneficiary = getAddress(log.args.beneficiary as Hex);
      const id = `${log.transactionHash}:${token}:${beneficiary}`.toLowerCase();
      const nth = seen.get(id) ?? 0;
      seen.set(id, nth + 1);
      out.push({
        asset: 'erc20',
        key: `claimed:erc20:${id}:${nth}`,
        token,
        beneficiary,
        amount: (log.args.amount as bigint).toString(),
        ...base,
      });
    } else if (log.eventName === 'NftClaimed') {
      const token = getAddress(log.args.token as Hex);
      const tokenId = log.args.tokenId as bigint;
      const recipient = getAddress(log.args.recipient as Hex);
      const item = (await nfts()).find((n) => n.token === token.toLowerCase() && n.tokenId === tokenId);
      out.push({
        asset: 'erc721',
        key: `claimed:erc721:${token.toLowerCase()}:${tokenId}`,
        token,
        beneficiary: item?.recipient ?? recipient,
        tokenId: tokenId.toString(),
        recipient,
        ...base,
      });
    }
  }
  return out;
}

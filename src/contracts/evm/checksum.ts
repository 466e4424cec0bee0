import { keccak_256 } from '@noble/hashes/sha3.js';

/**
 * The EIP-55 form of an EVM address (`0x` and 40 hexadecimal digits, any case): each letter is upper case when the
 * matching nibble of keccak-256 over the lower-case digits (as ASCII) is 8 or more. Plan validation runs on every
 * request, so this stays a small module rather than pulling in an Ethereum library.
 */
export function checksumAddress(address: string): string {
  const hex = address.slice(2).toLowerCase();
  const hash = keccak_256(new TextEncoder().encode(hex));
  let out = '0x';
  for (let i = 0; i < hex.length; i++) {
    const nibble = i % 2 === 0 ? hash[i >> 1]! >> 4 : hash[i >> 1]! & 0x0f;
    out += nibble >= 8 ? hex[i]!.toUpperCase() : hex[i]!;
  }
  return out;
}

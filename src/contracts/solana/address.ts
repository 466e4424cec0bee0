/** Solana addresses: base58 encodings of 32-byte keys. */
import bs58 from 'bs58';

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;
/** The system program id, all-zero bytes: Solana's "zero address". */
export const SOLANA_ZERO_ADDRESS = '11111111111111111111111111111111';

/**
 * Why a string is not a usable Solana address, or undefined when it is one.
 * Reasons name the problem precisely: empty, surrounding whitespace, a
 * character outside the base58 alphabet (with its position), a wrong decoded
 * length, or the all-zero key.
 */
export function solanaAddressProblem(addr: string, opts: { rejectZero?: boolean } = {}): string | undefined {
  if (typeof addr !== 'string' || addr.length === 0) return 'is empty';
  if (addr.trim() !== addr) return 'has leading or trailing whitespace';
  if (!BASE58.test(addr)) {
    const i = [...addr].findIndex((c) => !BASE58.test(c));
    const c = [...addr][i]!;
    const hint = '0OIl'.includes(c) ? ' (base58 excludes 0, O, I and l)' : '';
    return `contains "${c}" at position ${i + 1}, which is not a base58 character${hint}`;
  }
  if (addr.length > 100) return `is ${addr.length} characters long; a Solana address has 32 to 44`;
  const bytes = bs58.decode(addr);
  if (bytes.length !== 32) return `decodes to ${bytes.length} bytes; a Solana address is a 32-byte key`;
  if ((opts.rejectZero ?? true) && bytes.every((b) => b === 0))
    return 'is the all-zero key (the system program), which cannot hold or claim funds';
  return undefined;
}

/** True when `addr` is the base58 encoding of a 32-byte key (format only; see isSolanaZeroAddress). */
export function isValidSolanaAddress(addr: string): boolean {
  return solanaAddressProblem(addr, { rejectZero: false }) === undefined;
}

/** True for the all-zero key, the Solana counterpart of the EVM zero address. */
export function isSolanaZeroAddress(addr: string): boolean {
  return addr === SOLANA_ZERO_ADDRESS;
}

// The address class alone, for the service's other modules too: the package's index loads all of @ton/core and
// @ton/crypto (some 110 files, 0.1 s of a slow machine's start), which the service needs only once a TON contract is
// compiled, run or read on chain. It is the class the index exports (one module, loaded once).
import { Address } from '@ton/core/dist/address/Address.js';

export { Address };

const RAW = /^(0|-1):[0-9a-fA-F]{64}$/;
const FRIENDLY = /^[A-Za-z0-9+/_-]{48}$/;

/**
 * A TON address in raw form (`0:<64 hex>`, or `-1:` for the masterchain) or
 * the 48-character user-friendly form (base64 or base64url) whose CRC16 is
 * valid. Parsing is @ton/core's; the patterns only keep other shapes out.
 */
export function isValidTonAddress(addr: string): boolean {
  if (typeof addr !== 'string') return false;
  try {
    if (RAW.test(addr)) {
      Address.parseRaw(addr);
      return true;
    }
    if (FRIENDLY.test(addr)) {
      const { address } = Address.parseFriendly(addr);
      return address.workChain === 0 || address.workChain === -1;
    }
  } catch {
    return false;
  }
  return false;
}

import { ApiError } from '../core/errors.js';
import { ipAllowed } from '../core/ip.js';
import type { ApiKeyRecord } from '../keys/keys.js';
import type { CallInfo } from './call.js';
import { admitAnonymous } from './counters.js';
import type { AccessServices } from './services.js';

/**
 * Refuses a key used from an address outside its IP whitelist (an empty whitelist allows any). The refusal is
 * counted against the address, not the key: a stolen key used from elsewhere must not exhaust its owner's budget.
 */
export async function requireAllowedAddress(
  services: AccessServices,
  call: Pick<CallInfo, 'clientIp' | 'rate'>,
  record: Pick<ApiKeyRecord, 'ipWhitelist'>,
): Promise<void> {
  if (ipAllowed(record.ipWhitelist, call.clientIp)) return;
  await admitAnonymous(services, call);
  throw new ApiError('IP_NOT_ALLOWED', "This API key may not be used from this address (see the key's ipWhitelist).");
}

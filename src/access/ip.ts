import { ApiError } from '../core/errors.js';

/**
 * The refusal of a key used from an address outside its IP whitelist (an empty whitelist allows any). Admission
 * counts it against the address, not the key: a stolen key used from elsewhere must not exhaust its owner's budget.
 */
export function ipNotAllowed(): ApiError {
  return new ApiError('IP_NOT_ALLOWED', "This API key may not be used from this address (see the key's ipWhitelist).");
}

/**
 * The EIP-55 form of an EVM address. It lives with the validation messages (src/core/messages/issues.ts), which
 * name the checksummed form in a "did you mean" and run in the wizard's browser bundle too.
 */
export { checksumAddress } from '../../core/messages/issues.js';

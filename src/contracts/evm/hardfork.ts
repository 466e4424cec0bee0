/**
 * The fork whose rules the execution check and the gas figures follow: @ethereumjs/common's `Hardfork.Osaka`, named
 * here without loading @ethereumjs (the main thread quotes it; only the VM's worker runs it). ./vm.ts runs under it,
 * and test/contracts/evm/gas-independent.test.ts checks it is the fork that test measures under.
 */
export const VM_HARDFORK = 'osaka';

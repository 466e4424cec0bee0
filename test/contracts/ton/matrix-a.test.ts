import { REFERENCE_TEMPLATE, tonMatrix } from './matrix-cases.js';

// The reference template: every feature set × beneficiary count, compiled and run in the sandbox.
tonMatrix([REFERENCE_TEMPLATE]);

import { defineMatrix } from './matrix.js';

// Every shape of the common-law template × beneficiary counts, compiled and executed.
defineMatrix('common-law');

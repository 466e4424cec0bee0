import { defineMatrix } from './matrix.js';

// Every shape of the civil-law template × beneficiary counts, compiled and executed.
defineMatrix('civil-law');

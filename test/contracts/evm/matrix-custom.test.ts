import { defineMatrix } from './matrix.js';

// Every shape of the custom template × beneficiary counts, compiled and executed.
defineMatrix('custom');

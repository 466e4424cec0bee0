import { defineMatrix } from './matrix.js';

// Every shape of the islamic-wasiyyah template × beneficiary counts, compiled and executed.
defineMatrix('islamic-wasiyyah');

import { defineMatrix } from './matrix.js';

// Every shape of the islamic-mirth template × beneficiary counts, compiled and executed.
defineMatrix('islamic-mirth');

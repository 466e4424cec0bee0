import { defineMatrix, REFERENCE_TEMPLATE, shapesOf } from './matrix.js';

// Every shape of the reference template × beneficiary counts, compiled and executed: the second half of the shapes.
defineMatrix(`${REFERENCE_TEMPLATE} (part 2 of 2)`, shapesOf(REFERENCE_TEMPLATE, 1, 2));

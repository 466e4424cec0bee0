import { defineMatrix, REFERENCE_TEMPLATE, shapesOf } from './matrix.js';

// Every shape of the reference template × beneficiary counts, compiled and executed: the first half of the shapes
// (the second half is in matrix-reference-b; matrix-templates covers the other templates).
defineMatrix(`${REFERENCE_TEMPLATE} (part 1 of 2)`, shapesOf(REFERENCE_TEMPLATE, 0, 2));

/**
 * Limits of the TON contract that the plan's validation checks too (src/contracts/validate.ts), in a module of its
 * own: the validation runs in every process, and ./shape.ts loads all of @ton/core.
 */

/** Jettons are indexed by 8 bits; a claim carries one jetton, so a handful is plenty. */
export const TON_MAX_JETTONS = 10;

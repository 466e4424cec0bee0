/**
 * Long synchronous steps written as generators that yield between slices of their work, so that the same code runs
 * at once (tests, a small memoir) or gives the event loop a turn between slices (`inTurns`): a chat's search over a
 * memoir of thousands of entries scores some hundred thousand passages, a few hundred milliseconds that would hold
 * every other account's requests.
 */

/** A step that yields between slices of its work and returns its result. */
export type Steps<T> = Generator<void, T, void>;

/** How many passages or kept readings a step goes through between two yields: a few milliseconds of work. */
export const SLICE = 2_000;
/** Characters of text a step that reads texts anew (splits them into sentences) goes through between yields. */
export const SLICE_CHARS = 200_000;

/** Characters of text hashed between two turns (a digest reads some 1 GB/s: a few milliseconds). */
export const SLICE_HASH_CHARS = 2_000_000;

/** A turn of the event loop: resolves once the requests waiting meanwhile had theirs. */
export const turn = (): Promise<void> => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs `steps` to their end without giving way. */
export function atOnce<T>(steps: Steps<T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** Runs `steps` to their end, giving the event loop a turn (a `setImmediate`) at each yield. */
export async function inTurns<T>(steps: Steps<T>): Promise<T> {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
    await turn();
  }
}

/** Event-loop probes for the tests that check work runs off the main thread. */

/** Counts event-loop turns until stopped (`count` reads it meanwhile): it advances only while the loop is free. */
export function ticker(): { stop: () => number; count: () => number } {
  let ticks = 0;
  let on = true;
  const tick = () => {
    ticks++;
    if (on) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    stop: () => {
      on = false;
      return ticks;
    },
    count: () => ticks,
  };
}

/** Resolves once `cond` holds (checked every few ms). */
export async function until(cond: () => boolean): Promise<void> {
  while (!cond()) await new Promise((r) => setTimeout(r, 5));
}

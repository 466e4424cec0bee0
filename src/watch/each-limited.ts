/**
 * Runs `fn` over `items`, at most `limit` at a time, in order of start; stops taking new items once `stopped()` says
 * so (those under way finish). The watcher's reads of a round: many deployments, a provider that limits rate.
 */
export async function eachLimited<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<void>,
  stopped: () => boolean = () => false,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length && !stopped()) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

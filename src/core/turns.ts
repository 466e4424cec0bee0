/**
 * Groups taking turns over a list that is otherwise oldest first: one account's long backlog then never stands in
 * front of another account's item. Used where the whole list is at hand (the mail sender's claim); the worker pools
 * keep a queue per account instead (./fair-queue.ts), and the PostgreSQL outbox takes its turns in the claim itself.
 */

/**
 * The items reordered so that their groups take turns: the first item of each group, then the second of each, and
 * so on. Groups come in the order of their first item, starting with the one after `after` (the group served last)
 * when it is among them; within a group the items keep their order.
 */
export function inTurns<T>(items: readonly T[], groupOf: (item: T) => string, after?: string): T[] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = groupOf(item);
    let list = groups.get(key);
    if (!list) groups.set(key, (list = []));
    list.push(item);
  }
  const lines = [...groups.entries()];
  const at = after === undefined ? -1 : lines.findIndex(([key]) => key === after);
  const order = at < 0 ? lines : [...lines.slice(at + 1), ...lines.slice(0, at + 1)];
  const out: T[] = [];
  for (let turn = 0; out.length < items.length; turn++) {
    for (const [, list] of order) if (turn < list.length) out.push(list[turn]!);
  }
  return out;
}

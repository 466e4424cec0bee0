/**
 * How far the watcher has read a network, and whether the chain still agrees with what it read.
 *
 * Per network, a cursor record keeps the last confirmed block whose events were taken into account for every watched
 * deployment, and the hashes of the recent blocks read. At each poll the newest recorded block is looked up again:
 * the same hash means the chain read so far still stands (each block commits to its parent, so every older block
 * stands too). Another hash, or a chain now shorter than that block, means a reorganisation deeper than the
 * confirmations: the newest recorded block the chain still has, with the same hash, is the common ancestor, and
 * what was read after it is read again (see the watcher).
 */
import type { Store } from '../store/port.js';

export const WATCH_CURSORS = 'watch_cursors';
/** Recent blocks whose hashes are kept per network (one per poll that read a new block). */
export const HASHES_KEPT = 64;

export interface CursorRecord {
  [field: string]: unknown;
  /** `cursor:<network>`. */
  id: string;
  network: string;
  /** The last confirmed block fully read (every watched deployment, its state and its claim events). */
  block: number;
  /** [block, hash] of the recent blocks read, oldest first. */
  hashes: [number, string][];
}

const cursorId = (network: string) => `cursor:${network}`;

export async function loadCursor(store: Store, network: string): Promise<CursorRecord | undefined> {
  return store.get<CursorRecord>(WATCH_CURSORS, cursorId(network));
}

/**
 * Whether the chain reorganised under what was read: null when not, otherwise the common ancestor (-1 when none of
 * the recorded blocks is still on the chain: everything is read again). `hashAt` answers the chain's hash of a
 * block at or below `target`.
 */
export async function findAncestor(
  cursor: CursorRecord | undefined,
  target: number,
  hashAt: (block: number) => Promise<string>,
): Promise<number | null> {
  const hashes = cursor?.hashes ?? [];
  const newest = hashes.at(-1);
  if (!newest) return null;
  if (newest[0] <= target && (await hashAt(newest[0])) === newest[1]) return null;
  for (let i = hashes.length - 1; i >= 0; i--) {
    const [block, hash] = hashes[i]!;
    if (block <= target && (await hashAt(block)) === hash) return block;
  }
  return -1;
}

/**
 * Records that every deployment was read up to `block` (with `hash`). After a reorganisation the hashes past the
 * ancestor belong to the abandoned branch and are dropped.
 */
export async function saveCursor(
  store: Store,
  network: string,
  block: number,
  hash: string,
  ancestor: number | null,
): Promise<void> {
  await store.transact(async (tx) => {
    const id = cursorId(network);
    const prev = await tx.get<CursorRecord>(WATCH_CURSORS, id);
    const kept = (prev?.hashes ?? []).filter(([n]) => n < block && (ancestor === null || n <= ancestor));
    const next: CursorRecord = {
      id,
      network,
      block,
      hashes: [...kept, [block, hash] as [number, string]].slice(-HASHES_KEPT),
    };
    await tx.put(WATCH_CURSORS, next);
  });
}

/**
 * Offset pages of an account's memoir records, newest first, that read only the page's records: an account keeps up
 * to 10,000 journal entries (20,000 characters each) and its media records (with their captions and transcripts), and
 * copying all of them for each page held the event loop for as long as the account was large.
 */
import { newestFirst } from '../core/ids.js';
import { paginateOffset, type OffsetPageMeta } from '../core/pagination.js';
import type { Doc, Store } from '../store/port.js';

/** Page `page` of `ownerId`'s records of `collection` (ids are ULIDs: they order like their creation), newest first. */
export function newestPage<T extends Doc>(
  store: Store,
  collection: string,
  ownerId: string,
  page: number,
  limit: number,
): Promise<{ items: T[]; pagination: OffsetPageMeta }> {
  return store.transact(
    async (tx) => {
      const ids = newestFirst(await tx.idsBy(collection, 'ownerId', ownerId));
      const { items: pageIds, pagination } = paginateOffset(ids, page, limit);
      const items: T[] = [];
      for (const id of pageIds) {
        const r = await tx.get<T>(collection, id);
        if (r?.ownerId === ownerId) items.push(r);
      }
      return { items, pagination };
    },
    { readOnly: true },
  );
}

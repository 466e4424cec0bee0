/**
 * The marks the catch-up (./embed-catch-up.ts) leaves on a memoir once its passages are all embedded, so that the
 * next catch-up passes it by without reading its texts. Written only by the catch-up; removed by ./embed-ahead.ts
 * whenever a text of the account is left to the question, so that the next catch-up embeds what was left.
 */
import type { Store } from '../store/port.js';
import { MEMOIR_AHEAD_MARKS } from './records.js';

export interface AheadMark {
  [field: string]: unknown;
  id: string;
  /** The account whose vectors these are (an heir's, for a memoir shared with them). */
  ownerId: string;
  /** `own`, or the share (grant) whose memoir it is. */
  source: string;
  /** The embedding model of the vectors: a mark made with another model does not count. */
  model: string;
  /** When the catch-up ended. */
  at: string;
}

/** The id of `accountId`'s mark for its own memoir (`own`) or for the memoir of a share it holds. */
export const markId = (accountId: string, source: string): string => `mahd_${accountId}_${source}`;

/** Removes the account's marks (through `store`, its view): its memoirs are looked at again by the next catch-up. */
export async function forgetCaughtUp(store: Store, accountId: string): Promise<void> {
  const marks = await store.findBy<AheadMark>(MEMOIR_AHEAD_MARKS, 'ownerId', accountId);
  if (marks.length === 0) return;
  await store.transact(async (tx) => {
    for (const m of marks) await tx.delete(MEMOIR_AHEAD_MARKS, m.id);
  });
}

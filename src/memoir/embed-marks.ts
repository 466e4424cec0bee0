/**
 * The marks the catch-up (./embed-catch-up.ts) leaves on a memoir: while it embeds the memoir's passages, a hold
 * (`holder`, `until`), so that another instance of the service sharing the store leaves that memoir to it rather than
 * sending the same passages to the provider again; once every passage is embedded, a done mark, so that the next
 * catch-up passes the memoir by without reading its texts. Written only by the catch-up; removed by ./embed-ahead.ts
 * whenever a text of the account is left to the question, and by `noteWritten` (./embed-ahead.ts) whenever a text is stored with
 * nothing embedding ahead, so that the next catch-up embeds what was left (a hold removed so is not made a done mark:
 * the catch-up holding it finds it gone).
 */
import type { Store, Tx } from '../store/port.js';
import { MEMOIR_AHEAD_MARKS } from './records.js';
import { PASSAGES_VERSION } from './retrieval.js';

export interface AheadMark {
  [field: string]: unknown;
  id: string;
  /** The account whose vectors these are (an heir's, for a memoir shared with them). */
  ownerId: string;
  /** `own`, or the share (grant) whose memoir it is. */
  source: string;
  /** The embedding model of the vectors: a mark made with another model does not count. */
  model: string;
  /**
   * The version of the passages embedded (PASSAGES_VERSION when the mark was made; absent on marks made before it was
   * kept): a mark made when texts were cut into other passages does not count.
   */
  passages?: number;
  /** When the catch-up ended (a done mark), or took or renewed its hold. */
  at: string;
  /** The catch-up embedding the memoir now: present on a hold only. */
  holder?: string;
  /** Unix ms until which the hold stands (renewed at each part); past it another catch-up may take the memoir. */
  until?: number;
}

/**
 * How long a catch-up's hold on a memoir stands without being renewed (it is renewed before each part of the memoir):
 * an instance that stopped or died while holding one leaves it to the others after this.
 */
export const CATCH_UP_HOLD_MS = 10 * 60_000;

/** The id of `accountId`'s mark for its own memoir (`own`) or for the memoir of a share it holds. */
export const markId = (accountId: string, source: string): string => `mahd_${accountId}_${source}`;

/** Whether `mark` says the memoir's passages, as they are cut now, are all embedded with `model` (not a hold). */
export const isDone = (mark: AheadMark, model: string): boolean =>
  mark.model === model && mark.passages === PASSAGES_VERSION && mark.holder === undefined;

/** Removes the account's marks (through `store`, its view): its memoirs are looked at again by the next catch-up. */
export async function forgetCaughtUp(store: Store, accountId: string): Promise<void> {
  const marks = await store.findBy<AheadMark>(MEMOIR_AHEAD_MARKS, 'ownerId', accountId);
  if (marks.length === 0) return;
  await store.transact(async (tx) => {
    for (const m of marks) await tx.delete(MEMOIR_AHEAD_MARKS, m.id);
  });
}

/** One memoir as a catch-up sees it: whose vectors, which memoir, with which model, and which catch-up it is. */
export interface HeldMemoir {
  /** The account's view of the store. */
  view: Store;
  accountId: string;
  source: string;
  model: string;
  holder: string;
}

const hold = (m: HeldMemoir, now: Date): AheadMark => ({
  id: markId(m.accountId, m.source),
  ownerId: m.accountId,
  source: m.source,
  model: m.model,
  at: now.toISOString(),
  holder: m.holder,
  until: now.getTime() + CATCH_UP_HOLD_MS,
});

/** The mark of a memoir whose passages, as they are cut now, are all embedded with `model`. */
export const doneMark = (accountId: string, source: string, model: string, now: Date): AheadMark => ({
  id: markId(accountId, source),
  ownerId: accountId,
  source,
  model,
  passages: PASSAGES_VERSION,
  at: now.toISOString(),
});

const done = (m: HeldMemoir, now: Date): AheadMark => doneMark(m.accountId, m.source, m.model, now);

/**
 * Takes the memoir for this catch-up (`as: 'hold'`), or marks it done at once (`as: 'done'`: a memoir with no text):
 * false when it is done with this model already, or another catch-up's hold on it stands. In one transaction, so that
 * of two instances taking it at once one does.
 */
export function takeMemoir(m: HeldMemoir, now: Date, as: 'hold' | 'done' = 'hold'): Promise<boolean> {
  return m.view.transact(async (tx) => {
    const mark = await tx.get<AheadMark>(MEMOIR_AHEAD_MARKS, markId(m.accountId, m.source));
    if (mark && isDone(mark, m.model)) return false;
    if (mark?.holder !== undefined && mark.holder !== m.holder && (mark.until ?? 0) > now.getTime()) return false;
    await tx.put(MEMOIR_AHEAD_MARKS, as === 'hold' ? hold(m, now) : done(m, now));
    return true;
  });
}

/** Applies `change` to the memoir's mark in one transaction if this catch-up holds it: false when it does not. */
function whileHeld(m: HeldMemoir, change: (tx: Tx, id: string) => Promise<unknown>): Promise<boolean> {
  return m.view.transact(async (tx) => {
    const id = markId(m.accountId, m.source);
    if ((await tx.get<AheadMark>(MEMOIR_AHEAD_MARKS, id))?.holder !== m.holder) return false;
    await change(tx, id);
    return true;
  });
}

/** Renews this catch-up's hold: false when it no longer holds the memoir (a text of the account was left meanwhile). */
export const renewMemoir = (m: HeldMemoir, now: Date): Promise<boolean> =>
  whileHeld(m, (tx) => tx.put(MEMOIR_AHEAD_MARKS, hold(m, now)));

/**
 * Makes this catch-up's hold a done mark, once every passage read when it took the memoir is embedded: false when it
 * no longer held it (a text left meanwhile removed the hold, and the next catch-up embeds it).
 */
export const finishMemoir = (m: HeldMemoir, now: Date): Promise<boolean> =>
  whileHeld(m, (tx) => tx.put(MEMOIR_AHEAD_MARKS, done(m, now)));

/** Gives up this catch-up's hold (it could not finish the memoir): the next catch-up, here or elsewhere, takes it. */
export async function releaseMemoir(m: HeldMemoir): Promise<void> {
  await whileHeld(m, (tx, id) => tx.delete(MEMOIR_AHEAD_MARKS, id));
}

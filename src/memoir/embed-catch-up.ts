/**
 * The catch-up of passages never embedded ahead: memoirs written before the service embedded ahead (an upgrade, a
 * provider configured later), texts left to the question (the provider failing, the service stopping before a run
 * ended), and memoirs shared with an heir that opened after the heir claimed them (nothing is written then: the share
 * opens with time).
 *
 * The service runs it in the background a minute after it starts, then every quarter of an hour, and after a round
 * of its sweep that completed verifications (shares may have opened then) (src/app.ts). Each
 * memoir not marked done for the configured embedding model has its texts read, as its chat reads them, and handed to
 * the background embedding (./embed-ahead.ts) in parts, one memoir at a time; once every passage is embedded, the memoir
 * is marked done (./embed-marks.ts), and later catch-ups pass it by with one read. What is written afterwards is
 * embedded as it is written; a text of an account left to the question removes the account's marks.
 *
 * Several instances of the service sharing a store each run it: a catch-up holds the memoir it embeds (./embed-marks.ts,
 * taken in a transaction), and another passes a held memoir by, so that no passage is sent to the provider twice (the
 * instances start together, and each went through the same memoirs in the same order). A hold is renewed at each part
 * and stands ten minutes unrenewed: an instance that died holding one leaves it to the others then. A memoir with no
 * text is marked done at once, without a hold.
 *
 * All of it is the system's work in the model's places (./model-calls.ts): it takes one turn among the accounts'
 * own calls, however many memoirs it has to go through. It stops at the first memoir it could not finish (the provider
 * failing, the service stopping): the next catch-up goes on from there, and takes the memoirs that could not be
 * finished after the others. A memoir whose texts could not be read is passed over (counted in `skipped`), and looked
 * at again by the next catch-up.
 */
import { ACCOUNTS, type AccountRecord } from '../accounts/records.js';
import { accountStore } from '../accounts/tenancy.js';
import { GRANTS, type GrantRecord, grantState, openGrant } from '../accounts/grants.js';
import { randomBytes } from 'node:crypto';
import type { Clock } from '../core/clock.js';
import type { Store } from '../store/port.js';
import { chatTexts } from './agent.js';
import type { EmbedAhead } from './embed-ahead.js';
import { SLICE, turn } from './turns.js';
import {
  type AheadMark,
  finishMemoir,
  type HeldMemoir,
  isDone,
  markId,
  releaseMemoir,
  renewMemoir,
  takeMemoir,
} from './embed-marks.js';
import { MEMOIR_AHEAD_MARKS } from './records.js';

/** Texts handed to the background embedding at once: a part of a large memoir, well within its bounds. */
export const CATCH_UP_TEXTS = 500;

/** Characters handed to the background embedding at once (a quarter of its bound for all accounts together). */
export const CATCH_UP_CHARS = 2_000_000;

export interface CatchUpResult {
  /** Memoirs whose passages were all embedded by this catch-up (and marked so). */
  caughtUp: number;
  /** Memoirs whose texts could not be read (a store error): looked at again by the next catch-up. */
  skipped: number;
  /** Memoirs another catch-up held (another instance's), or finished meanwhile: left to it. */
  held: number;
  /**
   * Memoirs embedded but not marked done: a text of the account was left to the question meanwhile (removing the
   * hold), and the next catch-up embeds what was left.
   */
  left: number;
  /**
   * Whether it went through every memoir and left none (false: it stopped at one it could not finish, skipped one, or
   * left one).
   */
  complete: boolean;
}

export interface CatchUpOptions {
  /** Texts per part (CATCH_UP_TEXTS). */
  partTexts?: number;
  /** Characters per part (CATCH_UP_CHARS). */
  partChars?: number;
  /** Who holds the memoirs this catch-up embeds (default: a name of its own, random). */
  holder?: string;
}

/**
 * Hands `texts` to `ahead` in parts, each once the previous one is embedded and the hold on the memoir renewed:
 * `done` when all of them were, `failed` when a part was left to the question (it stops there), `lost` when the hold
 * was gone before a part (a text of the account left meanwhile).
 */
async function embedAll(
  ahead: EmbedAhead,
  memoir: HeldMemoir,
  texts: readonly string[],
  clock: Clock,
  opts: CatchUpOptions,
): Promise<'done' | 'failed' | 'lost'> {
  const now = () => clock.now();
  const maxTexts = opts.partTexts ?? CATCH_UP_TEXTS;
  const maxChars = opts.partChars ?? CATCH_UP_CHARS;
  const send = async (part: readonly string[]) =>
    (await ahead.noteAll(memoir.view, memoir.accountId, part, now)) ? undefined : ('failed' as const);
  let part: string[] = [];
  let chars = 0;
  for (const text of texts) {
    if (part.length > 0 && (part.length >= maxTexts || chars + text.length > maxChars)) {
      const failed = await send(part);
      if (failed) return failed;
      if (!(await renewMemoir(memoir, clock.now()))) return 'lost';
      part = [];
      chars = 0;
    }
    part.push(text);
    chars += text.length;
  }
  return (await send(part)) ?? 'done';
}

/** One memoir to catch up: whose vectors, which memoir, and how its texts are read. */
interface MemoirJob {
  accountId: string;
  /** `own`, or the share's id. */
  source: string;
  read: () => Promise<readonly string[]>;
}

/**
 * The memoirs of `store` the catch-up looks at, in order: each active account's own, then each open share with chat
 * claimed by an heir, leaving out those whose mark is in `done`.
 */
async function memoirJobs(store: Store, now: Date, done: ReadonlySet<string>): Promise<MemoirJob[]> {
  const jobs: MemoirJob[] = [];
  let seen = 0;
  for (const account of await store.all<AccountRecord>(ACCOUNTS)) {
    if (++seen % SLICE === 0) await turn();
    // A suspended account asks nothing: its memoir waits, unmarked, for it to be active again.
    if (account.status === 'suspended' || done.has(markId(account.id, 'own'))) continue;
    jobs.push({
      accountId: account.id,
      source: 'own',
      read: () => chatTexts(accountStore(store, account.id), account.id, 'owner'),
    });
  }
  for (const grant of await store.all<GrantRecord>(GRANTS)) {
    if (++seen % SLICE === 0) await turn();
    const heir = grant.granteeId;
    if (!heir || !grant.permissions.includes('chat') || grantState(grant, now) !== 'open') continue;
    if (done.has(markId(heir, grant.id))) continue;
    jobs.push({
      accountId: heir,
      source: grant.id,
      read: async () => {
        const opened = await openGrant(store, grant.id, heir, 'chat', now);
        return chatTexts(opened.store, opened.grantorId, 'heir');
      },
    });
  }
  return jobs;
}

/**
 * Embeds, through `ahead`, the passages of every memoir in `store` (the whole store: the system's view) not marked
 * done for `ahead`'s model: each account's own, in that account, and each open share with chat claimed by an heir,
 * as the heir's chat reads it (no private entry), in the heir's account.
 *
 * `failed` (kept by the caller from one catch-up to the next) holds the marks of the memoirs that could not be
 * finished: they are taken last, so that a memoir that fails every time (an input the provider refuses) holds back no
 * other. One that finishes leaves it.
 */
export async function catchUpAhead(
  store: Store,
  ahead: EmbedAhead,
  clock: Clock,
  opts: CatchUpOptions = {},
  failed: Set<string> = new Set(),
): Promise<CatchUpResult> {
  const model = ahead.model;
  const holder = opts.holder ?? `mcu_${randomBytes(8).toString('hex')}`;
  // A large store (100,000 accounts) is read and sorted out in slices, with turns of the event loop between them.
  const done = new Set<string>();
  let seen = 0;
  for (const mark of await store.all<AheadMark>(MEMOIR_AHEAD_MARKS)) {
    if (++seen % SLICE === 0) await turn();
    if (isDone(mark, model)) done.add(mark.id);
  }
  const waiting = await memoirJobs(store, clock.now(), done);
  // Those that could not be finished last, each group in its order (a partition: a sort computed the ids again at each
  // comparison, some 100 ms at once for 100,000 accounts).
  const lastly = (j: MemoirJob) => failed.has(markId(j.accountId, j.source));
  const jobs = failed.size === 0 ? waiting : [...waiting.filter((j) => !lastly(j)), ...waiting.filter(lastly)];
  const result = { caughtUp: 0, skipped: 0, held: 0, left: 0 };
  const ended = (complete: boolean): CatchUpResult => ({
    ...result,
    complete: complete && result.skipped === 0 && result.left === 0,
  });
  for (const { accountId, source, read } of jobs) {
    if (ahead.stopped) return ended(false);
    const id = markId(accountId, source);
    const memoir: HeldMemoir = { view: accountStore(store, accountId), accountId, source, model, holder };
    // A memoir with no text (most accounts) is marked done at once, in one write. One with texts is held, then read
    // again: a text written after that read and left to the question removes the hold.
    let texts: readonly string[];
    let holding = false;
    try {
      texts = await read();
      if (texts.length === 0) {
        if (await takeMemoir(memoir, clock.now(), 'done')) result.caughtUp += 1;
        else result.held += 1;
        continue;
      }
      if (!(await takeMemoir(memoir, clock.now()))) {
        result.held += 1;
        continue;
      }
      holding = true;
      texts = await read();
    } catch {
      result.skipped += 1;
      if (holding) await releaseMemoir(memoir).catch(() => undefined);
      continue;
    }
    const outcome = await embedAll(ahead, memoir, texts, clock, opts);
    if (outcome === 'failed') {
      failed.add(id);
      await releaseMemoir(memoir).catch(() => undefined);
      return ended(false);
    }
    failed.delete(id);
    if (outcome === 'done' && (await finishMemoir(memoir, clock.now()))) result.caughtUp += 1;
    else result.left += 1;
  }
  return ended(true);
}

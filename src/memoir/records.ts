/**
 * Memoir records: every collection belongs to one
 * account (src/accounts/tenancy.ts), so another account's memoir does not exist
 * for a caller. Ids carry a kind prefix and a ULID.
 */
import { ulid } from '../core/ids.js';
import { declareStoredBytes } from '../accounts/quota.js';
import { declareTenantCollection } from '../accounts/tenancy.js';
import type { StoredSpouseReading } from './spouse.js';

/** One per account: the agent's name and the character model. Id: `mprof_<accountId>`. */
export const MEMOIR_PROFILES = 'memoir_profiles';
export const MEMOIR_JOURNAL = 'memoir_journal';
/** One per account and category: the answers given. Id: `mqa_<accountId>_<category>`. */
export const MEMOIR_ANSWERS = 'memoir_answers';
/** The daily prompt chosen per user and day. Id: `mprm_<accountId>_<userKey>_<YYYY-MM-DD>`. */
export const MEMOIR_PROMPTS = 'memoir_prompts';
export const MEMOIR_CHAT = 'memoir_chat';
export const MEMOIR_MEDIA = 'memoir_media';
/** One per account: the counts the character model is computed from (src/memoir/character.ts). Id: `mchr_<accountId>`. */
export const MEMOIR_CHARACTER = 'memoir_character';
/**
 * How many texts hold each phrase, in immutable chunks the counts record lists (src/memoir/phrase-counts.ts). Id:
 * `mphr_<accountId>_<random>`.
 */
export const MEMOIR_PHRASES = 'memoir_phrases';
/**
 * Embeddings of memoir passages and questions, one per model and text, kept in the account of whoever asked (an
 * heir's cache is the heir's). Id: `memb_<accountId>_<hash of model and text>` (src/memoir/embeddings.ts).
 */
export const MEMOIR_EMBEDDINGS = 'memoir_embeddings';
/**
 * Marks of memoirs whose passages were embedded whole by the catch-up (src/memoir/embed-catch-up.ts), per account
 * whose vectors they are: `mahd_<accountId>_own` for the account's own memoir, `mahd_<accountId>_<shareId>` for a
 * memoir shared with it.
 */
export const MEMOIR_AHEAD_MARKS = 'memoir_ahead_marks';

const COLLECTIONS = [
  MEMOIR_PROFILES,
  MEMOIR_JOURNAL,
  MEMOIR_ANSWERS,
  MEMOIR_PROMPTS,
  MEMOIR_CHAT,
  MEMOIR_MEDIA,
  MEMOIR_CHARACTER,
  MEMOIR_PHRASES,
  MEMOIR_EMBEDDINGS,
  MEMOIR_AHEAD_MARKS,
];
for (const c of COLLECTIONS) declareTenantCollection(c);
/** Media files count against the account's storage quota (src/accounts/quota.ts), by the size of each record. */
declareStoredBytes(MEMOIR_MEDIA, 'size');

/**
 * Indexed fields of the memoir collections (src/app.ts STORE_INDEXES): the owner for each, and the chat's user, whose
 * history is paged over its own messages' ids.
 */
export const MEMOIR_INDEXES: Record<string, string[]> = Object.fromEntries(
  COLLECTIONS.map((c) => [c, c === MEMOIR_CHAT ? ['ownerId', 'userKey'] : ['ownerId']]),
);

/** Limits of what one record may hold: a bad input is refused, never truncated silently. */
export const MEMOIR_LIMITS = {
  agentName: 80,
  journalContent: 20_000,
  journalTitle: 200,
  mood: 40,
  promptUsed: 500,
  answer: 5_000,
  answersPerRequest: 50,
  chatMessage: 2_000,
  journalEntriesPerAccount: 10_000,
} as const;

export const memoirId = (prefix: 'jrn' | 'msg' | 'med', nowMs: number) => `${prefix}_${ulid(nowMs)}`;

export interface JournalEntry {
  [field: string]: unknown;
  id: string;
  ownerId: string;
  /** Who wrote it: the user id of a session, or `key:<keyId>`. */
  authorKey: string;
  content: string;
  mood: string | null;
  promptUsed: string | null;
  /** A heading the writer gave the entry (absent or null: none). */
  title?: string | null;
  /**
   * When the memory happened, as precise as the writer knows it: `YYYY-MM-DD`, `YYYY`, or a decade `YYYYs`
   * (absent or null: not said). Read by the book to order and date entries.
   */
  happenedAt?: string | null;
  /**
   * Kept for the owner alone: never shown to heirs, never used in their chat, left out of what heirs list and of
   * the character model they see (absent: false). Read by the book, which leaves it out of an heir's copy.
   */
  private?: boolean;
  /**
   * What the text says of the owner's husband or wife (src/memoir/spouse.ts), read when it was written, with the key
   * of the text it was read from: a chat reads it instead of the text's names (absent, or of another text: read then).
   */
  spouseReading?: StoredSpouseReading;
  createdAt: string;
  /** When the entry was last edited (absent: never). */
  updatedAt?: string;
}

export interface AnswerRecord {
  [field: string]: unknown;
  id: string;
  ownerId: string;
  category: string;
  answers: Record<string, { answer: string; answeredAt: string }>;
  updatedAt: string;
}

export interface PromptRecord {
  [field: string]: unknown;
  id: string;
  ownerId: string;
  userKey: string;
  date: string;
  promptId: string;
  category: string;
  text: string;
}

export interface ChatMessageRecord {
  [field: string]: unknown;
  id: string;
  ownerId: string;
  userKey: string;
  role: 'user' | 'agent';
  content: string;
  citations: string[];
  mode: 'demo' | 'model';
  createdAt: string;
}

export type MediaKind = 'photo' | 'audio' | 'video';

export interface MediaRecord {
  [field: string]: unknown;
  id: string;
  ownerId: string;
  kind: MediaKind;
  mime: string;
  ext: string;
  size: number;
  /** File name inside the account's media directory (never the client's name). */
  file: string;
  originalName: string | null;
  durationMinutes: number | null;
  /** Measured length of audio and video (null for photos, or when it could not be measured). */
  durationSeconds: number | null;
  /** Median pitch of the speech in audio and video (Hz), for the matched voice style; null when none was found. */
  medianPitchHz?: number | null;
  /** Inference results already paid for, by the options that change them (src/memoir/media.ts inferenceKey); they go with the record. */
  inference?: Record<string, unknown>;
  /** The owner's own words for it (absent: none); the book and the heirs' list prefer it to a model's description. */
  caption?: string;
  /** Kept for the owner alone: heirs never list, download or read anything of it, nor reach it through their chat (absent: false). */
  private?: boolean;
  createdAt: string;
  /** When its caption or privacy last changed (absent: never). */
  updatedAt?: string;
}

/** Who a call is, for per-user records (history, prompts). */
export function userKeyOf(principal: { kind: string; userId?: string | undefined; keyId: string }): string {
  return principal.userId ?? `key:${principal.keyId}`;
}

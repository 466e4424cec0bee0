/**
 * A new embed session erases a few of its account's oldest long-expired sessions, and reads no other session: a
 * `?key=` page mints one per visit, and scanning every session of every account at each visit cost the square of
 * their number (and, on PostgreSQL, made every visit's transaction conflict with every other's).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  createEmbedSession,
  EMBED_SESSIONS,
  ERASE_PER_SESSION,
  EXPIRED_KEEP_MS,
  type EmbedSessionRecord,
} from '../../src/embed/store.js';
import type { Store } from '../../src/store/port.js';
import { FakeClock, tmpStore } from '../helpers.js';
import { countReads } from '../support/store-wrap.js';

const A = 'acct_EMBEDAAAAAAAAAAAAAAAAAAAA';
const B = 'acct_EMBEDBBBBBBBBBBBBBBBBBBBB';
const TTL = 900;

let store: Store;
let cleanup: () => Promise<void>;
const clock = new FakeClock(Date.UTC(2026, 5, 1, 12));

beforeAll(async () => {
  ({ store, cleanup } = await tmpStore('svc-embed-prune-'));
});
afterAll(() => cleanup());

const make = (ownerId: string) =>
  createEmbedSession(
    store,
    { ownerId, keyId: `key_${ownerId}`, origin: 'https://partner.example', ttlSeconds: TTL },
    clock,
  );

const sessionsOf = async (ownerId: string) =>
  (await store.findBy<EmbedSessionRecord>(EMBED_SESSIONS, 'ownerId', ownerId)).map((s) => s.id).sort();

it("erases a few of the account's long-expired sessions at each new one, and reads no other", async () => {
  const old: string[] = [];
  for (let i = 0; i < 10; i++) {
    old.push((await make(A)).record.id);
    await make(B);
    clock.advance(1000);
  }
  // Expired, but not yet a day ago: kept, so a page loaded with one can still say why.
  clock.advance(TTL * 1000 + EXPIRED_KEEP_MS - 60_000);
  const recent = (await make(A)).record.id;
  expect(await sessionsOf(A)).toEqual([...old, recent].sort());
  clock.advance(120_000);
  const reads = countReads(store, EMBED_SESSIONS);
  let made: string;
  try {
    made = (await make(A)).record.id;
    // The few oldest, each read again by the account's view as it is erased: not the 30 there are.
    expect(reads.count()).toBeLessThanOrEqual(2 * ERASE_PER_SESSION);
  } finally {
    reads.restore();
  }
  expect(await sessionsOf(A)).toEqual([...old.slice(ERASE_PER_SESSION), recent, made].sort());
  // Another account's sessions, as old, wait for that account's own next session.
  expect(await sessionsOf(B)).toHaveLength(10);
  await make(A);
  await make(A);
  expect((await sessionsOf(A)).filter((id) => old.includes(id))).toEqual([]);
  expect(await sessionsOf(A)).toHaveLength(4);
  await make(B);
  expect(await sessionsOf(B)).toHaveLength(10 - ERASE_PER_SESSION + 1);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountStore } from '../../src/accounts/tenancy.js';
import { buildCharacter } from '../../src/memoir/character.js';
import {
  addJournalEntry,
  deleteJournalEntry,
  listJournal,
  rebuildCharacter,
  updateJournalEntry,
} from '../../src/memoir/memoir.js';
import { characterOf, insights } from '../../src/memoir/views.js';
import { MEMOIR_ANSWERS, MEMOIR_JOURNAL, type AnswerRecord, type JournalEntry } from '../../src/memoir/records.js';
import type { Store } from '../../src/store/port.js';
import type { TestServer } from '../helpers.js';
import { registerUser, sessionHeaders, type TestSession } from '../support/session.js';
import { grant, MEMOIR_ENGINES, openEngineStore, startEngineServer } from './support.js';

// Journal entries that live: edited, deleted, dated to when the memory happened, kept private. The character model
// follows every change; a private entry never reaches an heir (list, insights, character, chat). On both engines.

const DAY = 86_400_000;
const A = 'acct_AAAAAAAAAAAAAAAAAAAAAAAAAA';
const B = 'acct_BBBBBBBBBBBBBBBBBBBBBBBBBB';
const clock = { now: () => new Date('2026-03-01T10:00:00Z') };

const names = (xs: Array<{ name: string }>) => xs.map((x) => x.name);

/** The character model as a full rebuild from the stored records gives it (what the incremental counts must equal). */
async function rebuilt(store: Store, ownerId: string) {
  const [entries, answers] = await Promise.all([
    store.findBy<JournalEntry>(MEMOIR_JOURNAL, 'ownerId', ownerId),
    store.findBy<AnswerRecord>(MEMOIR_ANSWERS, 'ownerId', ownerId),
  ]);
  return buildCharacter(entries, answers, undefined, null);
}

const withoutTime = <T extends { updatedAt: string | null; modelTraits: unknown; modelValues: unknown }>(c: T) => ({
  ...c,
  updatedAt: null,
  modelTraits: [],
  modelValues: [],
});

describe.each(MEMOIR_ENGINES)('journal entries that live (%s)', (engine) => {
  let raw: Awaited<ReturnType<typeof openEngineStore>>;
  let a: Store;
  let b: Store;
  beforeAll(async () => {
    raw = await openEngineStore(engine);
    a = accountStore(raw.store, A);
    b = accountStore(raw.store, B);
  });
  afterAll(async () => raw?.close());

  it('creates with a title, a date of the memory and privacy; a bad date is refused and nothing is stored', async () => {
    const { entry } = await addJournalEntry(
      a,
      A,
      'usr_a',
      { content: 'My sister Jean and I swam in Lake Qarun.', title: 'Egypt', happenedAt: '1978', private: false },
      clock,
    );
    expect(entry).toMatchObject({ title: 'Egypt', happenedAt: '1978', private: false });
    for (const bad of ['1978-02-30', '78', '1975s', '19th century', '2001-13-01']) {
      await expect(addJournalEntry(a, A, 'usr_a', { content: 'x', happenedAt: bad }, clock)).rejects.toMatchObject({
        code: 'VALIDATION_ERROR',
        details: [{ field: 'happenedAt' }],
      });
    }
    for (const good of ['1960s', '1962-06-02', '2011']) {
      const made = await addJournalEntry(a, A, 'usr_a', { content: `Dated ${good}.`, happenedAt: good }, clock);
      expect(made.entry.happenedAt).toBe(good);
      await deleteJournalEntry(a, A, made.entry.id, clock);
    }
    expect((await listJournal(a, A, 1, 50)).items.map((e) => e.id)).toEqual([entry.id]);
  });

  it('an edit changes the entry and the character model follows, equal to a full rebuild', async () => {
    const { entry } = await addJournalEntry(a, A, 'usr_a', { content: 'Frank and I married at St Aidan’s.' }, clock);
    expect(names((await characterOf(a, A, 'json')).character.people)).toContain('Frank');
    const edited = await updateJournalEntry(
      a,
      A,
      entry.id,
      { content: 'Arthur taught me to dance in Whitby.', title: 'Dancing', happenedAt: '1950s', mood: 'Happy' },
      clock,
    );
    expect(edited.entry).toMatchObject({
      content: 'Arthur taught me to dance in Whitby.',
      title: 'Dancing',
      happenedAt: '1950s',
      mood: 'happy',
      updatedAt: clock.now().toISOString(),
    });
    const after = (await characterOf(a, A, 'json')).character;
    expect(names(after.people)).toContain('Arthur');
    expect(names(after.people)).not.toContain('Frank');
    expect(names(after.places)).toContain('Whitby');
    expect(withoutTime(after)).toEqual(withoutTime(await rebuilt(a, A)));
    // null clears the date and the title; an empty change is refused.
    const cleared = await updateJournalEntry(a, A, entry.id, { happenedAt: null, title: null }, clock);
    expect(cleared.entry).toMatchObject({ happenedAt: null, title: null });
    await expect(updateJournalEntry(a, A, entry.id, {}, clock)).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    await expect(updateJournalEntry(a, A, entry.id, { content: '   ' }, clock)).rejects.toMatchObject({
      details: [{ field: 'content' }],
    });
    await expect(updateJournalEntry(a, A, entry.id, { happenedAt: 'soon' }, clock)).rejects.toMatchObject({
      details: [{ field: 'happenedAt' }],
    });
    expect((await a.get<JournalEntry>(MEMOIR_JOURNAL, entry.id))!.content).toBe('Arthur taught me to dance in Whitby.');
  });

  it('private entries stay out of the character model and of what heirs read; the owner still lists them', async () => {
    const { entry } = await addJournalEntry(
      a,
      A,
      'usr_a',
      { content: 'My cousin Brian borrowed money from me in Bradford and never paid it back.', private: true },
      clock,
    );
    const character = (await characterOf(a, A, 'json')).character;
    expect(names(character.people)).not.toContain('Brian');
    expect(names(character.places)).not.toContain('Bradford');
    expect(withoutTime(character)).toEqual(withoutTime(await rebuilt(a, A)));
    expect((await listJournal(a, A, 1, 50)).items.find((e) => e.id === entry.id)).toMatchObject({ private: true });
    expect((await listJournal(a, A, 1, 50, 'heir')).items.map((e) => e.id)).not.toContain(entry.id);
    expect(names((await insights(a, A, 'heir')).people)).not.toContain('Brian');
    expect(names((await insights(a, A, 'owner')).people)).toContain('Brian');
    // Made public, it counts; private again, it does not.
    await updateJournalEntry(a, A, entry.id, { private: false }, clock);
    expect(names((await characterOf(a, A, 'json')).character.people)).toContain('Brian');
    await updateJournalEntry(a, A, entry.id, { private: true }, clock);
    const hidden = (await characterOf(a, A, 'json')).character;
    expect(names(hidden.people)).not.toContain('Brian');
    expect(withoutTime(hidden)).toEqual(withoutTime(await rebuilt(a, A)));
  });

  it('a delete removes the entry and its counts; another account gets 404 and changes nothing', async () => {
    const { entry } = await addJournalEntry(a, A, 'usr_a', { content: 'Mrs Dunn minded the children.' }, clock);
    await expect(updateJournalEntry(b, B, entry.id, { content: 'taken over' }, clock)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(deleteJournalEntry(b, B, entry.id, clock)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await a.get<JournalEntry>(MEMOIR_JOURNAL, entry.id))!.content).toBe('Mrs Dunn minded the children.');
    expect(names((await characterOf(a, A, 'json')).character.people)).toContain('Mrs Dunn');
    expect(await deleteJournalEntry(a, A, entry.id, clock)).toMatchObject({ id: entry.id, deleted: true });
    expect(await a.get(MEMOIR_JOURNAL, entry.id)).toBeUndefined();
    const after = (await characterOf(a, A, 'json')).character;
    expect(names(after.people)).not.toContain('Mrs Dunn');
    expect(withoutTime(after)).toEqual(withoutTime(await rebuilt(a, A)));
    await expect(deleteJournalEntry(a, A, entry.id, clock)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    // The stored counts and a rebuild from scratch agree.
    expect(withoutTime(await rebuildCharacter(a, A, clock))).toEqual(withoutTime(after));
  });
});

describe.each(MEMOIR_ENGINES)("an heir's view of a memoir with private and edited entries (%s)", (engine) => {
  let offset = 0;
  const serverClock = { now: () => new Date(Date.now() + offset) };
  let server: TestServer;
  let owner: TestSession;
  let heir: TestSession;
  let shareId: string;
  let publicId: string;
  let privateId: string;

  async function call(session: TestSession, method: string, url: string, payload?: unknown) {
    const res = await server.app.inject({
      method: method as 'GET',
      url,
      headers: sessionHeaders(session),
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  }

  beforeAll(async () => {
    const sessions = { ttlSeconds: 60 * 24 * 3600, maxSeconds: 90 * 24 * 3600 };
    server = await startEngineServer(engine, { clock: serverClock, config: { sessions } });
    owner = await registerUser(server.app, { name: 'Peggy' });
    heir = await registerUser(server.app);
    await grant(server, heir.accountId, 20);
    await grant(server, owner.accountId, 20);
    await call(owner, 'POST', '/api/v1/svcloom/setup', { agentName: 'Grandma Peggy' });
    const pub = await call(owner, 'POST', '/api/v1/svcloom/journal', {
      content: 'My mother baked bread every Sunday in our kitchen in Leeds.',
      happenedAt: '1940s',
    });
    publicId = pub.body.data.entry.id;
    const priv = await call(owner, 'POST', '/api/v1/svcloom/journal', {
      content: 'The allotment shed hides the savings tin under the third floorboard.',
      private: true,
    });
    expect(priv.status).toBe(201);
    expect(priv.body.data.entry).toMatchObject({ private: true, happenedAt: null });
    privateId = priv.body.data.entry.id;
    const linked = await call(owner, 'POST', '/api/v1/svcloom/heirs/plans', {
      plan: {
        blockchain: 'evm',
        ownerAddress: `0x${'1'.repeat(40)}`,
        beneficiaries: [{ name: 'Susan', address: `0x${'2'.repeat(40)}`, percentage: 100, relationship: 'daughter' }],
        deadMansSwitch: { enabled: true, intervalDays: 180 },
      },
      heirAccess: { enabled: true, openAfterDays: 7, accessDays: 30 },
    });
    expect(linked.status).toBe(201);
    const code = linked.body.data.codes[0];
    shareId = code.shareId;
    expect((await call(heir, 'POST', '/api/v1/svcloom/shared/claim', { code: code.code })).status).toBe(200);
    const planId = linked.body.data.plan.id;
    await call(owner, 'POST', `/api/v1/svcloom/heirs/plans/${planId}/events`, { type: 'deadman.triggered' });
    offset = 7 * DAY + 60_000;
  });
  afterAll(async () => server?.close());

  it('the owner edits and deletes over REST; the private entry is theirs alone', async () => {
    const edited = await call(owner, 'PATCH', `/api/v1/svcloom/journal/${publicId}`, {
      content: 'My mother baked bread every Sunday in our kitchen in Leeds, and the whole street smelled of it.',
      title: 'Sunday bread',
    });
    expect(edited.status).toBe(200);
    expect(edited.body.data.entry).toMatchObject({ title: 'Sunday bread', happenedAt: '1940s', private: false });
    const bad = await call(owner, 'PATCH', `/api/v1/svcloom/journal/${publicId}`, { happenedAt: '1940-02-31' });
    expect({ status: bad.status, field: bad.body.error.details[0].field }).toEqual({
      status: 400,
      field: 'happenedAt',
    });
    expect((await call(heir, 'PATCH', `/api/v1/svcloom/journal/${publicId}`, { title: 'mine' })).status).toBe(404);
    expect((await call(heir, 'DELETE', `/api/v1/svcloom/journal/${publicId}`)).status).toBe(404);
    const own = await call(owner, 'GET', '/api/v1/svcloom/journal');
    expect(own.body.data.map((e: { id: string }) => e.id).sort()).toEqual([publicId, privateId].sort());
  });

  it('an heir lists, counts and chats without the private entry, and sees an edit and a delete at once', async () => {
    const listed = await call(heir, 'GET', `/api/v1/svcloom/shared/${shareId}/journal`);
    expect(listed.status).toBe(200);
    expect(listed.body.data.map((e: { id: string; title: string }) => [e.id, e.title])).toEqual([
      [publicId, 'Sunday bread'],
    ]);
    const memoir = await call(heir, 'GET', `/api/v1/svcloom/shared/${shareId}`);
    expect(memoir.body.data).toMatchObject({ journalEntries: 1, character: { sources: { journalEntries: 1 } } });
    const insightsRes = await call(heir, 'GET', `/api/v1/svcloom/shared/${shareId}/insights`);
    expect(insightsRes.body.data.totals.journalEntries).toBe(1);
    expect(JSON.stringify(insightsRes.body.data)).not.toMatch(/allotment|savings/i);

    // The owner's own chat finds the private entry; the heir's never does.
    const mine = await call(owner, 'POST', '/api/v1/svcloom/chat', { message: 'Where is the savings tin?' });
    expect(mine.body.data.citations.map((c: { id: string }) => c.id)).toContain(privateId);
    const asked = await call(heir, 'POST', `/api/v1/svcloom/shared/${shareId}/chat`, {
      message: 'Where is the savings tin?',
    });
    expect(asked.status).toBe(200);
    expect(asked.body.data).toMatchObject({ grounded: false, citations: [] });
    expect(asked.body.data.reply.content).not.toMatch(/floorboard|allotment/i);
    const bread = await call(heir, 'POST', `/api/v1/svcloom/shared/${shareId}/chat`, {
      message: 'Who baked the bread on Sundays?',
    });
    expect(bread.body.data.citations.map((c: { id: string }) => c.id)).toEqual([publicId]);
    expect(bread.body.data.reply.content).toMatch(/whole street smelled/);

    // Deleted by the owner: gone for the heir too, list and chat.
    expect((await call(owner, 'DELETE', `/api/v1/svcloom/journal/${publicId}`)).body.data).toMatchObject({
      id: publicId,
      deleted: true,
    });
    expect((await call(heir, 'GET', `/api/v1/svcloom/shared/${shareId}/journal`)).body.data).toEqual([]);
    const gone = await call(heir, 'POST', `/api/v1/svcloom/shared/${shareId}/chat`, {
      message: 'Who baked the bread on Sundays?',
    });
    expect(gone.body.data.grounded).toBe(false);
  });
});

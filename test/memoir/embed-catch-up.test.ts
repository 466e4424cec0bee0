import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { GRANTS } from '../../src/accounts/grants.js';
import { ACCOUNTS, type AccountRecord } from '../../src/accounts/records.js';
import { accountStore } from '../../src/accounts/tenancy.js';
import { catchUpMemoirs, startDispatcher } from '../../src/app.js';
import { createLogger } from '../../src/core/log.js';
import { EmbedAhead } from '../../src/memoir/embed-ahead.js';
import { catchUpAhead } from '../../src/memoir/embed-catch-up.js';
import { type AheadMark, CATCH_UP_HOLD_MS, forgetCaughtUp, markId } from '../../src/memoir/embed-marks.js';
import { type EmbeddingRecord, sizeVectorCache, VECTOR_CACHE_BYTES } from '../../src/memoir/embeddings.js';
import { completeDueVerifications } from '../../src/memoir/heirs.js';
import { addJournalEntry } from '../../src/memoir/memoir.js';
import { MEMOIR_AHEAD_MARKS, MEMOIR_EMBEDDINGS, MEMOIR_JOURNAL } from '../../src/memoir/records.js';
import { PASSAGES_VERSION, passageTexts } from '../../src/memoir/retrieval.js';
import { type TestServer, startTestServer } from '../helpers.js';
import { type OpenAiStandin, startOpenAiStandin } from '../support/openai-standin.js';
import { registerUser, sessionHeaders, signIn, type TestSession } from '../support/session.js';
import { until } from '../support/loop.js';
import { countReads, overriding } from '../support/store-wrap.js';
import { fireSwitch, grant, linkChatPlan, MEMOIR_ENGINES, startEngineServer } from './support.js';

// Memoirs written before the service embedded ahead, and shares that opened after their heir claimed them, have their
// passages embedded by a catch-up in the background, once per memoir and model (src/memoir/embed-catch-up.ts).

const LAKE =
  'Every summer we drove to the lake at Annecy with the children. We swam until dark and ate cherries on the jetty. ' +
  'Your grandfather rowed us out to the island once. The water was colder than he had promised.';
const SHOP = 'My father kept a bicycle shop on Rue Carnot. He mended punctures for a franc and told stories all day.';
const SECRET = 'Nobody knows I sold the shop at a loss.';
const ANSWER = 'I grew up above the shop, in two rooms that smelt of rubber and oil.';
const DAY = 86_400_000;
const llmOf = (standin: OpenAiStandin, embeddingModel = 'standin-embed') => ({
  baseUrl: standin.baseUrl,
  apiKey: 'sk-standin',
  model: 'standin-1',
  embeddingModel,
});

describe.each(MEMOIR_ENGINES)('the catch-up of memoirs never embedded ahead (%s)', (engine) => {
  let offset = 0;
  const clock = { now: () => new Date(Date.parse('2026-06-01T09:00:00Z') + offset) };
  let standin: OpenAiStandin;
  let server: TestServer;
  let owner: TestSession;
  let heir: TestSession;
  let shareId = '';
  /** An account registered after the share opened (the clock moved past the first sessions' lifetime). */
  let late: TestSession;
  const silent = createLogger('silent');
  const post = (who: TestSession, url: string, payload: object) =>
    server.app.inject({ method: 'POST', url, headers: sessionHeaders(who, { csrf: true }), payload });
  const sent = (from: number) => standin.embeddingRequests.slice(from).flatMap((r) => r.input);
  const vectorsOf = (account: string) =>
    server.services.store.findBy<EmbeddingRecord>(MEMOIR_EMBEDDINGS, 'ownerId', account);
  const marksOf = (account: string) => server.services.store.findBy<AheadMark>(MEMOIR_AHEAD_MARKS, 'ownerId', account);

  beforeAll(async () => {
    standin = await startOpenAiStandin();
    standin.answerWith(() => '{"traits": [], "values": []}');
    // The memoir is written by a service that does not embed ahead (as before this version): nothing is embedded.
    server = await startEngineServer(engine, { clock, config: { llm: llmOf(standin), memoirEmbedAhead: false } });
    owner = await registerUser(server.app, { name: 'Rose' });
    for (const [content, isPrivate] of [
      [LAKE, false],
      [SHOP, false],
      [SECRET, true],
    ] as const)
      expect((await post(owner, '/api/v1/svcloom/journal', { content, private: isPrivate })).statusCode).toBe(201);
    const answered = await post(owner, '/api/v1/svcloom/questionnaire/childhood', {
      answers: [{ questionId: 'childhood.home', answer: ANSWER }],
    });
    expect(answered.statusCode, answered.body).toBe(200);
    // A share claimed while pending, which opens later with time: nothing is written when it opens.
    const linked = await linkChatPlan(server, owner);
    shareId = linked.shareId;
    heir = await registerUser(server.app);
    await grant(server, heir.accountId, 5);
    await grant(server, owner.accountId, 5);
    const claimed = await post(heir, '/api/v1/svcloom/shared/claim', { code: linked.code });
    expect(claimed.statusCode, claimed.body).toBe(200);
    await fireSwitch(server, owner.accountId, linked.planId);
    offset = 8 * DAY;
    await completeDueVerifications(server.services.store, clock);
    expect(standin.embeddingRequests).toEqual([]);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await standin?.close();
  });

  it("embeds each memoir in its account, the shared one as the heir's chat reads it, and marks them done", async () => {
    const ahead = new EmbedAhead(llmOf(standin), silent, { batch: 4 });
    const result = await catchUpAhead(server.services.store, ahead, clock);
    expect(result.complete).toBe(true);
    const mine = [...passageTexts(LAKE), ...passageTexts(SHOP), SECRET, ANSWER];
    const shared = [...passageTexts(LAKE), ...passageTexts(SHOP), ANSWER];
    expect(sent(0).sort()).toEqual([...mine, ...shared].sort());
    expect(standin.embeddingRequests.every((r) => r.input.length <= 4)).toBe(true);
    expect(await vectorsOf(owner.accountId)).toHaveLength(mine.length);
    // The heir's vectors: never the private entry's.
    expect(await vectorsOf(heir.accountId)).toHaveLength(shared.length);
    expect((await marksOf(owner.accountId)).map((m) => m.source)).toEqual(['own']);
    expect((await marksOf(heir.accountId)).map((m) => m.source).sort()).toEqual(['own', shareId].sort());
    // Every account is marked, those with no memoir too (the heir's own, the operator's...), each once.
    expect(result.caughtUp).toBe((await server.services.store.all(MEMOIR_AHEAD_MARKS)).length);

    // The owner's and the heir's first questions send the question alone (signed in again: the clock moved past
    // their first sessions).
    owner = await signIn(server.app, owner.email, owner.password);
    heir = await signIn(server.app, heir.email, heir.password);
    standin.answerWith(() => 'We swam in the lake at Annecy.');
    const asked = standin.embeddingRequests.length;
    expect((await post(owner, '/api/v1/svcloom/chat', { message: 'Where did you swim?' })).statusCode).toBe(200);
    const theirs = await post(heir, `/api/v1/svcloom/shared/${shareId}/chat`, { message: 'Where did you swim?' });
    expect(theirs.statusCode, theirs.body).toBe(200);
    expect(theirs.json().data.grounded).toBe(true);
    expect(standin.embeddingRequests.slice(asked).map((r) => r.input)).toEqual([
      ['Where did you swim?'],
      ['Where did you swim?'],
    ]);
  });

  it('passes marked memoirs by without reading their texts, until the model or the passages change', async () => {
    const asked = standin.embeddingRequests.length;
    const reads = countReads(server.services.store, MEMOIR_JOURNAL);
    try {
      const again = await catchUpAhead(server.services.store, new EmbedAhead(llmOf(standin), silent), clock);
      expect(again).toEqual({ caughtUp: 0, skipped: 0, held: 0, left: 0, complete: true });
      expect(reads.count()).toBe(0);
    } finally {
      reads.restore();
    }
    expect(standin.embeddingRequests.length).toBe(asked);
    // Another embedding model: its vectors are other vectors, made again.
    const other = await catchUpAhead(
      server.services.store,
      new EmbedAhead(llmOf(standin, 'standin-embed-2'), silent),
      clock,
    );
    expect(other.complete).toBe(true);
    expect(standin.embeddingRequests.slice(asked).every((r) => r.model === 'standin-embed-2')).toBe(true);
    expect(sent(asked)).toContain(SECRET);
    expect((await marksOf(owner.accountId)).map((m) => m.model)).toEqual(['standin-embed-2']);
    // And back: every memoir is read again, and nothing is sent (its vectors for this model are stored).
    const back = standin.embeddingRequests.length;
    const restored = await catchUpAhead(server.services.store, new EmbedAhead(llmOf(standin), silent), clock);
    expect(restored).toEqual({ caughtUp: other.caughtUp, skipped: 0, held: 0, left: 0, complete: true });
    expect(standin.embeddingRequests.length).toBe(back);
    // A mark made when texts were cut into other passages (one made before the version was kept has none) does not
    // count either: that memoir is read again, its passages as cut now looked for, and it is marked with the version.
    const [mark] = await marksOf(owner.accountId);
    const { passages, ...older } = mark!;
    expect(passages).toBe(PASSAGES_VERSION);
    await server.services.store.put(MEMOIR_AHEAD_MARKS, older);
    const reread = countReads(server.services.store, MEMOIR_JOURNAL);
    try {
      const recut = await catchUpAhead(server.services.store, new EmbedAhead(llmOf(standin), silent), clock);
      expect(recut).toEqual({ caughtUp: 1, skipped: 0, held: 0, left: 0, complete: true });
      expect(reread.count()).toBeGreaterThan(0);
    } finally {
      reread.restore();
    }
    expect(standin.embeddingRequests.length).toBe(back);
    expect((await marksOf(owner.accountId)).map((m) => m.passages)).toEqual([PASSAGES_VERSION]);
  });

  it('stops at a memoir it could not finish, and the next catch-up goes on from there', async () => {
    late = await registerUser(server.app);
    const text = 'We kept bees behind the house. The honey tasted of lavender.';
    expect((await post(late, '/api/v1/svcloom/journal', { content: text })).statusCode).toBe(201);
    // A refusal (langchain tries a 5xx again after a second, not a 4xx).
    standin.failNext(400, 1);
    const ahead = new EmbedAhead(llmOf(standin), silent);
    // The removal of the account's marks that the failure starts is slow: the catch-up answers once it is done, so
    // that it cannot remove the hold the next catch-up takes.
    const raw = server.services.store;
    const slow = overriding(raw, {
      findBy: async (collection: string, field: string, value: string) => {
        if (collection === MEMOIR_AHEAD_MARKS) await new Promise((resolve) => setTimeout(resolve, 300));
        return raw.findBy(collection, field, value);
      },
    });
    const stopped = await catchUpAhead(slow, ahead, clock);
    expect(stopped.complete).toBe(false);
    expect(await marksOf(late.accountId)).toEqual([]);
    // The embedding that failed pauses for a minute; a catch-up with another goes on at once.
    const asked = standin.embeddingRequests.length;
    const resumed = await catchUpAhead(server.services.store, new EmbedAhead(llmOf(standin), silent), clock);
    expect(resumed).toEqual({ caughtUp: 1, skipped: 0, held: 0, left: 0, complete: true });
    expect(sent(asked)).toEqual(passageTexts(text));
    expect((await marksOf(late.accountId)).map((m) => m.source)).toEqual(['own']);
  });

  it("a text of an account left to the question removes the account's marks, and the next catch-up embeds it", async () => {
    const ahead = new EmbedAhead(llmOf(standin), silent);
    const text = 'The hives were painted blue, and my mother named every queen.';
    // Written and stored by a service embedding ahead (this test's service does not: it would remove the marks at
    // once), then its embedding fails: left to the question.
    await addJournalEntry(
      accountStore(server.services.store, late.accountId),
      late.accountId,
      'test',
      { content: text },
      clock,
    );
    expect(await marksOf(late.accountId)).toHaveLength(1);
    standin.failNext(400, 1);
    ahead.note(accountStore(server.services.store, late.accountId), late.accountId, [text], () => clock.now());
    await ahead.idle();
    expect(await marksOf(late.accountId)).toEqual([]);
    const asked = standin.embeddingRequests.length;
    const next = await catchUpAhead(server.services.store, new EmbedAhead(llmOf(standin), silent), clock);
    expect(next).toEqual({ caughtUp: 1, skipped: 0, held: 0, left: 0, complete: true });
    // Only what was missing: the rest of the memoir is read back from the store.
    expect(sent(asked)).toEqual(passageTexts(text));
  });

  it('takes a memoir it could not finish last next time: one that always fails holds back no other', async () => {
    // The provider refuses this memoir's passage every time (past what it takes); the next account's is short.
    const refused = await registerUser(server.app);
    const long = 'The orchard behind the school had seven pear trees and a well that nobody was allowed to open.';
    expect((await post(refused, '/api/v1/svcloom/journal', { content: long })).statusCode).toBe(201);
    const next = await registerUser(server.app);
    expect((await post(next, '/api/v1/svcloom/journal', { content: 'Pears in May.' })).statusCode).toBe(201);
    standin.refuseInputsOver(long.length - 1);
    try {
      const failed = new Set<string>();
      const first = await catchUpAhead(
        server.services.store,
        new EmbedAhead(llmOf(standin), silent),
        clock,
        {},
        failed,
      );
      expect(first).toEqual({ caughtUp: 0, skipped: 0, held: 0, left: 0, complete: false });
      expect(await marksOf(next.accountId)).toEqual([]);
      // The next catch-up takes the other memoirs first, then fails at that one again.
      const second = await catchUpAhead(
        server.services.store,
        new EmbedAhead(llmOf(standin), silent),
        clock,
        {},
        failed,
      );
      expect(second).toEqual({ caughtUp: 1, skipped: 0, held: 0, left: 0, complete: false });
      expect((await marksOf(next.accountId)).map((m) => m.source)).toEqual(['own']);
      expect(await marksOf(refused.accountId)).toEqual([]);
      // Once the provider takes it, it is caught up and leaves the list.
      standin.refuseInputsOver(Number.POSITIVE_INFINITY);
      const third = await catchUpAhead(
        server.services.store,
        new EmbedAhead(llmOf(standin), silent),
        clock,
        {},
        failed,
      );
      expect(third).toEqual({ caughtUp: 1, skipped: 0, held: 0, left: 0, complete: true });
      expect(failed.size).toBe(0);
    } finally {
      standin.refuseInputsOver(Number.POSITIVE_INFINITY);
    }
  });

  it('passes over a memoir it could not read, and reads it at the next catch-up', async () => {
    const unread = await registerUser(server.app);
    const text = 'My brother Paul built a boat in the garage and never sailed it.';
    expect((await post(unread, '/api/v1/svcloom/journal', { content: text })).statusCode).toBe(201);
    const raw = server.services.store;
    let failing = true;
    const broken = overriding(raw, {
      findBy: (collection: string, field: string, value: string) => {
        if (failing && collection === MEMOIR_JOURNAL && value === unread.accountId)
          return Promise.reject(new Error('read failed'));
        return raw.findBy(collection, field, value);
      },
    });
    const asked = standin.embeddingRequests.length;
    // The accounts after it are still caught up.
    const after = await registerUser(server.app);
    expect((await post(after, '/api/v1/svcloom/journal', { content: SHOP })).statusCode).toBe(201);
    const first = await catchUpAhead(broken, new EmbedAhead(llmOf(standin), silent), clock);
    expect(first).toEqual({ caughtUp: 1, skipped: 1, held: 0, left: 0, complete: false });
    expect(sent(asked)).toEqual(passageTexts(SHOP));
    expect(await marksOf(unread.accountId)).toEqual([]);
    failing = false;
    const next = await catchUpAhead(broken, new EmbedAhead(llmOf(standin), silent), clock);
    expect(next).toEqual({ caughtUp: 1, skipped: 0, held: 0, left: 0, complete: true });
    expect(sent(asked)).toEqual([...passageTexts(SHOP), text]);
  });

  it('leaves a suspended account for when it is active again', async () => {
    const paused = await registerUser(server.app);
    const text = 'The tram to the harbour ran every twenty minutes.';
    expect((await post(paused, '/api/v1/svcloom/journal', { content: text })).statusCode).toBe(201);
    const account = await server.services.store.get<AccountRecord>(ACCOUNTS, paused.accountId);
    await server.services.store.put(ACCOUNTS, { ...account!, status: 'suspended' });
    const asked = standin.embeddingRequests.length;
    const skipped = await catchUpAhead(server.services.store, new EmbedAhead(llmOf(standin), silent), clock);
    expect(skipped).toEqual({ caughtUp: 0, skipped: 0, held: 0, left: 0, complete: true });
    expect(standin.embeddingRequests.length).toBe(asked);
    expect(await marksOf(paused.accountId)).toEqual([]);
    await server.services.store.put(ACCOUNTS, { ...account!, status: 'active' });
    const resumed = await catchUpAhead(server.services.store, new EmbedAhead(llmOf(standin), silent), clock);
    expect(resumed).toEqual({ caughtUp: 1, skipped: 0, held: 0, left: 0, complete: true });
    expect(sent(asked)).toEqual([text]);
  });

  it("keeps no vector of the memoirs it goes through in memory; a write's run keeps its own", async () => {
    const reader = await registerUser(server.app);
    await grant(server, reader.accountId, 5);
    const text = 'We planted a walnut tree the year you were born. It is taller than the house now.';
    expect((await post(reader, '/api/v1/svcloom/journal', { content: text })).statusCode).toBe(201);
    // Nothing kept in memory: as after a start.
    sizeVectorCache(VECTOR_CACHE_BYTES);
    expect(await catchUpAhead(server.services.store, new EmbedAhead(llmOf(standin), silent), clock)).toEqual({
      caughtUp: 1,
      skipped: 0,
      held: 0,
      left: 0,
      complete: true,
    });
    const ask = async (message: string) => {
      const reads = countReads(server.services.store, MEMOIR_EMBEDDINGS);
      try {
        const res = await post(reader, '/api/v1/svcloom/chat', { message });
        expect(res.statusCode, res.body).toBe(200);
        return reads.count();
      } finally {
        reads.restore();
      }
    };
    // The catch-up's vectors are read from the store by the question.
    expect(await ask('What did we plant?')).toBe(passageTexts(text).length);
    // A write's are kept: the next question reads none.
    const more = 'Your father climbed it every summer. He fell once and laughed.';
    expect((await post(reader, '/api/v1/svcloom/journal', { content: more })).statusCode).toBe(201);
    const ahead = new EmbedAhead(llmOf(standin), silent);
    ahead.note(accountStore(server.services.store, reader.accountId), reader.accountId, [more], () => clock.now());
    await ahead.idle();
    expect(await ask('Who climbed the walnut tree?')).toBe(0);
  });

  it('goes through a memoir larger than the background bounds in parts', async () => {
    // What the tests before wrote through this service (which removes the writer's marks) caught up first.
    expect((await catchUpAhead(server.services.store, new EmbedAhead(llmOf(standin), silent), clock)).complete).toBe(
      true,
    );
    const big = await registerUser(server.app);
    const entries = Array.from({ length: 8 }, (_, i) => `Letter number ${i} from the long winter in the mountains.`);
    for (const content of entries)
      expect((await post(big, '/api/v1/svcloom/journal', { content })).statusCode).toBe(201);
    const asked = standin.embeddingRequests.length;
    // Three texts waiting at most: the memoir's eight go in parts of three.
    const ahead = new EmbedAhead(llmOf(standin), silent, { maxTexts: 3 });
    const result = await catchUpAhead(server.services.store, ahead, clock, { partTexts: 3 });
    expect(result).toEqual({ caughtUp: 1, skipped: 0, held: 0, left: 0, complete: true });
    expect(ahead.left).toBe(0);
    expect(sent(asked).sort()).toEqual([...entries].sort());
    expect(await vectorsOf(big.accountId)).toHaveLength(entries.length);
  });

  it('run by two instances at once, sends each passage to the provider once and marks each memoir once', async () => {
    // Another model: every memoir is to be caught up again, by two catch-ups sharing the store, as two instances do.
    const model = 'standin-embed-twice';
    const asked = standin.embeddingRequests.length;
    const [a, b] = await Promise.all([
      catchUpAhead(server.services.store, new EmbedAhead(llmOf(standin, model), silent, { batch: 2 }), clock),
      catchUpAhead(server.services.store, new EmbedAhead(llmOf(standin, model), silent, { batch: 2 }), clock),
    ]);
    const marks = (await server.services.store.all<AheadMark>(MEMOIR_AHEAD_MARKS)).filter((m) => m.model === model);
    expect(a.caughtUp + b.caughtUp).toBe(marks.length);
    expect(a.held + b.held).toBe(marks.length);
    expect(marks.every((m) => m.holder === undefined && m.until === undefined)).toBe(true);
    // Every account's own memoir and the heir's share, each once.
    const jobs = (await server.services.store.all(ACCOUNTS)).length + 1;
    expect(marks.length).toBe(jobs);
    const inputs = standin.embeddingRequests.slice(asked).flatMap((r) => r.input);
    const vectors = (await server.services.store.all<EmbeddingRecord>(MEMOIR_EMBEDDINGS)).filter(
      (r) => r.model === model,
    );
    expect(inputs.length).toBe(vectors.length);
  });

  it('a text left to the question while a memoir is caught up keeps it from being marked done', async () => {
    const model = 'standin-embed-left';
    const hold = standin.holdEmbeddings();
    let result: Awaited<ReturnType<typeof catchUpAhead>> | undefined;
    // A text a part: the hold is renewed before each part after the first.
    const running = catchUpAhead(server.services.store, new EmbedAhead(llmOf(standin, model), silent), clock, {
      partTexts: 1,
    }).then((r) => (result = r));
    try {
      // The owner's memoir is the first with passages: held while its request is under way.
      await until(() => hold.inFlight() > 0);
      const held = await marksOf(owner.accountId);
      expect(held.filter((m) => m.model === model).map((m) => m.holder !== undefined)).toEqual([true]);
      // A write of the owner's left to the question meanwhile (the provider failing) removes the account's marks.
      await forgetCaughtUp(accountStore(server.services.store, owner.accountId), owner.accountId);
    } finally {
      hold.release();
    }
    await running;
    expect(result!.left).toBe(1);
    expect(result!.complete).toBe(false);
    expect((await marksOf(owner.accountId)).filter((m) => m.model === model)).toEqual([]);
    // It went no further in that memoir than the part under way (the next catch-up embeds the rest).
    const whole = passageTexts(LAKE).length + passageTexts(SHOP).length + 2;
    const embedded = (await vectorsOf(owner.accountId)).filter((r) => r.model === model).length;
    expect(embedded).toBeGreaterThan(0);
    expect(embedded).toBeLessThan(whole);
    // The next catch-up takes it again, and marks it.
    const next = await catchUpAhead(server.services.store, new EmbedAhead(llmOf(standin, model), silent), clock);
    expect(next).toEqual({ caughtUp: 1, skipped: 0, held: 0, left: 0, complete: true });
    expect((await marksOf(owner.accountId)).filter((m) => m.model === model).map((m) => m.holder)).toEqual([undefined]);
  });

  it('leaves a memoir another instance holds to it, and takes it once that hold has not been renewed for ten minutes', async () => {
    const model = 'standin-embed-gone';
    const id = markId(owner.accountId, 'own');
    // An instance that stopped while it held the owner's memoir.
    const gone: AheadMark = {
      id,
      ownerId: owner.accountId,
      source: 'own',
      model,
      at: clock.now().toISOString(),
      holder: 'mcu_gone',
      until: clock.now().getTime() + CATCH_UP_HOLD_MS,
    };
    await accountStore(server.services.store, owner.accountId).put(MEMOIR_AHEAD_MARKS, gone);
    const asked = standin.embeddingRequests.length;
    const first = await catchUpAhead(server.services.store, new EmbedAhead(llmOf(standin, model), silent), clock);
    const ownersVectors = async () => (await vectorsOf(owner.accountId)).filter((r) => r.model === model).length;
    expect(first.held).toBe(1);
    expect(await ownersVectors()).toBe(0);
    expect(sent(asked).length).toBeGreaterThan(0);
    expect(await server.services.store.get(MEMOIR_AHEAD_MARKS, id)).toEqual(gone);
    offset += CATCH_UP_HOLD_MS + 1;
    const after = await catchUpAhead(server.services.store, new EmbedAhead(llmOf(standin, model), silent), clock);
    expect(after).toEqual({ caughtUp: 1, skipped: 0, held: 0, left: 0, complete: true });
    expect(await ownersVectors()).toBe(passageTexts(LAKE).length + passageTexts(SHOP).length + 2);
    expect((await server.services.store.get<AheadMark>(MEMOIR_AHEAD_MARKS, id))?.holder).toBeUndefined();
  });
});

describe('the service', () => {
  it("runs it a minute after the dispatcher starts, and after a round that opened an heir's share", async () => {
    // The sweep's minutes, moved by hand (every other timer is real).
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let offset = 0;
    const clock = { now: () => new Date(Date.parse('2026-06-01T09:00:00Z') + offset) };
    const standin = await startOpenAiStandin();
    standin.answerWith(() => '{"traits": [], "values": []}');
    const server = await startTestServer({ clock, config: { llm: llmOf(standin) } });
    let dispatcher: { stop(): Promise<void> } | undefined;
    try {
      const ahead = server.services.memoirAhead!;
      expect(ahead).toBeDefined();
      const owner = await registerUser(server.app, { name: 'Rose' });
      const post = (who: TestSession, url: string, payload: object) =>
        server.app.inject({ method: 'POST', url, headers: sessionHeaders(who, { csrf: true }), payload });
      // Written as before this version: nothing noted.
      server.services.memoirAhead = undefined;
      expect((await post(owner, '/api/v1/svcloom/journal', { content: LAKE })).statusCode).toBe(201);
      server.services.memoirAhead = ahead;
      const linked = await linkChatPlan(server, owner);
      const heir = await registerUser(server.app);
      const claimed = await post(heir, '/api/v1/svcloom/shared/claim', { code: linked.code });
      expect(claimed.statusCode, claimed.body).toBe(200);
      await ahead.idle();
      expect(standin.embeddingRequests).toEqual([]);

      dispatcher = startDispatcher(server.services);
      vi.advanceTimersByTime(60_000);
      await vi.waitFor(() => expect(standin.embeddingRequests.flatMap((r) => r.input)).toEqual(passageTexts(LAKE)));
      await vi.waitFor(async () => expect(await server.services.store.all(MEMOIR_AHEAD_MARKS)).toHaveLength(3));

      // The switch fires; a week later the next round completes the verification and the share opens.
      await fireSwitch(server, owner.accountId, linked.planId);
      offset = 8 * DAY;
      const asked = standin.embeddingRequests.length;
      vi.advanceTimersByTime(60_000);
      await vi.waitFor(async () =>
        expect(
          await server.services.store.findBy<EmbeddingRecord>(MEMOIR_EMBEDDINGS, 'ownerId', heir.accountId),
        ).toHaveLength(passageTexts(LAKE).length),
      );
      expect(standin.embeddingRequests.slice(asked).flatMap((r) => r.input)).toEqual(passageTexts(LAKE));
    } finally {
      vi.useRealTimers();
      await dispatcher?.stop();
      await server.close();
      await standin.close();
    }
  });

  it('runs the catch-up with a provider and embedding ahead on, and stops it before its store closes', async () => {
    const standin = await startOpenAiStandin();
    standin.answerWith(() => '{"traits": [], "values": []}');
    const lines: string[] = [];
    const log = createLogger('info', { write: (line: string) => void lines.push(line) });
    const server = await startTestServer({ log, config: { llm: llmOf(standin), memoirEmbedAhead: false } });
    let closed = false;
    try {
      const owner = await registerUser(server.app);
      const post = (content: string) =>
        server.app.inject({
          method: 'POST',
          url: '/api/v1/svcloom/journal',
          headers: sessionHeaders(owner, { csrf: true }),
          payload: { content },
        });
      expect((await post(LAKE)).statusCode).toBe(201);
      // Off: no catch-up either.
      await catchUpMemoirs(server.services);
      expect(standin.embeddingRequests).toEqual([]);

      server.services.memoirAhead = new EmbedAhead(llmOf(standin), log);
      await catchUpMemoirs(server.services);
      expect(standin.embeddingRequests.flatMap((r) => r.input)).toEqual(passageTexts(LAKE));
      const said = lines.map((l) => JSON.parse(l) as { msg: string; memoirs?: number; complete?: boolean });
      expect(said.filter((l) => l.msg.includes('memoirs written before'))).toMatchObject([{ complete: true }]);

      // A catch-up under way when the service closes ends with it, before the store closes: nothing fails. (Held in
      // its read of the shares until the close has begun.)
      expect((await post(SHOP)).statusCode).toBe(201);
      await server.services.store.delete(MEMOIR_AHEAD_MARKS, `mahd_${owner.accountId}_own`);
      const real = server.services.store;
      let arrive = () => {};
      let release = () => {};
      const arrived = new Promise<void>((r) => (arrive = r));
      const released = new Promise<void>((r) => (release = r));
      server.services.store = overriding(real, {
        all: async (collection: string) => {
          if (collection === GRANTS) {
            arrive();
            await released;
          }
          return real.all(collection);
        },
      });
      const running = catchUpMemoirs(server.services);
      await arrived;
      const closing = server.close();
      closed = true;
      await new Promise((r) => setImmediate(r));
      release();
      await closing;
      await running;
      expect(lines.filter((l) => l.includes('"level":40') || l.includes('"level":50'))).toEqual([]);
    } finally {
      if (!closed) await server.close();
      await standin.close();
    }
  });
});

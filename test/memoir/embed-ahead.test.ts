import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountStore } from '../../src/accounts/tenancy.js';
import { ConfigError, loadConfig } from '../../src/core/config.js';
import { runAsQueueCaller } from '../../src/core/fair-queue.js';
import { createLogger } from '../../src/core/log.js';
import { completeDueVerifications } from '../../src/memoir/heirs.js';
import { EmbedAhead, refusedForItsInputs } from '../../src/memoir/embed-ahead.js';
import { EMBED_MAX_CHARS, type EmbeddingRecord } from '../../src/memoir/embeddings.js';
import { configureModelCalls, withModelPlace } from '../../src/memoir/model-calls.js';
import { type AheadMark, doneMark } from '../../src/memoir/embed-marks.js';
import { MEMOIR_AHEAD_MARKS, MEMOIR_EMBEDDINGS } from '../../src/memoir/records.js';
import { passageTexts, windowsWithTerms } from '../../src/memoir/retrieval.js';
import { type TestServer, startTestServer, tmpStore } from '../helpers.js';
import { type OpenAiStandin, startOpenAiStandin } from '../support/openai-standin.js';
import { registerUser, sessionHeaders, type TestSession } from '../support/session.js';
import { fireSwitch, grant, linkChatPlan, multipartBody } from './support.js';

// With a provider configured, what the owner writes has its passages embedded in the background once stored, so that
// the next chat question sends the provider the question alone (src/memoir/embed-ahead.ts).

const LAKE =
  'Every summer we drove to the lake at Annecy with the children. We swam until dark and ate cherries on the jetty. ' +
  'Your grandfather rowed us out to the island once. The water was colder than he had promised.';
const SHOP = 'My father kept a bicycle shop on Rue Carnot. He mended punctures for a franc and told stories all day.';
const EDITED = 'My father kept a bicycle shop on Rue Carnot until 1971. On Sundays he raced in the hills above Lyon.';
const ANSWER = 'I grew up above the shop, in two rooms that smelt of rubber and oil.';
const llmOf = (standin: OpenAiStandin) => ({
  baseUrl: standin.baseUrl,
  apiKey: 'sk-standin',
  model: 'standin-1',
  embeddingModel: 'standin-embed',
});

describe('the passages of what the owner writes are embedded ahead of the questions', () => {
  let standin: OpenAiStandin;
  let server: TestServer;
  let owner: TestSession;
  let other: TestSession;
  let entryId = '';

  const call = (who: TestSession, method: 'POST' | 'PATCH', url: string, payload: object) =>
    server.app.inject({ method, url, headers: sessionHeaders(who, { csrf: true }), payload });
  const embedded = (from: number) => standin.embeddingRequests.slice(from).flatMap((r) => r.input);
  const ahead = () => server.services.memoirAhead!;

  beforeAll(async () => {
    standin = await startOpenAiStandin();
    standin.answerWith(() => '{"traits": [], "values": []}');
    server = await startTestServer({ config: { llm: llmOf(standin) } });
    owner = await registerUser(server.app);
    other = await registerUser(server.app);
    await grant(server, owner.accountId, 20);
    await grant(server, other.accountId, 20);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await standin?.close();
  });

  it('the passages a search makes of a text are those embedded ahead', () => {
    for (const text of [LAKE, SHOP, 'One sentence only.', 'Two sentences. Here they are.', ''])
      expect(passageTexts(text)).toEqual(windowsWithTerms(text).map((w) => w.text));
    expect(passageTexts(LAKE)).toHaveLength(3);
  });

  it('an entry is embedded once stored, and the first question then sends the question alone', async () => {
    const before = standin.embeddingRequests.length;
    for (const content of [LAKE, SHOP]) {
      const made = await call(owner, 'POST', '/api/v1/svcloom/journal', { content });
      expect(made.statusCode, made.body).toBe(201);
      if (content === SHOP) entryId = made.json().data.entry.id;
    }
    await ahead().idle();
    expect(new Set(embedded(before))).toEqual(new Set([...passageTexts(LAKE), ...passageTexts(SHOP)]));
    // Kept in the owner's account, as the chat keeps them: never the text.
    const stored = await server.services.store.findBy<EmbeddingRecord>(MEMOIR_EMBEDDINGS, 'ownerId', owner.accountId);
    expect(stored).toHaveLength(passageTexts(LAKE).length + passageTexts(SHOP).length);
    expect(JSON.stringify(stored)).not.toContain('Annecy');

    standin.answerWith(() => 'We swam in the lake at Annecy until dark.');
    const asked = standin.embeddingRequests.length;
    const res = await call(owner, 'POST', '/api/v1/svcloom/chat', { message: 'Where did you swim in the summer?' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.grounded).toBe(true);
    expect(standin.embeddingRequests.slice(asked).map((r) => r.input)).toEqual([['Where did you swim in the summer?']]);
  });

  it("an edit's new text, questionnaire answers and a private entry are embedded too; each account its own", async () => {
    const before = standin.embeddingRequests.length;
    const edit = await call(owner, 'PATCH', `/api/v1/svcloom/journal/${entryId}`, { content: EDITED });
    expect(edit.statusCode, edit.body).toBe(200);
    const answered = await call(owner, 'POST', '/api/v1/svcloom/questionnaire/childhood', {
      answers: [{ questionId: 'childhood.home', answer: `  ${ANSWER}  ` }],
    });
    expect(answered.statusCode, answered.body).toBe(200);
    // The owner's own chat reads private entries: theirs are embedded all the same.
    const secret = await call(owner, 'POST', '/api/v1/svcloom/journal', {
      content: 'Nobody knows I sold the shop at a loss.',
      private: true,
    });
    expect(secret.statusCode, secret.body).toBe(201);
    // The same text written by another account is embedded again, for that account.
    const theirs = await call(other, 'POST', '/api/v1/svcloom/journal', { content: SHOP });
    expect(theirs.statusCode, theirs.body).toBe(201);
    await ahead().idle();
    expect(embedded(before).sort()).toEqual(
      [...passageTexts(EDITED), ANSWER, 'Nobody knows I sold the shop at a loss.', ...passageTexts(SHOP)].sort(),
    );
    const mine = await server.services.store.findBy<EmbeddingRecord>(MEMOIR_EMBEDDINGS, 'ownerId', other.accountId);
    expect(mine).toHaveLength(passageTexts(SHOP).length);

    // Nothing of it is asked again by a question.
    const asked = standin.embeddingRequests.length;
    await call(owner, 'POST', '/api/v1/svcloom/chat', { message: 'What did your father do on Sundays?' });
    expect(standin.embeddingRequests.slice(asked).map((r) => r.input)).toEqual([
      ['What did your father do on Sundays?'],
    ]);
  });

  it("a photo's caption and the description of it the model gives are embedded too", async () => {
    const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366aa' } })
      .jpeg()
      .toBuffer();
    const { body, contentType } = multipartBody([
      { name: 'file', filename: 'jetty.jpg', contentType: 'image/jpeg', data: photo },
    ]);
    const uploaded = await server.app.inject({
      method: 'POST',
      url: '/api/v1/svcloom/media/upload',
      headers: { ...sessionHeaders(owner, { csrf: true }), 'content-type': contentType },
      payload: body,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const id = uploaded.json().data.id as string;
    const before = standin.embeddingRequests.length;
    const caption = 'Jean and me on the jetty at Annecy, summer 1962.';
    const captioned = await call(owner, 'PATCH', `/api/v1/svcloom/media/${id}`, { caption });
    expect(captioned.statusCode, captioned.body).toBe(200);
    const DESCRIPTION = 'Two people sit on a wooden jetty above blue water. A rowing boat is tied beside them.';
    standin.answerWith(() => DESCRIPTION);
    const described = await server.app.inject({
      method: 'GET',
      url: `/api/v1/svcloom/media/${id}/inference`,
      headers: sessionHeaders(owner),
    });
    expect(described.statusCode, described.body).toBe(200);
    expect(described.json().data.inference.description).toBe(DESCRIPTION);
    await ahead().idle();
    expect(embedded(before).sort()).toEqual([caption, ...passageTexts(DESCRIPTION)].sort());
  });

  it('a text without sentence ends is embedded by its beginning, within what the model takes', async () => {
    // A recording's transcript has no full stops: the whole text is one passage, past the model's input limit.
    const words = 'we walked along the river to the old mill and talked about the war and the harvest ';
    const transcript = words.repeat(Math.ceil(12_000 / words.length)).trim();
    expect(passageTexts(transcript)).toEqual([transcript]);
    standin.refuseInputsOver(EMBED_MAX_CHARS);
    try {
      const left = ahead().left;
      const before = standin.embeddingRequests.length;
      const made = await call(owner, 'POST', '/api/v1/svcloom/journal', { content: transcript, private: true });
      expect(made.statusCode, made.body).toBe(201);
      await ahead().idle();
      expect(ahead().left).toBe(left);
      expect(embedded(before)).toEqual([transcript.slice(0, EMBED_MAX_CHARS)]);
      // And the chat uses the embeddings: the question alone is sent.
      standin.answerWith(() => 'We walked to the old mill.');
      const asked = standin.embeddingRequests.length;
      const res = await call(owner, 'POST', '/api/v1/svcloom/chat', { message: 'Where did you walk by the river?' });
      expect(res.statusCode, res.body).toBe(200);
      expect(standin.embeddingRequests.slice(asked).map((r) => r.input)).toEqual([
        ['Where did you walk by the river?'],
      ]);
    } finally {
      standin.refuseInputsOver(Number.POSITIVE_INFINITY);
    }
  });

  it('when the provider fails, the passages are left to the next question, which embeds them with it', async () => {
    // langchain's client tries a failed request once more. (A private entry: no model refines the character from it,
    // so both failures are the embeddings'.)
    standin.failNext(500, 2);
    const left = ahead().left;
    const text = 'We kept bees behind the house. The honey tasted of lavender.';
    const made = await call(owner, 'POST', '/api/v1/svcloom/journal', { content: text, private: true });
    expect(made.statusCode, made.body).toBe(201);
    await ahead().idle();
    expect(ahead().left).toBe(left + passageTexts(text).length);
    expect(ahead().waitingChars).toBe(0);
    // A pause follows: what is written in it is left to the question too, without asking the provider again.
    const paused = standin.embeddingRequests.length;
    const next = 'The hives were painted blue.';
    expect((await call(owner, 'POST', '/api/v1/svcloom/journal', { content: next, private: true })).statusCode).toBe(
      201,
    );
    await ahead().idle();
    expect(standin.embeddingRequests.length).toBe(paused);
    expect(ahead().left).toBe(left + passageTexts(text).length + 1);
    const asked = standin.embeddingRequests.length;
    const res = await call(owner, 'POST', '/api/v1/svcloom/chat', { message: 'What did the honey taste of?' });
    expect(res.statusCode, res.body).toBe(200);
    expect(standin.embeddingRequests.slice(asked).map((r) => r.input)).toEqual([
      ['What did the honey taste of?', ...passageTexts(text), next],
    ]);
  });
});

describe('an heir who claims an open share', () => {
  const DAY = 86_400_000;
  let offset = 0;
  const clock = { now: () => new Date(Date.parse('2026-06-01T09:00:00Z') + offset) };
  let standin: OpenAiStandin;
  let server: TestServer;

  beforeAll(async () => {
    standin = await startOpenAiStandin();
    standin.answerWith(() => '{"traits": [], "values": []}');
    server = await startTestServer({ clock, config: { llm: llmOf(standin) } });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await standin?.close();
  });

  it("has the memoir's passages embedded for the heir's chat, without the owner's private entries", async () => {
    const owner = await registerUser(server.app, { name: 'Rose' });
    const post = (who: TestSession, url: string, payload: object) =>
      server.app.inject({ method: 'POST', url, headers: sessionHeaders(who, { csrf: true }), payload });
    const SECRET = 'Nobody knows I sold the shop at a loss.';
    for (const [content, isPrivate] of [
      [LAKE, false],
      [SHOP, false],
      [SECRET, true],
    ] as const)
      expect((await post(owner, '/api/v1/svcloom/journal', { content, private: isPrivate })).statusCode).toBe(201);
    await server.services.memoirAhead!.idle();
    const { planId, shareId, code } = await linkChatPlan(server, owner);
    await fireSwitch(server, owner.accountId, planId);
    offset = 8 * DAY;
    await completeDueVerifications(server.services.store, clock);

    const heir = await registerUser(server.app);
    await grant(server, heir.accountId, 5);
    const before = standin.embeddingRequests.length;
    const claimed = await post(heir, '/api/v1/svcloom/shared/claim', { code });
    expect(claimed.statusCode, claimed.body).toBe(200);
    await server.services.memoirAhead!.idle();
    // What the heir's chat searches (the shared entries), in the heir's account: never the private one's.
    const inputs = standin.embeddingRequests.slice(before).flatMap((r) => r.input);
    expect(inputs.sort()).toEqual([...passageTexts(LAKE), ...passageTexts(SHOP)].sort());
    const theirs = await server.services.store.findBy<EmbeddingRecord>(MEMOIR_EMBEDDINGS, 'ownerId', heir.accountId);
    expect(theirs).toHaveLength(inputs.length);

    standin.answerWith(() => 'We swam in the lake at Annecy.');
    const asked = standin.embeddingRequests.length;
    const chat = await post(heir, `/api/v1/svcloom/shared/${shareId}/chat`, { message: 'Where did you swim?' });
    expect(chat.statusCode, chat.body).toBe(200);
    expect(chat.json().data.grounded).toBe(true);
    expect(standin.embeddingRequests.slice(asked).map((r) => r.input)).toEqual([['Where did you swim?']]);
  });
});

describe('SVC_MEMOIR_EMBED_AHEAD', () => {
  it('is on by default, off with 0, and refuses anything else', () => {
    expect(loadConfig({}, {}).memoirEmbedAhead).toBe(true);
    expect(loadConfig({}, { SVC_MEMOIR_EMBED_AHEAD: '0' }).memoirEmbedAhead).toBe(false);
    expect(() => loadConfig({}, { SVC_MEMOIR_EMBED_AHEAD: 'later' })).toThrow(ConfigError);
  });

  it('off: nothing is embedded until a question asks, and then all of it with the question', async () => {
    const standin = await startOpenAiStandin();
    standin.answerWith(() => 'We swam in the lake.');
    const server = await startTestServer({ config: { llm: llmOf(standin), memoirEmbedAhead: false } });
    try {
      expect(server.services.memoirAhead).toBeUndefined();
      const [owner, other] = [await registerUser(server.app), await registerUser(server.app)];
      await grant(server, owner.accountId, 5);
      const store = server.services.store;
      const marksOf = (account: string) => store.findBy<AheadMark>(MEMOIR_AHEAD_MARKS, 'ownerId', account);
      // Catch-up marks left while embedding ahead was on (the heir's share of another memoir among them).
      for (const [account, source] of [
        [owner.accountId, 'own'],
        [owner.accountId, 'mgr_SHARE'],
        [other.accountId, 'own'],
      ] as const)
        await store.put(MEMOIR_AHEAD_MARKS, doneMark(account, source, 'standin-embed', new Date()));
      const headers = sessionHeaders(owner, { csrf: true });
      const made = await server.app.inject({
        method: 'POST',
        url: '/api/v1/svcloom/journal',
        headers,
        payload: { content: LAKE },
      });
      expect(made.statusCode, made.body).toBe(201);
      expect(standin.embeddingRequests).toEqual([]);
      // The memoir is not whole any more: the write removed the account's marks, so that the next catch-up, once
      // embedding ahead is on again, embeds it. Another account's are its own.
      expect(await marksOf(owner.accountId)).toEqual([]);
      expect(await marksOf(other.accountId)).toHaveLength(1);
      const res = await server.app.inject({
        method: 'POST',
        url: '/api/v1/svcloom/chat',
        headers,
        payload: { message: 'Where did you swim?' },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(standin.embeddingRequests.map((r) => r.input)).toEqual([['Where did you swim?', ...passageTexts(LAKE)]]);
    } finally {
      await server.close();
      await standin.close();
    }
  });
});

describe('in turns across accounts', () => {
  let standin: OpenAiStandin;
  let store: Awaited<ReturnType<typeof tmpStore>>;

  beforeAll(async () => {
    standin = await startOpenAiStandin();
    store = await tmpStore();
    // One place for every model call, so the order in which the accounts are served shows.
    configureModelCalls(1, undefined);
  });
  afterAll(async () => {
    configureModelCalls(undefined, undefined);
    await store?.cleanup();
    await standin?.close();
  });

  it("one account's many passages hold another's back by one batch at most", async () => {
    const ahead = new EmbedAhead(llmOf(standin), createLogger('silent'), { batch: 4 });
    const now = () => new Date();
    const A = 'acct_EMBEDAHEADA0000000000000000';
    const B = 'acct_EMBEDAHEADB0000000000000000';
    const many = Array.from({ length: 40 }, (_, i) => `Memory number ${i} of the long summer.`);
    runAsQueueCaller({ account: A, weight: 1 }, () => ahead.note(accountStore(store.store, A), A, many, now));
    runAsQueueCaller({ account: B, weight: 1 }, () =>
      ahead.note(accountStore(store.store, B), B, ['The day I met your mother.'], now),
    );
    await ahead.idle();
    const requests = standin.embeddingRequests.map((r) => r.input);
    expect(requests.flat().sort()).toEqual([...many, 'The day I met your mother.'].sort());
    // Batches of four, one request at a time per account: B's comes second at the latest, not after A's ten.
    expect(requests.every((r) => r.length <= 4)).toBe(true);
    expect(requests.findIndex((r) => r.includes('The day I met your mother.'))).toBeLessThanOrEqual(1);
    expect(requests.slice(0, 2).flat()).toContain(many[0]);
    // Each account's vectors in its own account.
    const ofB = await store.store.findBy<EmbeddingRecord>(MEMOIR_EMBEDDINGS, 'ownerId', B);
    expect(ofB).toHaveLength(1);
  });

  it('holds a bounded number of characters waiting, all accounts together; past it a text is left to the question', async () => {
    const [carla, carlo, dora, short] = [
      'Carla remembers the orchard in the rain.',
      'Carlo remembers the orchard in the sun.',
      'Dora remembers the orchard in the snow.',
      'Dora laughed.',
    ] as const;
    const ahead = new EmbedAhead(llmOf(standin), createLogger('silent'), {
      batch: 2,
      maxChars: carla.length + carlo.length + 20,
    });
    const now = () => new Date();
    const C = 'acct_EMBEDAHEADD0000000000000000';
    const D = 'acct_EMBEDAHEADE0000000000000000';
    const asked = standin.embeddingRequests.length;
    ahead.note(accountStore(store.store, C), C, [carla, carlo], now);
    expect(ahead.waitingChars).toBe(carla.length + carlo.length);
    // Dora's first text is past the bound: left to D's next question; a shorter one still fits.
    ahead.note(accountStore(store.store, D), D, [dora, short], now);
    expect(ahead.waitingChars).toBe(carla.length + carlo.length + short.length);
    expect(ahead.left).toBe(1);
    await ahead.idle();
    expect(ahead.waitingChars).toBe(0);
    const sent = standin.embeddingRequests.slice(asked).flatMap((r) => r.input);
    expect(sent.sort()).toEqual([carla, carlo, short].sort());
  });

  it("the model's places refusing one account do not pause the others'", async () => {
    const ahead = new EmbedAhead(llmOf(standin), createLogger('silent'), { batch: 2 });
    const now = () => new Date();
    const F = 'acct_EMBEDAHEADF0000000000000000';
    const G = 'acct_EMBEDAHEADG0000000000000000';
    // The one place held by another account's call, and a wait limit of 1 ms: F's batch is refused at once.
    configureModelCalls(1, 1);
    let release = () => {};
    const holding = runAsQueueCaller({ account: 'acct_HOLDER', weight: 1 }, () =>
      withModelPlace(undefined, () => new Promise<void>((r) => (release = r))),
    );
    try {
      runAsQueueCaller({ account: F, weight: 1 }, () =>
        ahead.note(accountStore(store.store, F), F, ['Felix kept pigeons.'], now),
      );
      await ahead.idle();
      expect(ahead.left).toBe(1);
    } finally {
      release();
      await holding;
      configureModelCalls(1, undefined);
    }
    const asked = standin.embeddingRequests.length;
    runAsQueueCaller({ account: G, weight: 1 }, () =>
      ahead.note(accountStore(store.store, G), G, ['Greta sang in the choir.'], now),
    );
    await ahead.idle();
    expect(standin.embeddingRequests.slice(asked).map((r) => r.input)).toEqual([['Greta sang in the choir.']]);
  });

  it("the provider refusing one account's passages pauses that account alone", async () => {
    const ahead = new EmbedAhead(llmOf(standin), createLogger('silent'), { batch: 2 });
    const now = () => new Date();
    const H = 'acct_EMBEDAHEADH0000000000000000';
    const K = 'acct_EMBEDAHEADK0000000000000000';
    const note = (account: string, text: string) =>
      runAsQueueCaller({ account, weight: 1 }, () =>
        ahead.note(accountStore(store.store, account), account, [text], now),
      );
    // A request the provider will not take, whoever sends it (an input past its limit): 400, not tried again.
    standin.failNext(400, 1);
    note(H, 'Hugo wrote his letters in pencil.');
    await ahead.idle();
    expect(ahead.left).toBe(1);
    const asked = standin.embeddingRequests.length;
    note(K, 'Klara rode to school on a grey mare.');
    note(H, 'Hugo kept them in a biscuit tin.');
    await ahead.idle();
    // The other account's text is sent at once; this one's, written within the pause, is left to its questions.
    expect(standin.embeddingRequests.slice(asked).map((r) => r.input)).toEqual([
      ['Klara rode to school on a grey mare.'],
    ]);
    expect(ahead.left).toBe(2);
    // The provider down (a 500, tried once more) pauses every account, as before.
    standin.failNext(500, 2);
    note(K, 'Klara married the blacksmith.');
    await ahead.idle();
    const after = standin.embeddingRequests.length;
    note('acct_EMBEDAHEADL0000000000000000', 'Lotte never learnt to swim.');
    await ahead.idle();
    expect(standin.embeddingRequests.length).toBe(after);
  });

  it('tells a refusal of the request for its inputs from the provider failing', () => {
    expect(refusedForItsInputs(Object.assign(new Error('bad'), { status: 400 }))).toBe(true);
    expect(refusedForItsInputs(Object.assign(new Error('too large'), { status: 413 }))).toBe(true);
    const overflow = Object.assign(new Error('context'), { name: 'ContextOverflowError' });
    expect(refusedForItsInputs(overflow)).toBe(true);
    expect(refusedForItsInputs(new Error('wrapped', { cause: { status: 422 } }))).toBe(true);
    for (const status of [401, 404, 429, 500, 503])
      expect(refusedForItsInputs(Object.assign(new Error('x'), { status }))).toBe(false);
    expect(refusedForItsInputs(Object.assign(new Error('timeout'), { name: 'TimeoutError' }))).toBe(false);
    expect(refusedForItsInputs(undefined)).toBe(false);
  });

  it('once settled it sends nothing more and takes no more texts: they are left to the next question', async () => {
    const ahead = new EmbedAhead(llmOf(standin), createLogger('silent'), { batch: 2 });
    const A = 'acct_EMBEDAHEADC0000000000000000';
    const view = accountStore(store.store, A);
    const asked = standin.embeddingRequests.length;
    ahead.note(view, A, ['First of all.', 'Second of all.', 'Third of all.', 'Fourth of all.'], () => new Date());
    await ahead.settle();
    // Stopped before its first batch (settled in the same turn): nothing was sent, and nothing is taken after.
    ahead.note(view, A, ['Too late.'], () => new Date());
    await ahead.idle();
    expect(standin.embeddingRequests.length).toBe(asked);
    expect(ahead.left).toBe(4);
    expect(await store.store.findBy(MEMOIR_EMBEDDINGS, 'ownerId', A)).toEqual([]);
  });
});

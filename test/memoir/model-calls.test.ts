import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/core/config.js';
import { configureModelCalls, modelCalls } from '../../src/memoir/model-calls.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { until } from '../support/loop.js';
import { startOpenAiStandin, type OpenAiStandin } from '../support/openai-standin.js';
import { registerUser, sessionHeaders, type TestSession } from '../support/session.js';
import { grant } from './support.js';

// Calls to the language model take a place each: one place here, so the order in which accounts are served shows.

let standin: OpenAiStandin;
let server: TestServer;
let a: TestSession;
let b: TestSession;

const post = (who: TestSession, url: string, payload: object) =>
  server.app.inject({ method: 'POST', url, headers: sessionHeaders(who, { csrf: true }), payload });

beforeAll(async () => {
  standin = await startOpenAiStandin();
  server = await startTestServer({
    // The chat calls alone take the place: what is written is not embedded ahead (test/memoir/embed-ahead.test.ts).
    config: {
      llm: { baseUrl: standin.baseUrl, apiKey: 'sk-standin', model: 'standin-1' },
      modelConcurrency: 1,
      memoirEmbedAhead: false,
    },
  });
  a = await member();
  b = await member();
}, 60_000);

/** A new account with credits and one journal entry about summers at the lake. */
async function member(): Promise<TestSession> {
  const who = await registerUser(server.app);
  await grant(server, who.accountId, 100);
  standin.reply('{"traits": ["calm"], "values": ["family"]}');
  const made = await post(who, '/api/v1/svcloom/journal', {
    content: 'Every summer we drove to the lake at Annecy with the children and swam until dark.',
  });
  expect(made.statusCode, made.body).toBe(201);
  standin.answerWith(() => 'We swam in the lake at Annecy every summer.');
  return who;
}

/**
 * Each asks `question` once, one after the other, and is answered from their memoir: the question's and the
 * passages' embeddings are then kept, so that a chat with it afterwards is one call to the model (one place), not
 * an embedding call and then a chat call. (A public account may chat five times in 15 minutes.)
 */
async function warm(question: string, ...who: TestSession[]) {
  for (const session of who) {
    const res = await post(session, '/api/v1/svcloom/chat', { message: question });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.grounded, res.body).toBe(true);
  }
}

afterAll(async () => {
  await server?.close();
  await standin?.close();
  configureModelCalls(undefined, undefined);
});

describe('calls to the language model', () => {
  it('are sized by SVC_MODEL_CONCURRENCY, a positive whole number (default 16)', () => {
    expect(modelCalls.size).toBe(1);
    expect(loadConfig({}, {}).modelConcurrency).toBeUndefined();
    expect(loadConfig({}, { SVC_MODEL_CONCURRENCY: '4' }).modelConcurrency).toBe(4);
    for (const bad of ['0', '-2', '2.5', 'lots'])
      expect(() => loadConfig({}, { SVC_MODEL_CONCURRENCY: bad }), bad).toThrow(/SVC_MODEL_CONCURRENCY/);
  });

  it("answer one account's chat before the last of another's three sent before it", async () => {
    const question = 'Where did you swim in the summer?';
    await warm(question, a, b);
    standin.slowDown(150);
    try {
      const answered: string[] = [];
      const chat = (who: TestSession, label: string) =>
        post(who, '/api/v1/svcloom/chat', { message: question }).then((res) => {
          expect(res.statusCode, res.body).toBe(200);
          answered.push(label);
        });
      const fromA = ['a1', 'a2', 'a3'].map((label) => chat(a, label));
      // One of A's calls holds the place and the two others wait for it before B asks.
      await until(() => modelCalls.queued >= 2);
      const fromB = chat(b, 'b');
      await Promise.all([...fromA, fromB]);
      // First come, first served would answer b last, behind all three of A's; in turn, b waits for the call holding
      // the place and at most one of A's waiting calls.
      expect(answered).toHaveLength(4);
      expect(answered.indexOf('b')).toBeLessThanOrEqual(2);
    } finally {
      standin.slowDown(0);
    }
  }, 60_000);

  it('refuse a call over the waiting bound with SERVICE_BUSY, not as a failed model', async () => {
    // Two accounts of their own (the first test used most of A's chats), warmed: the place taken below is C's chat
    // call, and D's next call is its chat, not an embedding.
    const [c, d] = [await member(), await member()];
    const question = 'Where did you swim in the summer?';
    await warm(question, c, d);
    const wallet = async () =>
      (await server.app.inject({ url: '/api/svcloom/credits/wallet', headers: sessionHeaders(d) })).json().data.balance;
    standin.slowDown(300);
    modelCalls.configure({ maxQueue: 0 });
    try {
      const first = post(c, '/api/v1/svcloom/chat', { message: question });
      await until(() => modelCalls.running >= 1);
      const balance = await wallet();
      const second = await post(d, '/api/v1/svcloom/chat', { message: question });
      expect(second.statusCode, second.body).toBe(503);
      expect(second.json().error.code).toBe('SERVICE_BUSY');
      expect(second.json().error.message).toMatch(/language model/i);
      // Nothing is charged for a call that was refused a place.
      expect(await wallet()).toBe(balance);
      expect((await first).statusCode).toBe(200);
    } finally {
      modelCalls.configure({ maxQueue: 20 });
      standin.slowDown(0);
    }
  }, 60_000);
});

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
    config: { llm: { baseUrl: standin.baseUrl, apiKey: 'sk-standin', model: 'standin-1' }, modelConcurrency: 1 },
  });
  a = await registerUser(server.app);
  b = await registerUser(server.app);
  for (const u of [a, b]) {
    await grant(server, u.accountId, 100);
    standin.reply('{"traits": ["calm"], "values": ["family"]}');
    const made = await post(u, '/api/v1/svcloom/journal', {
      content: 'Every summer we drove to the lake at Annecy with the children and swam until dark.',
    });
    expect(made.statusCode, made.body).toBe(201);
  }
  standin.answerWith(() => 'We swam in the lake at Annecy every summer.');
}, 60_000);

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
    standin.slowDown(150);
    try {
      const answered: string[] = [];
      const chat = (who: TestSession, label: string) =>
        post(who, '/api/v1/svcloom/chat', { message: 'Where did you swim in the summer?' }).then((res) => {
          expect(res.statusCode, res.body).toBe(200);
          answered.push(label);
        });
      const fromA = ['a1', 'a2', 'a3'].map((label) => chat(a, label));
      await until(() => modelCalls.queued >= 2);
      const fromB = chat(b, 'b');
      await Promise.all([...fromA, fromB]);
      // First come, first served would answer b last: its calls would wait behind all of A's.
      expect(answered.indexOf('b')).toBeLessThan(answered.indexOf('a3'));
    } finally {
      standin.slowDown(0);
    }
  }, 60_000);

  it('refuse a call over the waiting bound with SERVICE_BUSY, not as a failed model', async () => {
    standin.slowDown(300);
    modelCalls.configure({ maxQueue: 0 });
    const wallet = async () =>
      (await server.app.inject({ url: '/api/svcloom/credits/wallet', headers: sessionHeaders(b) })).json().data.balance;
    try {
      const first = post(a, '/api/v1/svcloom/chat', { message: 'Where did you swim?' });
      await until(() => modelCalls.running >= 1);
      const balance = await wallet();
      const second = await post(b, '/api/v1/svcloom/chat', { message: 'And in the winter?' });
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

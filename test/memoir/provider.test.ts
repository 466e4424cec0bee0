import { ChatOpenAI } from '@langchain/openai';
import { HumanMessage } from '@langchain/core/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers.js';
import { startOpenAiStandin, type OpenAiStandin } from '../support/openai-standin.js';
import { registerUser, sessionHeaders, type TestSession } from '../support/session.js';
import { grant } from './support.js';

// The real provider path: langchain's ChatOpenAI against a local OpenAI-compatible server.

let standin: OpenAiStandin;
let server: TestServer;
let user: TestSession;

beforeAll(async () => {
  standin = await startOpenAiStandin();
  server = await startTestServer({
    // The provider's failures below are the chat's alone: nothing is embedded ahead (test/memoir/embed-ahead.test.ts).
    config: { llm: { baseUrl: standin.baseUrl, apiKey: 'sk-standin', model: 'standin-1' }, memoirEmbedAhead: false },
  });
  user = await registerUser(server.app);
  await grant(server, user.accountId, 10);
});
afterAll(async () => {
  await server?.close();
  await standin?.close();
});

const post = (url: string, payload: object) =>
  server.app.inject({ method: 'POST', url, headers: sessionHeaders(user), payload });

describe('ChatOpenAI against the stand-in', () => {
  it('plain and streamed completions, each with its own id', async () => {
    const model = new ChatOpenAI({
      model: 'standin-1',
      apiKey: 'sk-x',
      configuration: { baseURL: standin.baseUrl },
      maxRetries: 0,
    });
    standin.reply('Hello there.', 'Streamed words arrive one by one.');
    const plain = await model.invoke([new HumanMessage('hi')]);
    expect(plain.content).toBe('Hello there.');
    let streamed = '';
    let chunks = 0;
    for await (const c of await model.stream([new HumanMessage('hi')])) {
      streamed += String(c.content);
      chunks++;
    }
    expect(streamed).toBe('Streamed words arrive one by one.');
    expect(chunks).toBeGreaterThan(3);
    expect(standin.requests.slice(-2).map((r) => r.stream)).toEqual([false, true]);
    expect(new Set(standin.ids).size).toBe(standin.ids.length);
  });
});

describe('the memoir agent with a configured model', () => {
  it('answers through the model from retrieved entries, citing only real ids, in mode "model"', async () => {
    // Character refinement asks the model on each entry: give it JSON.
    standin.reply('{"traits": ["devoted"], "values": ["family"]}');
    const made = await post('/api/svcloom/journal', {
      content: 'Every summer we drove to the lake at Annecy with the children and swam until dark.',
    });
    expect(made.statusCode).toBe(201);
    const id = made.json().data.entry.id as string;
    expect(made.json().data).toMatchObject({
      mode: 'model',
      character: { modelTraits: ['devoted'], modelValues: ['family'] },
    });
    standin.answerWith((req) => {
      const system = req.messages[0]!.content;
      const cited = /\[(jrn_[0-9A-Z]+)\]/.exec(system)?.[1] ?? 'none';
      return `We went to the lake at Annecy every summer [${cited}]. I also won the lottery [jrn_01AAAAAAAAAAAAAAAAAAAAAAAA].`;
    });
    const before = standin.requests.length;
    const res = await post('/api/v1/svcloom/chat', { message: 'Where did you go in the summer?' });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.mode).toBe('model');
    expect(data.reply.citations).toEqual([id]);
    expect(data.grounded).toBe(true);
    const sent = standin.requests[before]!;
    expect(sent).toMatchObject({ model: 'standin-1', stream: true, authorization: 'Bearer sk-standin' });
    expect(sent.messages[0]!.content).toContain(`[${id}] Every summer we drove to the lake`);
    expect(sent.messages[1]).toEqual({ role: 'user', content: 'Where did you go in the summer?' });
    // Nothing relevant: the model is not asked, the agent says it does not know.
    const n = standin.requests.length;
    const none = (await post('/api/svcloom/chat', { message: 'What is your opinion of blockchain?' })).json().data;
    expect(none).toMatchObject({ mode: 'model', grounded: false, reply: { citations: [] } });
    expect(standin.requests.length).toBe(n);
    expect(
      (await server.app.inject({ url: '/api/svcloom/agent', headers: sessionHeaders(user) })).json().data,
    ).toMatchObject({ mode: 'model', model: 'standin-1' });
  });

  it('a failing provider is a clean error and stores no half exchange', async () => {
    const history = async () =>
      (await server.app.inject({ url: '/api/svcloom/chat/history?limit=100', headers: sessionHeaders(user) })).json()
        .data.length;
    const before = await history();
    const wallet = async () =>
      (await server.app.inject({ url: '/api/svcloom/credits/wallet', headers: sessionHeaders(user) })).json().data
        .balance;
    const balance = await wallet();
    standin.failNext(500, 5);
    const res = await post('/api/svcloom/chat', { message: 'Tell me about the lake at Annecy' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ success: false, error: { code: 'SERVICE_UNAVAILABLE' } });
    expect(res.json().error.message).not.toContain(standin.baseUrl);
    expect(await history()).toBe(before);
    // Debited before the model was asked, refunded when it failed.
    expect(await wallet()).toBe(balance);
  });
});

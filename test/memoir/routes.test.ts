import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers.js';
import { httpClient, mcpOutcome } from '../mcp-clients.js';
import { registerUser, sessionHeaders, type TestSession } from '../support/session.js';
import { grant } from './support.js';

// The memoir's REST routes at both mounts, with a session (and CSRF), and the
// memoir MCP tools with a key acting on the key's account.

let server: TestServer;
let user: TestSession;
let other: TestSession;

beforeAll(async () => {
  server = await startTestServer();
  user = await registerUser(server.app);
  other = await registerUser(server.app);
  await grant(server, user.accountId, 10);
});
afterAll(async () => {
  await server?.close();
});

async function call(
  session: TestSession | undefined,
  method: string,
  url: string,
  payload?: unknown,
  opts: { csrf?: boolean } = {},
) {
  const res = await server.app.inject({
    method: method as 'GET',
    url,
    headers: session ? sessionHeaders(session, opts) : {},
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
  return { status: res.statusCode, body: res.json() };
}

describe('memoir routes (session)', () => {
  it('serves every route at /api/v1/svcloom and /api/svcloom', async () => {
    for (const base of ['/api/v1/svcloom', '/api/svcloom']) {
      for (const p of [
        '/setup',
        '/agent',
        '/agent/status',
        '/prompt',
        '/journal',
        '/questionnaire/family',
        '/insights',
        '/character',
        '/media',
        '/chat/history',
      ]) {
        const res = await call(user, 'GET', base + p);
        expect({ p, base, status: res.status, success: res.body.success }).toEqual({
          p,
          base,
          status: 200,
          success: true,
        });
      }
    }
  });

  it('401 without a session, 403 without the CSRF token, all enveloped', async () => {
    for (const [method, url, payload] of [
      ['GET', '/api/svcloom/setup'],
      ['POST', '/api/svcloom/journal', { content: 'x' }],
      ['POST', '/api/svcloom/chat', { message: 'hello' }],
      ['GET', '/api/svcloom/media/med_01JD0000000000000000000000/inference'],
      ['DELETE', '/api/svcloom/media/med_01JD0000000000000000000000'],
    ] as const) {
      const res = await call(undefined, method, url, payload);
      // Session-only routes say UNAUTHORIZED; those also open to keys (the MCP tools) say API_KEY_MISSING: both 401.
      expect({ url, status: res.status, success: res.body.success }).toEqual({ url, status: 401, success: false });
      expect(['UNAUTHORIZED', 'API_KEY_MISSING']).toContain(res.body.error.code);
    }
    for (const [method, url, payload] of [
      ['POST', '/api/svcloom/setup', { agentName: 'X' }],
      ['POST', '/api/svcloom/journal', { content: 'x' }],
      ['POST', '/api/svcloom/questionnaire/family', { answers: [{ questionId: 'family.parents', answer: 'x' }] }],
      ['POST', '/api/svcloom/chat', { message: 'hello' }],
      ['DELETE', '/api/svcloom/media/med_01JD0000000000000000000000'],
    ] as const) {
      const res = await call(user, method, url, payload, { csrf: false });
      expect({ url, status: res.status, code: res.body.error?.code }).toEqual({
        url,
        status: 403,
        code: 'CSRF_FAILED',
      });
    }
    expect((await call(user, 'GET', '/api/svcloom/journal')).body.data).toEqual([]);
  });

  it('404 for an unknown category or media item, 400 for an unknown question id', async () => {
    expect((await call(user, 'GET', '/api/svcloom/questionnaire/astrology')).status).toBe(404);
    expect(
      (
        await call(user, 'POST', '/api/svcloom/questionnaire/astrology', {
          answers: [{ questionId: 'x', answer: 'y' }],
        })
      ).body.error.code,
    ).toBe('NOT_FOUND');
    const bad = await call(user, 'POST', '/api/svcloom/questionnaire/family', {
      answers: [{ questionId: 'family.nope', answer: 'y' }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].field).toBe('answers.0.questionId');
    expect(
      (await call(user, 'GET', '/api/svcloom/media/med_01JD0000000000000000000000/inference')).body.error.code,
    ).toBe('NOT_FOUND');
    expect((await call(user, 'DELETE', '/api/v1/svcloom/media/med_01JD0000000000000000000000')).status).toBe(404);
  });

  it('journal, questionnaire, status, character, insights and a grounded demo chat', async () => {
    expect((await call(user, 'POST', '/api/svcloom/setup', { agentName: 'Grandma Rose' })).body.data).toMatchObject({
      configured: true,
      agentName: 'Grandma Rose',
    });
    const prompt = (await call(user, 'GET', '/api/svcloom/prompt')).body.data;
    const made = await call(user, 'POST', '/api/svcloom/journal', {
      content: 'I grew up on a farm near Dublin with my sister Aoife. We fed the hens every morning.',
      mood: 'Happy',
      promptUsed: prompt.text,
    });
    expect(made.status).toBe(201);
    const entryId = made.body.data.entry.id as string;
    expect(made.body.data).toMatchObject({ mode: 'demo', entry: { mood: 'happy', promptUsed: prompt.text } });
    // "my sister Aoife" is one person, named, with the relation.
    expect(made.body.data.character.people).toEqual([{ name: 'Aoife', count: 1, relation: 'sister' }]);
    expect(made.body.data.character.places.map((p: { name: string }) => p.name)).toEqual(['Dublin']);
    await call(user, 'POST', '/api/svcloom/questionnaire/family', {
      answers: [{ questionId: 'family.parents', answer: 'My father was a quiet man who loved the hens.' }],
    });
    const status = (await call(user, 'GET', '/api/svcloom/agent/status')).body.data;
    expect(status).toMatchObject({ journalCount: 1, answeredQuestions: 1 });
    expect(status.questionnaire.find((q: { category: string }) => q.category === 'family')).toMatchObject({
      answered: 1,
    });
    const agent = (await call(user, 'GET', '/api/svcloom/agent')).body.data;
    expect(agent).toMatchObject({ agentName: 'Grandma Rose', mode: 'demo', model: null });
    const eliza = (await call(user, 'GET', '/api/svcloom/character?format=eliza')).body.data.eliza;
    expect(eliza.name).toBe('Grandma Rose');
    const chat = await call(user, 'POST', '/api/svcloom/chat', { message: 'Tell me about the hens on the farm' });
    expect(chat.status).toBe(200);
    expect(chat.body.data.mode).toBe('demo');
    expect(chat.body.data.reply.citations).toContain(entryId);
    expect(chat.body.data.charge).toEqual({ action: 'chat_message', units: 1, credits: 1 });
    const none = await call(user, 'POST', '/api/svcloom/chat', { message: 'What do you think of quantum computing?' });
    // "I don't know" costs nothing.
    expect(none.body.data).toMatchObject({ grounded: false, reply: { citations: [] }, charge: { credits: 0 } });
    expect((await call(user, 'GET', '/api/svcloom/credits/wallet')).body.data.balance).toBe(9);
    const history = await call(user, 'GET', '/api/svcloom/chat/history?limit=2');
    expect(history.body.data).toHaveLength(2);
    expect(history.body.meta.pagination.hasMore).toBe(true);
    // The other user's memoir is empty: nothing crosses accounts.
    expect((await call(other, 'GET', '/api/svcloom/journal')).body.data).toEqual([]);
    expect(
      (await call(other, 'POST', '/api/svcloom/chat', { message: 'Tell me about the hens on the farm' })).body.data
        .grounded,
    ).toBe(false);
    expect((await call(other, 'GET', '/api/svcloom/insights')).body.data.totals.journalEntries).toBe(0);
  });

  it('402 INSUFFICIENT_CREDITS with required and available when the wallet is short; nothing is stored', async () => {
    const poor = await registerUser(server.app);
    await call(poor, 'POST', '/api/svcloom/journal', { content: 'We kept bees behind the barn.' });
    const res = await call(poor, 'POST', '/api/svcloom/chat', { message: 'Tell me about the bees' });
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ success: false, error: { code: 'INSUFFICIENT_CREDITS' } });
    expect(res.body.error.details).toEqual([expect.objectContaining({ field: 'credits', required: 1, available: 0 })]);
    // This server has no payments configured: the refusal does not send the caller to a purchase that cannot happen.
    expect(res.body.error.message).not.toMatch(/purchase|buy a pack/i);
    expect(res.body.error.message).toBe(
      'This needs 1 credit and the wallet holds 0. Credits cannot be bought on this server; ask its operator to grant some (svc credits grant), then try again.',
    );
    expect((await call(poor, 'GET', '/api/svcloom/chat/history')).body.data).toEqual([]);
    await grant(server, poor.accountId, 1);
    expect((await call(poor, 'POST', '/api/svcloom/chat', { message: 'Tell me about the bees' })).status).toBe(200);
    expect((await call(poor, 'GET', '/api/svcloom/credits/wallet')).body.data.balance).toBe(0);
  });

  it('chat counts in the AI-chat bucket (public tier: 5 per window)', async () => {
    const s = await registerUser(server.app);
    const codes: number[] = [];
    for (let i = 0; i < 6; i++)
      codes.push((await call(s, 'POST', '/api/svcloom/chat', { message: 'hello there' })).status);
    expect(codes).toEqual([200, 200, 200, 200, 200, 429]);
    // The refusal's headers describe the AI-chat bucket that refused it, not the all-requests one.
    const refused = await server.app.inject({
      method: 'POST',
      url: '/api/svcloom/chat',
      headers: sessionHeaders(s),
      payload: { message: 'hello there' },
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['x-ratelimit-limit']).toBe('5');
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect((await call(s, 'GET', '/api/svcloom/journal')).status).toBe(200);
  });
});

describe("memoir MCP tools act on the key's account", () => {
  it('journal and chat over MCP with a key holding scope chat', async () => {
    const accountId = await server.account({ tier: 'partner' });
    const key = await server.key({ tier: 'partner', scopes: ['contracts'], ownerId: accountId });
    const chatKey = await server.key({ tier: 'partner', scopes: ['chat'], ownerId: accountId });
    await grant(server, accountId, 5);
    const client = await httpClient(server.url, key);
    expect(await mcpOutcome(client, 'memoir_chat', { message: 'Oslo' })).toMatchObject({
      ok: false,
      body: { error: { code: 'INSUFFICIENT_SCOPE' } },
    });
    expect(await mcpOutcome(client, 'create_journal_entry', { content: 'x' })).toMatchObject({
      ok: false,
      body: { error: { code: 'INSUFFICIENT_SCOPE' } },
    });
    await client.close();
    const chatClient = await httpClient(server.url, chatKey);
    const made = await mcpOutcome(chatClient, 'create_journal_entry', {
      content: 'I sailed to Oslo in 1972 on a cargo ship.',
    });
    expect(made.ok).toBe(true);
    const id = (made.body as { entry: { id: string } }).entry.id;
    const answer = await mcpOutcome(chatClient, 'memoir_chat', { message: 'When did you sail to Oslo?' });
    expect(answer).toMatchObject({ ok: true, body: { mode: 'demo', reply: { citations: [id] } } });
    await chatClient.close();
    // The AI-chat bucket counts over MCP too: a public key gets 5 chats per window.
    const publicAccount = await server.account({ tier: 'public' });
    const publicKey = await server.key({ tier: 'public', scopes: ['chat'], ownerId: publicAccount });
    const pc = await httpClient(server.url, publicKey);
    const outcomes: string[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await mcpOutcome(pc, 'memoir_chat', { message: 'hello there' });
      outcomes.push(r.ok ? 'ok' : (r.body as { error: { code: string } }).error.code);
    }
    await pc.close();
    expect(outcomes).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'RATE_LIMIT_EXCEEDED']);
    // The session user's account does not see it.
    expect((await call(user, 'GET', '/api/svcloom/journal')).body.data.map((e: { id: string }) => e.id)).not.toContain(
      id,
    );
  });
});

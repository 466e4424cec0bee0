import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_TEXT_DETAILS, refuseUnstorableText, unstorableText } from '../../src/tools/text-guard.js';
import { ApiError } from '../../src/core/errors.js';
import type { TestServer } from '../helpers.js';
import { httpClient, mcpOutcome } from '../mcp-clients.js';
import { registerUser, sessionHeaders, type TestSession } from '../support/session.js';
import { MEMOIR_ENGINES, startEngineServer, type MemoirEngine } from './support.js';

// Strings no store keeps the same way (PostgreSQL's jsonb refuses them): the NUL character and unpaired UTF-16
// surrogates. Every tool input is checked once, before its handler: a 400 naming the field, on every engine.

const NUL = 'a\u0000b';
const LONE = 'a\ud800b';
const NUL_REASON = /NUL character/;
const LONE_REASON = /unpaired UTF-16 surrogate/;

describe('unstorableText', () => {
  it('names each offending string by its path, values and keys, in input order', () => {
    expect(unstorableText({ content: NUL })).toEqual([{ field: 'content', reason: expect.stringMatching(NUL_REASON) }]);
    expect(unstorableText({ content: LONE })).toEqual([
      { field: 'content', reason: expect.stringMatching(LONE_REASON) },
    ]);
    expect(unstorableText({ content: 'x\udc00' })).toEqual([
      { field: 'content', reason: expect.stringMatching(LONE_REASON) },
    ]);
    const input = {
      category: 'family',
      answers: [
        { questionId: 'family.parents', answer: 'ok' },
        { questionId: 'family.siblings', answer: LONE },
      ],
      tags: ['fine', NUL],
    };
    expect(unstorableText(input).map((d) => d.field)).toEqual(['answers.1.answer', 'tags.1']);
    // An object key is checked too, shown with U+FFFD in place of the bad character, before whatever its value holds.
    expect(unstorableText({ meta: { ['k\u0000']: NUL } })).toEqual([
      { field: 'meta.k\ufffd', reason: expect.stringMatching(/^the field name .*NUL/) },
      { field: 'meta.k\ufffd', reason: expect.stringMatching(NUL_REASON) },
    ]);
    // A whole input that is a string has the empty path.
    expect(unstorableText(NUL)).toEqual([{ field: '', reason: expect.stringMatching(NUL_REASON) }]);
  });

  it('accepts what is ordinary text: paired surrogates (emoji), a backslash-u sequence, control characters other than NUL', () => {
    expect(
      unstorableText({
        a: '😀 𝔘𝔫𝔦 İı',
        b: '\\u0000 and \\ud800 typed out',
        c: 'tab\there\r\n\u0001',
        d: ['\ud83d\ude00'],
        e: 1,
        f: null,
        g: true,
      }),
    ).toEqual([]);
    expect(unstorableText({ when: new Date(0), bytes: Buffer.from([0]) })).toEqual([]);
  });

  it('lists at most MAX_TEXT_DETAILS, and walks any depth without overflowing the stack', () => {
    expect(unstorableText({ many: Array.from({ length: 500 }, () => NUL) })).toHaveLength(MAX_TEXT_DETAILS);
    let deep: unknown = NUL;
    for (let i = 0; i < 200_000; i++) deep = i % 2 ? [deep] : { a: deep };
    const found = unstorableText(deep);
    expect(found).toHaveLength(1);
    expect(found[0]!.field.split('.')).toHaveLength(200_000);
  });

  it('refuseUnstorableText throws a VALIDATION_ERROR naming the tool and the fields', () => {
    expect(() => refuseUnstorableText('create_journal_entry', { content: 'fine' })).not.toThrow();
    let thrown: unknown;
    try {
      refuseUnstorableText('create_journal_entry', { content: NUL });
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ApiError);
    expect(thrown).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringMatching(/create_journal_entry/),
      details: [{ field: 'content' }],
    });
  });
});

describe.each(MEMOIR_ENGINES)('unstorable text through REST and MCP, %s store', (engine: MemoirEngine) => {
  let server: TestServer;
  let user: TestSession;

  beforeAll(async () => {
    server = await startEngineServer(engine);
    user = await registerUser(server.app);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A REST call whose JSON body is sent as written (JSON.stringify writes a lone surrogate as a \ud800 escape). */
  async function rest(method: 'GET' | 'POST', url: string, body: unknown, auth: 'session' | 'admin') {
    const headers: Record<string, string> =
      auth === 'session' ? sessionHeaders(user) : { authorization: `Bearer ${server.adminKey}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await server.app.inject({
      method,
      url,
      headers,
      ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
    });
    return { status: res.statusCode, body: res.json() };
  }

  it('a journal entry with a NUL or a lone surrogate: 400 naming content, nothing stored (both mounts)', async () => {
    for (const [url, content, reason] of [
      ['/api/v1/svcloom/journal', `My mother ${NUL}`, NUL_REASON],
      ['/api/svcloom/journal', `My mother ${LONE}`, LONE_REASON],
    ] as const) {
      const res = await rest('POST', url, { content, mood: 'happy' }, 'session');
      expect({ url, status: res.status, code: res.body.error?.code }).toEqual({
        url,
        status: 400,
        code: 'VALIDATION_ERROR',
      });
      expect(res.body.error.details).toEqual([{ field: 'content', reason: expect.stringMatching(reason) }]);
    }
    const mood = await rest('POST', '/api/svcloom/journal', { content: 'A fine day.', mood: LONE }, 'session');
    expect(mood.body.error.details).toEqual([{ field: 'mood', reason: expect.stringMatching(LONE_REASON) }]);
    expect((await rest('GET', '/api/svcloom/journal', undefined, 'session')).body.data).toEqual([]);
    // Ordinary text, emoji included, still goes in.
    const ok = await rest('POST', '/api/svcloom/journal', { content: 'We laughed 😀 all day.' }, 'session');
    expect(ok.status).toBe(201);
    expect(
      (await rest('GET', '/api/svcloom/journal', undefined, 'session')).body.data.map(
        (e: { content: string }) => e.content,
      ),
    ).toEqual(['We laughed 😀 all day.']);
  });

  it('a questionnaire answer and an API key name: 400 naming the nested field, nothing stored', async () => {
    const answers = await rest(
      'POST',
      '/api/svcloom/questionnaire/family',
      {
        answers: [
          { questionId: 'family.parents', answer: 'Kind.' },
          { questionId: 'family.siblings', answer: NUL },
        ],
      },
      'session',
    );
    expect(answers.status).toBe(400);
    expect(answers.body.error.details).toEqual([
      { field: 'answers.1.answer', reason: expect.stringMatching(NUL_REASON) },
    ]);
    expect((await rest('GET', '/api/svcloom/questionnaire/family', undefined, 'session')).body.data.answered).toBe(0);

    const before = (await rest('GET', '/api/v1/api-keys', undefined, 'admin')).body.data.length as number;
    for (const name of [NUL, LONE]) {
      const key = await rest('POST', '/api/v1/api-keys', { name, scopes: ['contracts:read'] }, 'admin');
      expect({ status: key.status, code: key.body.error?.code, field: key.body.error?.details?.[0]?.field }).toEqual({
        status: 400,
        code: 'VALIDATION_ERROR',
        field: 'name',
      });
    }
    expect((await rest('GET', '/api/v1/api-keys', undefined, 'admin')).body.data).toHaveLength(before);
  });

  it('over MCP: the same 400 VALIDATION_ERROR naming the field, nothing stored', async () => {
    const accountId = await server.account({ tier: 'partner' });
    const key = await server.key({ tier: 'partner', scopes: ['chat'], ownerId: accountId });
    const client = await httpClient(server.url, key);
    try {
      for (const [content, reason] of [
        [NUL, NUL_REASON],
        [LONE, LONE_REASON],
      ] as const) {
        const out = await mcpOutcome(client, 'create_journal_entry', { content });
        expect(out).toMatchObject({
          ok: false,
          body: {
            success: false,
            error: { code: 'VALIDATION_ERROR', details: [{ field: 'content', reason: expect.stringMatching(reason) }] },
          },
        });
      }
      const answer = await mcpOutcome(client, 'answer_questionnaire', {
        category: 'work',
        answers: [{ questionId: 'work.first-job', answer: LONE }],
      });
      expect(answer).toMatchObject({
        ok: false,
        body: { error: { code: 'VALIDATION_ERROR', details: [{ field: 'answers.0.answer' }] } },
      });
      expect(await mcpOutcome(client, 'list_journal_entries', {})).toMatchObject({ ok: true, body: { items: [] } });
    } finally {
      await client.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRecallSet, measure, retrievalSearch } from '../../bench/memoir-recall.js';
import { demoAnswer } from '../../src/memoir/agent.js';
import { type SourceDoc, searchMemoir } from '../../src/memoir/retrieval.js';
import { sentences } from '../../src/memoir/words.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { registerUser, sessionHeaders, type TestSession } from '../support/session.js';
import { grant } from './support.js';

// The memoir's retrieval against the fixed question set (bench/memoir-questions.json): a floor on a fixed subset,
// no answer to questions nothing answers, and the chat over REST answering from the right passage in demo mode.

const set = loadRecallSet();

describe('memoir retrieval floor (demo mode, no model)', () => {
  it('recall@3 >= 0.9 on every other question of the set, and no answer to an unanswerable one', () => {
    const subset = set.questions.filter((_, i) => i % 2 === 0);
    expect(subset.length).toBeGreaterThanOrEqual(30);
    const figures = measure(set, retrievalSearch(set), subset, set.unanswerable);
    console.log(
      `retrieval subset: recall@3 ${figures.recallAt3.toFixed(2)}, MRR ${figures.mrr.toFixed(2)}, false answers ${figures.falseAnswerRate.toFixed(2)}; misses: ${figures.misses.join(' | ')}`,
    );
    expect(figures.recallAt3).toBeGreaterThanOrEqual(0.9);
    expect(figures.unanswerable).toBeGreaterThanOrEqual(15);
    expect(figures.falseAnswerRate).toBe(0);
  });
});

let server: TestServer;
let user: TestSession;

beforeAll(async () => {
  server = await startTestServer();
  user = await registerUser(server.app);
  await grant(server, user.accountId, 20);
});
afterAll(async () => {
  await server?.close();
});

async function call(method: string, url: string, payload?: unknown) {
  const res = await server.app.inject({
    method: method as 'GET',
    url,
    headers: sessionHeaders(user),
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
  return { status: res.statusCode, body: res.json() };
}

describe('memoir chat over REST answers natural questions from the right passage', () => {
  it('the five questions that used to get "I don\'t know", then one nothing answers', async () => {
    expect((await call('POST', '/api/svcloom/setup', { agentName: set.profile.name })).status).toBe(200);
    const ids = new Map<string, string>([['profile', 'profile']]);
    for (const j of set.journal) {
      const made = await call('POST', '/api/svcloom/journal', { content: j.content });
      expect(made.status).toBe(201);
      ids.set(j.id, made.body.data.entry.id);
    }
    const byCategory = new Map<string, Array<{ questionId: string; answer: string }>>();
    for (const a of set.answers) {
      const c = a.questionId.split('.')[0]!;
      byCategory.set(c, [...(byCategory.get(c) ?? []), a]);
      ids.set(`qa:${a.questionId}`, `qa:${a.questionId}`);
    }
    for (const [c, answers] of byCategory)
      expect((await call('POST', `/api/svcloom/questionnaire/${c}`, { answers })).status).toBe(200);

    for (const q of [
      'Where did you grow up?',
      'What did you do for a living?',
      'What was your husband like?',
      'What is your name?',
      'How did you meet Grandad?',
    ]) {
      const expected = set.questions.find((x) => x.q === q)!.relevant.map((id) => ids.get(id));
      const res = await call('POST', '/api/svcloom/chat', { message: q });
      expect(res.status, q).toBe(200);
      const data = res.body.data;
      expect(data.mode).toBe('demo');
      expect(data.grounded, q).toBe(true);
      expect(expected, q).toContain(data.citations[0].id);
      // The answer quotes the retrieved passages only: each sentence of it is a sentence of a cited excerpt.
      const quoted = new Set(data.citations.flatMap((c: { excerpt: string }) => sentences(c.excerpt)));
      for (const s of sentences(data.reply.content)) expect(quoted, `${q}: ${s}`).toContain(s);
      expect(data.reply.citations).toEqual(data.citations.map((c: { id: string }) => c.id));
    }
  });
});

describe('natural questions about a country, and about who should have a thing', () => {
  const docs: SourceDoc[] = [
    {
      id: 'jrn_lisbon',
      kind: 'journal',
      text: 'In 1998 I spent the summer in Lisbon with my sister Ana. We ate grilled sardines every night and I learned to sail on the Tagus.',
    },
    {
      id: 'jrn_watch',
      kind: 'journal',
      text: 'The watch my father gave me is an Omega from 1962. I want my son Tomas to have it one day.',
    },
    { id: 'jrn_garden', kind: 'journal', text: 'Our garden had three apple trees. My mother made cider from them.' },
    {
      id: 'jrn_frank',
      kind: 'journal',
      text: 'Frank could mend anything except a dripping tap. He whistled when he worked.',
    },
  ];

  it("reads a negative contraction ('couldn't') as the small word it is, not as what the question is about", () => {
    const r = searchMemoir(docs, "What couldn't Frank fix?");
    expect(r.answered).toBe(true);
    expect(r.passages[0]!.id).toBe('jrn_frank');
  });

  it('finds what was written of a city for a question about its country, and not for another country', () => {
    for (const q of ['What did I eat in Portugal?', 'Did you ever go to Portugal?']) {
      const r = searchMemoir(docs, q);
      expect(r.answered, q).toBe(true);
      expect(r.passages[0]!.id, q).toBe('jrn_lisbon');
    }
    for (const q of ['Did you ever go to Japan?', 'What did you eat in Italy?'])
      expect(searchMemoir(docs, q).answered, q).toBe(false);
  });

  it("answers in the person's words with the sentence that refers back to the one matching the question", () => {
    const q = 'Who should get the watch?';
    const r = searchMemoir(docs, q);
    expect(r.passages[0]!.id).toBe('jrn_watch');
    expect(demoAnswer(r.passages.slice(0, 1), q)).toBe(
      'The watch my father gave me is an Omega from 1962. I want my son Tomas to have it one day.',
    );
    // A next sentence that does not refer back is left out; a first sentence is never brought in by the second.
    expect(
      demoAnswer(
        [{ id: 'x', kind: 'journal', text: 'I kept bees for years. Our street was quiet.', score: 1 }],
        'bees',
      ),
    ).toBe('I kept bees for years.');
    expect(
      demoAnswer(
        [{ id: 'x', kind: 'journal', text: 'It rained all week. We kept bees.', score: 1 }],
        'Did you keep bees?',
      ),
    ).toBe('We kept bees.');
  });
});

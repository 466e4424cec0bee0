import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MEMOIR_EMBEDDINGS } from '../../src/memoir/records.js';
import { EMBED_MAX_CHARS, type EmbeddingRecord, embeddable } from '../../src/memoir/embeddings.js';
import { searchMemoir, searchMemoirWithEmbeddings, type SourceDoc } from '../../src/memoir/retrieval.js';
import { SLICE } from '../../src/memoir/turns.js';
import { ticker } from '../support/loop.js';
import type { TestServer } from '../helpers.js';
import { startOpenAiStandin, type OpenAiStandin } from '../support/openai-standin.js';
import { registerUser, sessionHeaders, type TestSession } from '../support/session.js';
import { grant, MEMOIR_ENGINES, startEngineServer } from './support.js';

// Retrieval with embeddings from the configured provider (OpenAIEmbeddings against the local stand-in): the lexical
// and embedding scores combined, each text embedded once and cached in the asking account, answers citing only
// retrieved passages.

/** A toy embedding by concept: texts about the sea point one way, about books another, anything else nowhere. */
const CONCEPTS: Record<string, string[]> = {
  sea: ['sea', 'sailor', 'navy', 'ship', 'ships', 'boat', 'merchant', 'voyage'],
  books: ['book', 'books', 'read', 'library', 'novel'],
};
function byConcept(text: string): number[] {
  const words = text.toLowerCase().match(/[a-z]+/g) ?? [];
  return Object.values(CONCEPTS).map((cues) => words.filter((w) => cues.includes(w)).length);
}
const embedByConcept = async (texts: readonly string[]) => texts.map(byConcept);

const DOCS: SourceDoc[] = [
  { id: 'jrn_sea', kind: 'journal', text: 'David went to sea with the merchant navy before settling in Hull.' },
  { id: 'jrn_books', kind: 'journal', text: 'Susan read every book in the Leeds library by the age of twelve.' },
  { id: 'jrn_garden', kind: 'journal', text: 'Frank grew leeks and sweet peas on the allotment.' },
];

describe('what is sent to be embedded', () => {
  it('is the text, or its first EMBED_MAX_CHARS code units, never half a surrogate pair', () => {
    expect(embeddable('A short passage.')).toBe('A short passage.');
    const long = 'a'.repeat(EMBED_MAX_CHARS + 10);
    expect(embeddable(long)).toBe('a'.repeat(EMBED_MAX_CHARS));
    // An emoji (two code units) across the limit is left out whole.
    const across = `${'a'.repeat(EMBED_MAX_CHARS - 1)}😀${'b'.repeat(10)}`;
    expect(embeddable(across)).toBe('a'.repeat(EMBED_MAX_CHARS - 1));
    const before = `${'a'.repeat(EMBED_MAX_CHARS - 2)}😀${'b'.repeat(10)}`;
    expect(embeddable(before)).toBe(`${'a'.repeat(EMBED_MAX_CHARS - 2)}😀`);
  });
});

describe('combining lexical and embedding scores', () => {
  it(`compares the question with ${2 * SLICE + 5} passages in slices, giving the event loop turns`, async () => {
    const many: SourceDoc[] = Array.from({ length: 2 * SLICE + 5 }, (_, i) => ({
      id: `jrn_${i}`,
      kind: 'journal',
      text: i === 77 ? 'Grandfather sailed on merchant ships.' : `Entry ${i} about the garden.`,
    }));
    const loop = ticker();
    let atEmbedding = -1;
    const found = await searchMemoirWithEmbeddings(many, 'Was anyone a sailor?', async (texts) => {
      // The lexical search's own turns are before this.
      atEmbedding = loop.count();
      return texts.map(byConcept);
    });
    expect(loop.stop() - atEmbedding).toBeGreaterThanOrEqual(2);
    expect(found.passages[0]!.id).toBe('jrn_77');
  });

  it('a paraphrase close in meaning is answered and cited; a question close to nothing is not', async () => {
    const question = 'Was anyone in the family a sailor?';
    // The words alone do not reach it ("sailor" is written nowhere).
    expect(searchMemoir(DOCS, question).answered).toBe(false);
    const found = await searchMemoirWithEmbeddings(DOCS, question, embedByConcept);
    expect(found.answered).toBe(true);
    expect(found.passages[0]!.id).toBe('jrn_sea');
    expect(found.passages.map((p) => p.id)).not.toContain('jrn_garden');
    const nothing = await searchMemoirWithEmbeddings(DOCS, 'What car did you drive?', embedByConcept);
    expect(nothing).toEqual({ passages: [], answered: false });
    // Where the words answer, the lexical score still leads: the embeddings add, they do not replace.
    const lexical = searchMemoir(DOCS, 'Who grew leeks on the allotment?');
    const combined = await searchMemoirWithEmbeddings(DOCS, 'Who grew leeks on the allotment?', embedByConcept);
    expect(combined.passages[0]!.id).toBe(lexical.passages[0]!.id);
    expect(combined.passages[0]!.id).toBe('jrn_garden');
  });
});

describe.each(MEMOIR_ENGINES)('the chat with a provider: embeddings cached per account (%s)', (engine) => {
  let standin: OpenAiStandin;
  let server: TestServer;
  let owner: TestSession;
  let other: TestSession;
  const ids: Record<string, string> = {};

  const chat = (session: TestSession, message: string) =>
    server.app.inject({
      method: 'POST',
      url: '/api/v1/svcloom/chat',
      headers: sessionHeaders(session),
      payload: { message },
    });

  beforeAll(async () => {
    standin = await startOpenAiStandin();
    standin.embedWith(byConcept);
    server = await startEngineServer(engine, {
      config: {
        llm: { baseUrl: standin.baseUrl, apiKey: 'sk-standin', model: 'standin-1', embeddingModel: 'standin-embed' },
        // The chat's own embedding of what was not embedded ahead (that is test/memoir/embed-ahead.test.ts).
        memoirEmbedAhead: false,
      },
    });
    owner = await registerUser(server.app);
    other = await registerUser(server.app);
    await grant(server, owner.accountId, 20);
    await grant(server, other.accountId, 20);
    for (const d of DOCS) {
      for (const who of [owner, other]) {
        const made = await server.app.inject({
          method: 'POST',
          url: '/api/v1/svcloom/journal',
          headers: sessionHeaders(who),
          payload: { content: d.text },
        });
        expect(made.statusCode).toBe(201);
        if (who === owner) ids[d.id] = made.json().data.entry.id;
      }
    }
  });
  afterAll(async () => {
    await server?.close();
    await standin?.close();
  });

  it('embeds the passages and the question once, from the same server, and answers citing only what it retrieved', async () => {
    standin.answerWith((req) => {
      const system = req.messages[0]!.content;
      const cited = [...system.matchAll(/\[(jrn_[A-Z0-9]+)\]/g)].map((m) => m[1]);
      return `I remember it well [${cited[0]}].`;
    });
    const before = standin.embeddingRequests.length;
    const res = await chat(owner, 'Was anyone in the family a sailor?');
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.mode).toBe('model');
    expect(data.citations.map((c: { id: string }) => c.id)).toEqual([ids.jrn_sea]);
    expect(data.reply.citations).toEqual([ids.jrn_sea]);
    // The model was shown the retrieved passages only.
    const prompt = standin.requests.at(-1)!.messages[0]!.content;
    expect(prompt).toContain('merchant navy');
    expect(prompt).not.toContain('sweet peas');
    const asked = standin.embeddingRequests.slice(before);
    expect(asked.map((r) => r.model)).toEqual(['standin-embed']);
    expect(asked[0]!.authorization).toBe('Bearer sk-standin');
    expect(asked[0]!.input).toEqual(expect.arrayContaining(['Was anyone in the family a sailor?', DOCS[0]!.text]));
    const cached = await server.services.store.findBy<EmbeddingRecord>(MEMOIR_EMBEDDINGS, 'ownerId', owner.accountId);
    expect(cached.length).toBe(asked[0]!.input.length);
    expect(JSON.stringify(cached)).not.toContain('merchant navy');

    // Asked again: every vector comes from the cache, nothing is sent.
    const again = await chat(owner, 'Was anyone in the family a sailor?');
    expect(again.json().data.citations.map((c: { id: string }) => c.id)).toEqual([ids.jrn_sea]);
    expect(standin.embeddingRequests.length).toBe(before + 1);
  });

  it("another account's identical texts are embedded for it: the cache is per account", async () => {
    const before = standin.embeddingRequests.length;
    const res = await chat(other, 'Was anyone in the family a sailor?');
    expect(res.statusCode).toBe(200);
    expect(standin.embeddingRequests.length).toBe(before + 1);
    const mine = await server.services.store.findBy<EmbeddingRecord>(MEMOIR_EMBEDDINGS, 'ownerId', other.accountId);
    const theirs = await server.services.store.findBy<EmbeddingRecord>(MEMOIR_EMBEDDINGS, 'ownerId', owner.accountId);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.map((r) => r.id).filter((id) => theirs.some((t) => t.id === id))).toEqual([]);
  });

  it('when the provider cannot embed, the lexical retrieval answers alone', async () => {
    standin.failNext(500, 2);
    const res = await chat(owner, 'Who grew leeks on the allotment?');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.citations.map((c: { id: string }) => c.id)).toEqual([ids.jrn_garden]);
  });
});

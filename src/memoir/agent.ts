/**
 * The memoir agent: answers in the person's voice from their own entries.
 *
 * Retrieval first (src/memoir/retrieval.ts: passages from entries, answers,
 * transcripts, captions and the name, scored on stems, WordNet relations and
 * the question's intent, with a threshold): with nothing relevant the agent
 * says it does not know, without asking any model, so it cannot invent. With
 * passages:
 * - a language model configured (SVC_LLM_BASE_URL, any OpenAI-compatible
 *   server, through langchain's ChatOpenAI): it answers from the passages only,
 *   citing their ids; `mode: "model"`;
 * - otherwise demo mode (`mode: "demo"`): the answer is the person's own
 *   sentences that match the question, deterministically.
 */
import { createRequire } from 'node:module';
import type MiniSearch from 'minisearch';
import { stemmer } from 'stemmer';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { BaseMessage } from '@langchain/core/messages';
import type { Clock } from '../core/clock.js';
import { accountTx } from '../accounts/tenancy.js';
import { ApiError } from '../core/errors.js';
import { newestFirst } from '../core/ids.js';
import { paginateCursor, type CursorCodec } from '../core/pagination.js';
import type { Store } from '../store/port.js';
import { answersInOrder, emptyCharacter, type CharacterModel } from './character.js';
import { type Audience, DEFAULT_AGENT_NAME, journalFor, profileId, readProfile, type ProfileRecord } from './memoir.js';
import {
  MEMOIR_ANSWERS,
  MEMOIR_CHAT,
  MEMOIR_MEDIA,
  MEMOIR_PROFILES,
  memoirId,
  type AnswerRecord,
  type ChatMessageRecord,
  type JournalEntry,
  type MediaRecord,
} from './records.js';
import { withModelPlace } from './model-calls.js';
import { memoirDocs } from './retrieval-docs.js';
import type { Embedder } from './embeddings.js';
import { holdSearch, searchMemoirInTurns, searchMemoirWithEmbeddings, type Passage } from './retrieval.js';
import { unstoredSpouseReadings } from './spouse.js';
import { isStopword } from './stop-words.js';
import { joinSentences, sentences, words } from './words.js';

export interface LlmConfig {
  baseUrl: string;
  apiKey: string;
  model: string;
}

export type AgentMode = 'demo' | 'model';

const models = new WeakMap<LlmConfig, BaseChatModel>();

/**
 * The configured chat model (one client per configuration), or undefined in demo mode. langchain is loaded with the
 * first model, never in demo mode.
 */
export async function chatModelFor(llm: LlmConfig | undefined): Promise<BaseChatModel | undefined> {
  if (!llm) return undefined;
  let model = models.get(llm);
  if (!model) {
    const { ChatOpenAI } = await import('@langchain/openai');
    // (another caller may have made it meanwhile)
    model = models.get(llm);
    if (model) return model;
    model = new ChatOpenAI({
      model: llm.model,
      apiKey: llm.apiKey,
      configuration: { baseURL: llm.baseUrl },
      temperature: 0.2,
      maxRetries: 1,
      timeout: 60_000,
      streaming: true,
    });
    models.set(llm, model);
  }
  return model;
}

export type { Passage } from './retrieval.js';

const term = (t: string): string | null => {
  const w = t.toLowerCase().replace(/'/g, '');
  if (w.length < 2 || isStopword(w)) return null;
  return stemmer(w);
};

/**
 * The former word-match retrieval (minisearch over whole entries and answers, any stem in common), kept as the
 * baseline the recall bench measures the retrieval against.
 */
export function retrieve(
  entries: readonly JournalEntry[],
  answers: readonly AnswerRecord[],
  question: string,
  limit = 3,
): Passage[] {
  const docs = [
    ...entries.map((e) => ({ id: e.id, kind: 'journal' as const, text: e.content })),
    ...answersInOrder(answers).map((x) => ({ id: `qa:${x.questionId}`, kind: 'answer' as const, text: x.answer })),
  ];
  if (docs.length === 0) return [];
  // MiniSearch is loaded with the first retrieval (synchronously: this function is).
  const MiniSearchClass = createRequire(import.meta.url)('minisearch') as typeof MiniSearch;
  const index = new MiniSearchClass<{ id: string; kind: 'journal' | 'answer'; text: string }>({
    fields: ['text'],
    storeFields: ['kind', 'text'],
    processTerm: term,
  });
  index.addAll(docs);
  return index
    .search(question, { combineWith: 'OR' })
    .slice(0, limit)
    .map((r) => ({
      id: String(r.id),
      kind: r.kind as Passage['kind'],
      text: String(r.text),
      score: Math.round(r.score * 1000) / 1000,
    }));
}

const questionStems = (q: string) =>
  new Set(
    words(q)
      .map(term)
      .filter((t): t is string => t !== null),
  );

/** Words by which a sentence goes on about what the one before it named ("I want my son Tomas to have it"). */
const REFERS_BACK = /\b(it|its|he|him|his|she|her|they|them|their|this|these|those|there)\b/i;

/**
 * Demo mode: the person's own sentences that match the question, each with the next sentence of its passage when
 * that one refers back to it (a pronoun, "there"); else each passage's first sentences. "Who should get the watch?"
 * then answers with "The watch ... is an Omega from 1962. I want my son Tomas to have it one day.", not the first
 * sentence alone.
 */
export function demoAnswer(passages: readonly Passage[], question: string): string {
  const stems = questionStems(question);
  const matches = (s: string) => words(s).some((w) => stems.has(term(w) ?? ''));
  const picked: string[] = [];
  for (const p of passages) {
    const all = sentences(p.text);
    const hit = all.map(matches);
    const chosen = all.filter((s, i) => hit[i] || (i > 0 && hit[i - 1] && REFERS_BACK.test(s)));
    for (const s of (chosen.length ? chosen : all).slice(0, 2)) if (!picked.includes(s)) picked.push(s);
  }
  return joinSentences(picked);
}

export const DONT_KNOW = "I don't know. I haven't written anything about that, and I won't guess.";

function characterSummary(name: string, c: CharacterModel): string {
  const list = (xs: Array<{ name: string }>) =>
    xs
      .slice(0, 5)
      .map((x) => x.name)
      .join(', ') || 'not known yet';
  return [
    `Name: ${name}.`,
    `Traits: ${[...c.traits.map((t) => t.name), ...c.modelTraits].slice(0, 6).join(', ') || 'not known yet'}.`,
    `Values: ${list(c.values)}.`,
    `People: ${list(c.people)}. Places: ${list(c.places)}.`,
    `Style: ${c.style.descriptors.join('; ') || 'plain'}.`,
  ].join('\n');
}

export async function groundedMessages(
  name: string,
  character: CharacterModel,
  passages: readonly Passage[],
  question: string,
): Promise<BaseMessage[]> {
  const { HumanMessage, SystemMessage } = await import('@langchain/core/messages');
  const sources = passages.map((p) => `[${p.id}] ${p.text}`).join('\n\n');
  return [
    new SystemMessage(
      `You are ${name}, answering your family in the first person, in your own voice, about your own life.\n` +
        `Use ONLY the memoir passages below; do not add facts that are not in them. After each statement cite the passage id in square brackets, e.g. [${passages[0]?.id ?? 'jrn_...'}].\n` +
        `If the passages do not answer the question, say that you don't know.\n\nAbout you:\n${characterSummary(name, character)}\n\nMemoir passages:\n${sources}`,
    ),
    new HumanMessage(question),
  ];
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content.map((c) => (typeof c === 'string' ? c : typeof c?.text === 'string' ? c.text : '')).join('');
  return '';
}

/** Asks the model, streaming, and returns the whole answer. */
export function askModel(model: BaseChatModel, messages: BaseMessage[], signal?: AbortSignal): Promise<string> {
  return withModelPlace(signal, async () => {
    let out = '';
    for await (const chunk of await model.stream(messages, signal ? { signal } : {})) out += textOf(chunk.content);
    return out.trim();
  });
}

export interface ChatResult {
  mode: AgentMode;
  message: ReturnType<typeof publicMessage>;
  reply: ReturnType<typeof publicMessage>;
  citations: Array<{ id: string; kind: Passage['kind']; excerpt: string }>;
  grounded: boolean;
}

export function publicMessage(m: ChatMessageRecord) {
  return { id: m.id, role: m.role, content: m.content, citations: m.citations, mode: m.mode, createdAt: m.createdAt };
}

/** The memoir's profile and the texts a chat of `audience` searches. */
export async function chatDocs(store: Store, ownerId: string, audience: Audience) {
  const [profile, entries, answers, media] = await Promise.all([
    readProfile(store, ownerId),
    // An heir's question never reaches a private entry.
    journalFor(store, ownerId, audience),
    store.findBy<AnswerRecord>(MEMOIR_ANSWERS, 'ownerId', ownerId),
    store.findBy<MediaRecord>(MEMOIR_MEDIA, 'ownerId', ownerId),
  ]);
  // Nor a private photo or recording: not its caption, its description or its transcript.
  const shown = audience === 'owner' ? media : media.filter((m) => m.private !== true);
  return { profile, docs: memoirDocs({ name: profile?.agentName ?? null, entries, answers, media: shown }) };
}

/** The texts a chat of `audience` searches, as the background embedding takes them (./embed-ahead.ts). */
export async function chatTexts(store: Store, ownerId: string, audience: Audience): Promise<string[]> {
  return (await chatDocs(store, ownerId, audience)).docs.map((d) => d.text);
}

/** The model step of a chat, separated so it can be charged (and refunded when it fails). */
export async function prepareChat(
  store: Store,
  ownerId: string,
  question: string,
  audience: Audience = 'owner',
  embedder?: Embedder,
) {
  const { profile, docs } = await chatDocs(store, ownerId, audience);
  // What the search reads of the texts, read off this thread first and held until the search is done.
  const release = await holdSearch(docs);
  try {
    const found = embedder
      ? await searchMemoirWithEmbeddings(docs, question, (texts) => embedder.embed(texts))
      : await searchMemoirInTurns(docs, question);
    // The owner's entries that do not store what they say of the spouse (written before entries stored it): the
    // caller stores the readings just made (storeSpouseReadings), so that no later start reads those texts again.
    const unstored = audience === 'owner' ? unstoredSpouseReadings(docs) : [];
    return { profile, passages: found.passages, unstored };
  } finally {
    release();
  }
}

export async function chat(
  deps: { store: Store; clock: Clock; model: BaseChatModel | undefined; signal?: AbortSignal | undefined },
  ownerId: string,
  userKey: string,
  question: string,
  prepared?: { profile: ProfileRecord | undefined; passages: Passage[] },
): Promise<ChatResult> {
  const mode: AgentMode = deps.model ? 'model' : 'demo';
  const { profile, passages } = prepared ?? (await prepareChat(deps.store, ownerId, question));
  let content: string;
  let cited: Passage[];
  if (passages.length === 0) {
    content = DONT_KNOW;
    cited = [];
  } else if (!deps.model) {
    content = demoAnswer(passages, question);
    cited = passages;
  } else {
    const name = profile?.agentName ?? DEFAULT_AGENT_NAME;
    const character = profile?.character;
    try {
      content = await askModel(
        deps.model,
        await groundedMessages(name, character ?? emptyCharacter(), passages, question),
        deps.signal,
      );
    } catch (err) {
      // A full queue for the model is SERVICE_BUSY as it stands.
      if (err instanceof ApiError) throw err;
      // The provider's message may carry its address: only a plain statement goes out.
      throw Object.assign(
        new ApiError(
          'SERVICE_UNAVAILABLE',
          'The language model did not answer; nothing was stored. Try again shortly.',
        ),
        { cause: err },
      );
    }
    const named = passages.filter((p) => content.includes(p.id));
    cited = named.length ? named : passages;
    if (!content) content = DONT_KNOW;
  }
  const now = deps.clock.now();
  const mine: ChatMessageRecord = {
    id: memoirId('msg', now.getTime()),
    ownerId,
    userKey,
    role: 'user',
    content: question,
    citations: [],
    mode,
    createdAt: now.toISOString(),
  };
  const reply: ChatMessageRecord = {
    id: memoirId('msg', now.getTime()),
    ownerId,
    userKey,
    role: 'agent',
    content,
    citations: cited.map((p) => p.id),
    mode,
    createdAt: now.toISOString(),
  };
  await deps.store.transact(async (tx) => {
    await tx.put(MEMOIR_CHAT, mine);
    await tx.put(MEMOIR_CHAT, reply);
  });
  return {
    mode,
    message: publicMessage(mine),
    reply: publicMessage(reply),
    citations: cited.map((p) => ({ id: p.id, kind: p.kind, excerpt: p.text.slice(0, 280) })),
    grounded: cited.length > 0,
  };
}

/**
 * One page of a user's chat in the account, newest first, cursor-paged by message id (ids grow with time). The page
 * is chosen among the ids of that user's messages and only its messages are read: a chat grows with every question,
 * and reading the whole account's chat for each page made walking it cost the square of its length.
 */
export async function chatHistory(
  store: Store,
  codec: CursorCodec,
  ownerId: string,
  userKey: string,
  cursor: string | undefined,
  limit: number,
) {
  return store.transact(
    async (raw) => {
      const tx = accountTx(raw, ownerId);
      const page = paginateCursor(newestFirst(await tx.idsBy(MEMOIR_CHAT, 'userKey', userKey)), {
        codec,
        scope: `memoir-chat:${ownerId}:${userKey}`,
        keyOf: (id) => id,
        order: 'desc',
        cursor,
        limit,
      });
      const items: ReturnType<typeof publicMessage>[] = [];
      for (const id of page.items) {
        const m = await tx.get<ChatMessageRecord>(MEMOIR_CHAT, id);
        if (m?.userKey === userKey) items.push(publicMessage(m));
      }
      return { items, pagination: page.pagination };
    },
    { readOnly: true },
  );
}

/** Reads a JSON object out of a model's answer (it may wrap it in prose or a code fence). */
function jsonIn(text: string): Record<string, unknown> | undefined {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start === -1 || end <= start) return undefined;
  try {
    const v = JSON.parse(text.slice(start, end + 1));
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

const cleanLabels = (v: unknown): string[] =>
  Array.isArray(v)
    ? v
        .filter((x): x is string => typeof x === 'string')
        .map((x) =>
          x
            .toLowerCase()
            .replace(/[^\p{L} -]/gu, '')
            .trim(),
        )
        .filter((x) => x.length > 1 && x.length <= 30)
        .slice(0, 8)
    : [];

/**
 * With a model configured, reads traits and values from a new entry and adds them
 * to the character model (kept apart from the extracted ones). A failing or
 * unreadable model answer changes nothing.
 */
export async function refineCharacter(
  deps: { store: Store; clock: Clock; model: BaseChatModel },
  ownerId: string,
  text: string,
): Promise<{ traits: string[]; values: string[] } | undefined> {
  const { HumanMessage, SystemMessage } = await import('@langchain/core/messages');
  const answer = await askModel(deps.model, [
    new SystemMessage(
      'Read this memoir entry. Reply with JSON only: {"traits": [up to 5 single-word personality traits], "values": [up to 5 values the writer holds]}.',
    ),
    new HumanMessage(text.slice(0, 8000)),
  ]);
  const parsed = jsonIn(answer);
  if (!parsed) return undefined;
  const traits = cleanLabels(parsed.traits);
  const values = cleanLabels(parsed.values);
  const now = deps.clock.now().toISOString();
  await deps.store.transact(async (tx) => {
    const p = await tx.get<ProfileRecord>(MEMOIR_PROFILES, profileId(ownerId));
    if (!p) return;
    const merge = (a: string[], b: string[]) => [...new Set([...a, ...b])].slice(-12);
    await tx.put(MEMOIR_PROFILES, {
      ...p,
      character: {
        ...p.character,
        modelTraits: merge(p.character.modelTraits, traits),
        modelValues: merge(p.character.modelValues, values),
      },
      updatedAt: now,
    });
  });
  return { traits, values };
}

/**
 * Memoir:
 * - character model: time to add the 1000th journal entry, the counts kept (incremental) against a full recount of
 *   every entry (what each write cost before the counts were kept), on lowdb and PostgreSQL;
 * - tool input text check (src/tools/text-guard.ts) on large valid memoir inputs, against their zod validation;
 * - voice and avatar: synthesis time per second of speech produced (festival, cmu_us_slt_arctic_hts, plus the ffmpeg
 *   pass) and avatar render time per second of video (ffmpeg, H.264 + AAC). Baseline: the same text through festival
 *   alone.
 *
 * - the main thread while a memoir is read: the longest the event loop was held during an insights call and a chat's
 *   search over STALL_ENTRIES entries, cold (nothing of them read yet) and warm, then with the caches bounded to a
 *   quarter of the memoir. Baseline: the same cold reading of people and places done in the calling thread, as it was
 *   before it moved to a worker.
 *
 * - a chat in a long memoir: LONG_ENTRIES entries of some 2 kB, the first question after a start (nothing of the
 *   memoir read in this process) when the entries carry what they say of the spouse (read as they were written), and
 *   the next questions. Baseline: the same first question over the same entries without it (as written before).
 *
 * - a journal write as the memoir grows: entries of some 2 kB, the write's time (counts kept) at GROWTH_SIZES entries,
 *   and what it stores: the counts record, and the phrase chunks it adds. Baseline: the write at the smallest size.
 *
 * - the first question with a provider (the local OpenAI stand-in) over AHEAD_ENTRIES entries of some 2 kB, their
 *   passages embedded ahead as they were written (src/memoir/embed-ahead.ts). Baseline: the same question when nothing
 *   was embedded ahead, every passage sent to the provider with it.
 *
 * - the catch-up of memoirs written before embedding ahead (src/memoir/embed-catch-up.ts): CATCHUP_ACCOUNTS accounts,
 *   CATCHUP_MEMOIRS of them with memoirs of CATCHUP_ENTRIES entries of some 2 kB, none embedded: the first catch-up,
 *   then the first question in a caught-up memoir (baseline: the first question in a memoir not caught up), then a
 *   catch-up with every memoir marked done (baseline: the same catch-up without the marks, every memoir read again).
 *
 * - the quarter-hourly looks at every account and every armed plan, on lowdb: the catch-up (src/memoir/embed-catch-up.ts)
 *   over SWEEP_ACCOUNTS accounts whose memoirs are all marked done, and the check-in reminders (src/memoir/reminders.ts)
 *   over as many armed plans, none due: the longest the event loop is held. Baselines: the same accounts, and the same
 *   plans, read in one go (what lowdb's all() and findBy() did before they copied in slices).
 *
 *   npx tsx bench/memoir.ts [character] [text] [voice] [stalls] [long] [growth] [ahead] [catchup] [sweep]    (all nine
 *   without arguments)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { ACCOUNTS, newAccount } from '../src/accounts/records.js';
import { accountStore } from '../src/accounts/tenancy.js';
import { STORE_INDEXES } from '../src/app.js';
import type { Clock } from '../src/core/clock.js';
import { createLogger } from '../src/core/log.js';
import { prepareChat } from '../src/memoir/agent.js';
import { EmbedAhead } from '../src/memoir/embed-ahead.js';
import { type CatchUpResult, catchUpAhead } from '../src/memoir/embed-catch-up.js';
import { cachedEmbedder, sizeVectorCache, VECTOR_CACHE_BYTES } from '../src/memoir/embeddings.js';
import { doneMark } from '../src/memoir/embed-marks.js';
import { passageTexts } from '../src/memoir/retrieval.js';
import { MEMOIR_HEIR_PLANS } from '../src/memoir/heir-plans.js';
import { armedPlan } from '../test/support/heir-plans.js';
import { sendDueReminders } from '../src/memoir/reminders.js';
import { spouseReadingFor, type StoredSpouseReading } from '../src/memoir/spouse.js';
import { characterCountsId } from '../src/memoir/counting.js';
import { addJournalEntry } from '../src/memoir/memoir.js';
import { insights } from '../src/memoir/views.js';
import {
  MEMOIR_CHARACTER,
  MEMOIR_AHEAD_MARKS,
  MEMOIR_JOURNAL,
  MEMOIR_PHRASES,
  memoirId,
  type JournalEntry,
} from '../src/memoir/records.js';
import { topPeople, topPlaces } from '../src/memoir/text.js';
import { renderAvatar, speechSeconds, synthesize } from '../src/memoir/voice.js';
import { openLowdbStore, type Store } from '../src/store/index.js';
import { openPostgresStore } from '../src/store/postgres/index.js';
import { answerQuestionnaireTool, createJournalEntryTool } from '../src/tools/memoir/journal.js';
import { unstorableText } from '../src/tools/text-guard.js';
import { dropSchemas, randomSchema, testDatabaseUrl } from '../test/support/engines.js';
import { forgetReadings, withReadingCaches } from '../test/support/reading-caches.js';
import { overriding, wrapTransactions } from '../test/support/store-wrap.js';
import { type StandinProcess, standinProcess } from './standin-child.js';
import { fmt, isMain, median } from './util.js';

// ---------------------------------------------------------------------------
// Character model: the 1000th entry

const ENTRIES = 1000;
const TRIALS = 5;

/** A deterministic pseudo-random life story: ~6 sentences, ~60 words an entry, names, places and a wide vocabulary. */
function storyEntries(n: number): string[] {
  let seed = 20_260_101;
  const rnd = () => (seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const syllables = [
    'ka',
    'lo',
    'mi',
    'ren',
    'sa',
    'tor',
    'vel',
    'an',
    'dir',
    'po',
    'shu',
    'ne',
    'gra',
    'fel',
    'bo',
    'ist',
  ];
  const vocabulary = Array.from({ length: 3000 }, () => pick(syllables) + pick(syllables) + pick(syllables));
  const names = ['Maria', 'Tomas', 'Ingrid', 'Aoife', 'Jonas', 'Lena', 'Pedro', 'Ruth', 'Samir', 'Yuki'];
  const places = ['Lisbon', 'Porto', 'Dublin', 'Oslo', 'New York', 'Cape Town', 'Galway', 'Bergen'];
  const kin = ['my mother', 'my father', 'my brother', 'my late wife', 'my daughter', 'my best friend'];
  const verbs = [
    'remember',
    'worked hard',
    'laughed',
    'prayed',
    'travelled',
    'cooked dinner',
    'helped',
    'saved money',
    'learned',
  ];
  const phrase = () => Array.from({ length: 4 + Math.floor(rnd() * 6) }, () => pick(vocabulary)).join(' ');
  const sentence = (): string => {
    const r = rnd();
    if (r < 0.25)
      return `${pick(['Then', 'Later', 'Once', 'That year'])} ${pick(kin)} and I ${pick(verbs)} in ${pick(places)}, ${phrase()}.`;
    if (r < 0.5) return `I still ${pick(verbs)} with ${pick(names)} when ${phrase()}${pick(['.', '!', '?'])}`;
    if (r < 0.75)
      return `We moved to ${pick(places)} when ${pick(names)} was ${Math.floor(rnd() * 60)} and ${phrase()}.`;
    return `${pick(names)} said ${phrase()} was ${pick(['kind', 'honest', 'free', 'healthy', 'patient', 'funny'])}.`;
  };
  return Array.from({ length: n }, () => Array.from({ length: 6 }, sentence).join(' '));
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

/**
 * With ENTRIES - 1 entries written, alternates: the next entry with the stored counts dropped (counted again from
 * every entry, as each write did before the counts were kept) and the next one with them (its own counts only).
 */
async function characterOn(label: string, raw: Store): Promise<void> {
  const ownerId = 'acct_BENCHMEMOIR0000000000000000';
  const store = accountStore(raw, ownerId);
  let ms = Date.UTC(2026, 0, 1);
  const clock: Clock = { now: () => new Date((ms += 60_000)) };
  const texts = storyEntries(ENTRIES + 2 * TRIALS);
  // The first ENTRIES - 2 straight into the store (no character work), the next through the memoir (one full count).
  for (let i = 0; i < ENTRIES - 2; i += 200) {
    await store.transact(async (tx) => {
      for (let j = i; j < Math.min(i + 200, ENTRIES - 2); j++) {
        const now = clock.now();
        const entry: JournalEntry = {
          id: memoirId('jrn', now.getTime()),
          ownerId,
          authorKey: 'bench',
          content: texts[j]!,
          mood: null,
          promptUsed: null,
          createdAt: now.toISOString(),
        };
        await tx.put(MEMOIR_JOURNAL, entry);
      }
    });
  }
  await addJournalEntry(store, ownerId, 'bench', { content: texts[ENTRIES - 2]! }, clock);
  const full: number[] = [];
  const incremental: number[] = [];
  let next = ENTRIES - 1;
  for (let t = 0; t < TRIALS; t++) {
    // Alternating, so load from elsewhere on the machine hits both alike.
    const counts = await store.get(MEMOIR_CHARACTER, characterCountsId(ownerId));
    await store.delete(MEMOIR_CHARACTER, characterCountsId(ownerId));
    full.push(await timed(() => addJournalEntry(store, ownerId, 'bench', { content: texts[next++]! }, clock)));
    incremental.push(await timed(() => addJournalEntry(store, ownerId, 'bench', { content: texts[next++]! }, clock)));
    if (!counts) throw new Error('no stored counts');
  }
  const record = await store.get(MEMOIR_CHARACTER, characterCountsId(ownerId));
  const f = median(full);
  const i = median(incremental);
  // The counts record is rewritten by every write: its size per character of the texts it counts says how it grows
  // (the phrases' counts are apart, in chunks a write adds to: see the growth part).
  const bytes = JSON.stringify(record).length;
  const chars = texts.slice(0, next).reduce((n, t) => n + t.length, 0);
  console.log(
    `${label}: add entry ~${ENTRIES}: full recount ${fmt(f, 1)} ms, counts kept ${fmt(i, 1)} ms = ${fmt(f / i, 1)}x faster ` +
      `(medians of ${TRIALS}; stored counts ${fmt(bytes / 1024, 0)} KiB, ${fmt(bytes / chars, 1)} bytes per character ` +
      'of the entries, rewritten at each write)',
  );
}

/** Runs `fn` on a new embedded store, then on a new PostgreSQL schema, each removed after. */
async function onBothStores(name: string, fn: (label: string, store: Store) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `svc-bench-${name}-`));
  const lowdb = await openLowdbStore({ dataDir: dir, indexes: STORE_INDEXES });
  try {
    await fn('lowdb     ', lowdb);
  } finally {
    await lowdb.close();
    await rm(dir, { recursive: true, force: true });
  }
  const url = await testDatabaseUrl();
  const schema = randomSchema(`svc_bench_${name}`);
  const store = await openPostgresStore({ url, schema, indexes: STORE_INDEXES });
  try {
    await fn('PostgreSQL', store);
  } finally {
    await store.close();
    await dropSchemas(url, schema);
  }
}

export async function benchMemoirCharacter(): Promise<void> {
  console.log(`\n== memoir: character model, adding the ${ENTRIES}th journal entry ==`);
  await onBothStores('memoir', characterOn);
}

// ---------------------------------------------------------------------------
// Tool input text check

function perCall(fn: () => unknown, minMs = 300): number {
  for (let i = 0; i < 50; i++) fn();
  let n = 0;
  const t = performance.now();
  while (performance.now() - t < minMs) {
    fn();
    n++;
  }
  return ((performance.now() - t) / n) * 1000;
}

export async function benchTextGuard(): Promise<void> {
  console.log(
    '\n== tool input text check (NUL, lone surrogates) on large valid inputs, against parsing and validating them ==',
  );
  const story = storyEntries(200).join(' ');
  const inputs: Array<[string, { safeParse(v: unknown): unknown }, unknown]> = [
    [
      'journal entry, 20,000 ASCII characters',
      createJournalEntryTool.input,
      { content: story.slice(0, 20_000), mood: 'happy' },
    ],
    [
      'journal entry, 20,000 characters with accents and emoji',
      createJournalEntryTool.input,
      { content: `Zürich café 😀 ${story}`.slice(0, 20_000), mood: 'happy' },
    ],
    [
      '50 answers of ~5,000 characters with accents and emoji',
      answerQuestionnaireTool.input,
      {
        category: 'family',
        answers: Array.from({ length: 50 }, (_, i) => ({
          questionId: `family.q${i}`,
          answer: `Zürich 😀 ${story.slice(i * 100, i * 100 + 4980)}`,
        })),
      },
    ],
  ];
  for (const [label, schema, input] of inputs) {
    const result = schema.safeParse(input) as { success: boolean; data?: unknown };
    if (!result.success) throw new Error(`${label}: the input does not validate`);
    const body = JSON.stringify(input);
    const parse = perCall(() => JSON.parse(body));
    const zod = perCall(() => schema.safeParse(input));
    const guard = perCall(() => unstorableText(result.data));
    console.log(
      `${label} (${fmt(body.length / 1024, 0)} KiB of JSON): check ${fmt(guard, 1)} µs; ` +
        `JSON.parse of the body ${fmt(parse, 1)} µs, zod validation ${fmt(zod, 1)} µs (check = ${fmt((guard / parse) * 100, 0)}% of the parse)`,
    );
  }
}

const TEXT =
  'My mother baked bread every Sunday in our kitchen in Lisbon. I still remember the smell of it, and the way she sang while the oven warmed the house. ' +
  'Later I worked at the shipyard for thirty years, and I was grateful for every one of them.';

export async function benchMemoir(parts: readonly string[] = []): Promise<void> {
  const wanted = (p: string) => parts.length === 0 || parts.includes(p);
  if (wanted('character')) await benchMemoirCharacter();
  if (wanted('text')) await benchTextGuard();
  if (wanted('voice')) await benchVoice();
  if (wanted('stalls')) await benchStalls();
  if (wanted('long')) await benchLongMemoir();
  if (wanted('growth')) await benchGrowth();
  if (wanted('ahead')) await benchAhead();
  if (wanted('catchup')) await benchCatchUp();
  if (wanted('sweep')) await benchCatchUpSweep();
}

// ---------------------------------------------------------------------------
// A journal write as the memoir grows

const GROWTH_SIZES = [250, 1000, 2000];

/** A store that adds up the JSON size of what its transactions put in `collection`. */
function measuringPuts(store: Store, collection: string): { store: Store; bytes: () => number } {
  let bytes = 0;
  const measured = wrapTransactions(store, (tx) =>
    overriding(tx, {
      put: (c: string, doc: { id: string }) => {
        if (c === collection) bytes += JSON.stringify(doc).length;
        return tx.put(c, doc);
      },
    }),
  );
  return { store: measured, bytes: () => bytes };
}

async function growthOn(label: string, raw: Store): Promise<void> {
  const ownerId = 'acct_BENCHGROWTH0000000000000000';
  const { store: measured, bytes } = measuringPuts(accountStore(raw, ownerId), MEMOIR_PHRASES);
  const store = accountStore(measured, ownerId);
  let ms = Date.UTC(2026, 0, 1);
  const clock: Clock = { now: () => new Date((ms += 60_000)) };
  const sentences = storyEntries(5 * (GROWTH_SIZES.at(-1)! + GROWTH_SIZES.length * (TRIALS + 1)));
  let used = 0;
  const next = () => sentences.slice(used, (used += 5)).join(' ');
  let held = 0;
  const rows: Array<{ size: number; ms: number; record: number; chunks: number }> = [];
  for (const size of GROWTH_SIZES) {
    // Straight into the store up to the size (the next write counts everything once), then writes through the memoir.
    while (held < size - 1) {
      await raw.transact(async (tx) => {
        for (let j = 0; j < 200 && held < size - 1; j++, held++) {
          const now = clock.now();
          await tx.put<JournalEntry>(MEMOIR_JOURNAL, {
            id: memoirId('jrn', now.getTime()),
            ownerId,
            authorKey: 'bench',
            content: next(),
            mood: null,
            promptUsed: null,
            createdAt: now.toISOString(),
          });
        }
      });
    }
    await addJournalEntry(store, ownerId, 'bench', { content: next() }, clock);
    held++;
    const times: number[] = [];
    const before = bytes();
    for (let t = 0; t < TRIALS; t++) {
      times.push(await timed(() => addJournalEntry(store, ownerId, 'bench', { content: next() }, clock)));
      held++;
    }
    const record = JSON.stringify(await raw.get(MEMOIR_CHARACTER, characterCountsId(ownerId))).length;
    rows.push({ size, ms: median(times), record, chunks: (bytes() - before) / TRIALS });
  }
  const base = rows[0]!.ms;
  for (const r of rows)
    console.log(
      `${label}: ${String(r.size).padStart(5)} entries: a write ${fmt(r.ms, 1)} ms = ${fmt(r.ms / base, 2)}x the write at ` +
        `${rows[0]!.size} (median of ${TRIALS}); counts record ${fmt(r.record / 1024, 0)} KiB, phrase chunks stored ` +
        `${fmt(r.chunks / 1024, 0)} KiB a write (merges included)`,
    );
}

export async function benchGrowth(): Promise<void> {
  console.log('\n== memoir: a journal write as the memoir grows (entries of ~2 kB) ==');
  await onBothStores('growth', growthOn);
}

// ---------------------------------------------------------------------------
// The main thread while a memoir is read

const STALL_ENTRIES = 200;

/** Runs `fn` while watching the event loop: its time, and the longest gap between two turns of the loop meanwhile. */
async function held(fn: () => unknown): Promise<{ ms: number; longest: number }> {
  let last = performance.now();
  let longest = 0;
  let on = true;
  const turn = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (on) setImmediate(turn);
  };
  setImmediate(turn);
  const t = performance.now();
  await fn();
  const ms = performance.now() - t;
  on = false;
  longest = Math.max(longest, performance.now() - last);
  return { ms, longest };
}

async function benchStalls(): Promise<void> {
  console.log(`\n== memoir: the main thread while ${STALL_ENTRIES} journal entries are read ==`);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'svc-bench-memoir-'));
  const raw = await openLowdbStore({ dataDir: dir, indexes: STORE_INDEXES });
  try {
    const story = storyEntries(STALL_ENTRIES);
    // Each account's own texts (a suffix), so that each starts with nothing of them read.
    const owners = [
      'acct_BENCHSTALLINSIGHTS000000000',
      'acct_BENCHSTALLCHAT000000000000',
      'acct_BENCHSTALLBOUNDED000000000',
    ];
    for (const ownerId of owners) {
      const store = accountStore(raw, ownerId);
      await store.transact(async (tx) => {
        for (const [i, text] of story.entries()) {
          const entry: JournalEntry = {
            id: memoirId('jrn', Date.UTC(2026, 0, 1) + i * 60_000),
            ownerId,
            authorKey: 'bench',
            content: `${text} (${ownerId})`,
            mood: null,
            promptUsed: null,
            createdAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
          };
          await tx.put(MEMOIR_JOURNAL, entry);
        }
      });
    }
    const chars = story.reduce((n, t) => n + t.length, 0);
    const baseline = story.map((t) => `${t} (read in this thread)`);
    const inThread = await held(() => {
      topPeople(baseline);
      topPlaces(baseline);
    });
    const line = (label: string, r: { ms: number; longest: number }) =>
      console.log(
        `  ${label.padEnd(34)} ${fmt(r.ms, 0).padStart(5)} ms, the event loop held at most ${fmt(r.longest, 1)} ms ` +
          `(${fmt(r.longest / inThread.longest, 2)}x the baseline's)`,
      );
    console.log(`  ${fmt(chars / 1000, 0)}k characters; baseline: people and places read in this thread, cold`);
    line('baseline, in this thread', inThread);
    const [a, b] = owners.map((o) => accountStore(raw, o)) as [Store, Store];
    line('insights, cold', await held(() => insights(a, owners[0]!)));
    line('insights, warm', await held(() => insights(a, owners[0]!)));
    line('chat search, cold', await held(() => prepareChat(b, owners[1]!, 'Where did I travel with Maria?')));
    line('chat search, warm', await held(() => prepareChat(b, owners[1]!, 'What did my mother cook?')));
    // A memoir four times what the caches keep (as on an instance serving many memoirs, or one very long one): each
    // call reads most of it again in the reading thread, and holds what it read until it is done.
    await withReadingCaches(Math.floor(chars / 4), async () => {
      const c = accountStore(raw, owners[2]!);
      line('insights, caches a quarter of it', await held(() => insights(c, owners[2]!)));
      line('insights, again', await held(() => insights(c, owners[2]!)));
      line('chat search, caches a quarter', await held(() => prepareChat(c, owners[2]!, 'What did my mother cook?')));
    });
  } finally {
    await raw.close();
    await rm(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------
// A chat in a long memoir

const LONG_ENTRIES = 1000;

/** Stores `texts` as `ownerId`'s journal entries a minute apart, with what each says of the spouse when given. */
async function putEntries(
  view: Store,
  ownerId: string,
  texts: readonly string[],
  readings?: readonly StoredSpouseReading[],
): Promise<void> {
  await view.transact(async (tx) => {
    for (const [i, content] of texts.entries()) {
      const at = Date.UTC(2026, 0, 1) + i * 60_000;
      const entry: JournalEntry = {
        id: memoirId('jrn', at),
        ownerId,
        authorKey: 'bench',
        content,
        mood: null,
        promptUsed: null,
        ...(readings ? { spouseReading: readings[i]! } : {}),
        createdAt: new Date(at).toISOString(),
      };
      await tx.put(MEMOIR_JOURNAL, entry);
    }
  });
}

async function benchLongMemoir(): Promise<void> {
  console.log(`\n== memoir: a chat in a memoir of ${LONG_ENTRIES} entries of some 2 kB ==`);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'svc-bench-memoir-'));
  const raw = await openLowdbStore({ dataDir: dir, indexes: STORE_INDEXES });
  try {
    const parts = storyEntries(LONG_ENTRIES * 5);
    const texts = Array.from({ length: LONG_ENTRIES }, (_, i) => parts.slice(i * 5, i * 5 + 5).join(' '));
    const chars = texts.reduce((n, t) => n + t.length, 0);
    const t = performance.now();
    // One at a time, as entries are written (the reading thread's queue takes a hundred jobs an account at most).
    const readings: StoredSpouseReading[] = [];
    for (const text of texts) readings.push(await spouseReadingFor(text));
    const writing = performance.now() - t;
    const owners = ['acct_BENCHLONGMEMOIRBEFORE0000000', 'acct_BENCHLONGMEMOIRSTORED0000000'] as const;
    for (const [o, ownerId] of owners.entries()) {
      await putEntries(accountStore(raw, ownerId), ownerId, texts, o === 1 ? readings : undefined);
    }
    const ask = (ownerId: string, question: string) =>
      held(() => prepareChat(accountStore(raw, ownerId), ownerId, question));
    forgetReadings();
    const before = await ask(owners[0], 'Where did I travel with Maria?');
    forgetReadings();
    const first = await ask(owners[1], 'Where did I travel with Maria?');
    const next = [
      await ask(owners[1], 'What did my mother cook?'),
      await ask(owners[1], 'When did I move to Porto?'),
      await ask(owners[1], 'How did you meet Grandad?'),
    ];
    const line = (label: string, r: { ms: number; longest: number }) =>
      console.log(
        `  ${label.padEnd(46)} ${fmt(r.ms, 0).padStart(6)} ms = ${fmt(r.ms / before.ms, 3)}x the baseline, ` +
          `the event loop held at most ${fmt(r.longest, 0)} ms`,
      );
    console.log(
      `  ${fmt(chars / 1e6, 2)}M characters; reading what the entries say of the spouse as they are written: ` +
        `${fmt(writing / LONG_ENTRIES, 1)} ms an entry, off the main thread`,
    );
    line('baseline: first question, entries without it', before);
    line('first question after a start', first);
    for (const r of next) line('a next question', r);
  } finally {
    await raw.close();
    await rm(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------
// The first question with a provider, passages embedded ahead or not

const AHEAD_ENTRIES = 300;

/**
 * The first question in `ownerId`'s memoir with a provider, as from a start (no vector kept in memory, nothing of the
 * texts read in this process): its time, the event loop's longest hold, and what was sent to the stand-in.
 */
async function firstQuestion(
  standin: StandinProcess,
  llm: { baseUrl: string; apiKey: string; model: string; embeddingModel: string },
  raw: Store,
  ownerId: string,
) {
  sizeVectorCache(VECTOR_CACHE_BYTES);
  forgetReadings();
  const from = (await standin.embeddingInputs()).length;
  const view = accountStore(raw, ownerId);
  const embedder = cachedEmbedder(llm, view, ownerId, () => new Date());
  const r = await held(() => prepareChat(view, ownerId, 'Where did I travel with Maria?', 'owner', embedder));
  const asked = (await standin.embeddingInputs()).slice(from);
  return { ...r, requests: asked.length, inputs: asked.reduce((n, q) => n + q.length, 0) };
}

/**
 * AHEAD_ENTRIES entries of some 2 kB in two accounts, on lowdb and PostgreSQL, against the local OpenAI stand-in in a process of its own (dense
 * vectors of 1,536 dimensions: ./standin-child.ts): one written with its passages
 * embedded ahead (src/memoir/embed-ahead.ts, waited for before asking), one without. The first question in each, from
 * a start (no vector kept in memory, nothing of the texts read). Baseline: the first question without embedding ahead (what it was before).
 */
async function benchAhead(): Promise<void> {
  console.log(`\n== memoir: the first question with a provider, over ${AHEAD_ENTRIES} entries of some 2 kB ==`);
  // In a process of its own: its work (the vectors, megabytes of JSON an answer) is not the service's main thread's.
  const standin = await standinProcess();
  const llm = { baseUrl: standin.baseUrl, apiKey: 'sk-standin', model: 'standin-1', embeddingModel: 'standin-embed' };
  try {
    const parts = storyEntries(AHEAD_ENTRIES * 5);
    const texts = Array.from({ length: AHEAD_ENTRIES }, (_, i) => parts.slice(i * 5, i * 5 + 5).join(' '));
    const passages = texts.reduce((n, t) => n + passageTexts(t).length, 0);
    // What each entry says of the spouse, stored with it as a written entry has it (so neither question reads it).
    const readings: StoredSpouseReading[] = [];
    for (const text of texts) readings.push(await spouseReadingFor(text));
    // langchain's client is loaded by a process's first model call (0.7 s of this thread on a slow machine): before
    // the runs here, so that they show what each batch and question holds.
    await import('@langchain/openai');
    console.log(`  ${passages} passages`);
    await onBothStores('ahead', async (label, raw) => {
      const owners = ['acct_BENCHAHEADWITHOUT000000000000', 'acct_BENCHAHEADWITH000000000000000'] as const;
      const ahead = new EmbedAhead(llm, createLogger('silent'));
      // The vectors kept in memory are the process's, by account and text: those of the other store's run are not
      // this store's.
      sizeVectorCache(VECTOR_CACHE_BYTES);
      let aheadRun = { ms: 0, longest: 0 };
      for (const [o, ownerId] of owners.entries()) {
        const view = accountStore(raw, ownerId);
        await putEntries(view, ownerId, texts, readings);
        if (o === 1)
          aheadRun = await held(async () => {
            for (const content of texts) ahead.note(view, ownerId, [content], () => new Date());
            await ahead.idle();
          });
      }
      const ask = (ownerId: string) => firstQuestion(standin, llm, raw, ownerId);
      const before = await ask(owners[0]);
      const after = await ask(owners[1]);
      console.log(
        `  ${label} embedded ahead as written in ${fmt(aheadRun.ms, 0)} ms in all ` +
          `(${fmt(aheadRun.ms / AHEAD_ENTRIES, 1)} ms an entry, in the background; the event loop held at most ` +
          `${fmt(aheadRun.longest, 0)} ms), ${ahead.left} passages left to the question`,
      );
      for (const [what, r] of [
        ['baseline: first question, nothing embedded ahead', before],
        ['first question, passages embedded ahead', after],
      ] as const)
        console.log(
          `  ${label} ${what.padEnd(50)} ${fmt(r.ms, 0).padStart(6)} ms = ${fmt(r.ms / before.ms, 3)}x the baseline, ` +
            `${r.requests} request(s) to the provider with ${r.inputs} input(s), the event loop held at most ${fmt(r.longest, 0)} ms`,
        );
    });
  } finally {
    sizeVectorCache(VECTOR_CACHE_BYTES);
    await standin.close();
  }
}

// ---------------------------------------------------------------------------
// The catch-up of memoirs written before embedding ahead

const CATCHUP_ACCOUNTS = 1000;
const CATCHUP_MEMOIRS = 10;
const CATCHUP_ENTRIES = 30;

/** See the file's comment: on lowdb and PostgreSQL, the OpenAI stand-in in a process of its own. */
async function benchCatchUp(): Promise<void> {
  console.log(
    `\n== memoir: the catch-up of ${CATCHUP_MEMOIRS} memoirs of ${CATCHUP_ENTRIES} entries among ${CATCHUP_ACCOUNTS} accounts ==`,
  );
  const standin = await standinProcess();
  const llm = { baseUrl: standin.baseUrl, apiKey: 'sk-standin', model: 'standin-1', embeddingModel: 'standin-embed' };
  const clock: Clock = { now: () => new Date() };
  try {
    const parts = storyEntries(CATCHUP_MEMOIRS * CATCHUP_ENTRIES * 5);
    const memoirs = Array.from({ length: CATCHUP_MEMOIRS }, (_, m) =>
      Array.from({ length: CATCHUP_ENTRIES }, (_, i) => {
        const at = (m * CATCHUP_ENTRIES + i) * 5;
        return parts.slice(at, at + 5).join(' ');
      }),
    );
    const readings = new Map<string, StoredSpouseReading>();
    for (const text of memoirs.flat()) readings.set(text, await spouseReadingFor(text));
    await import('@langchain/openai');
    await onBothStores('catchup', async (label, raw) => {
      sizeVectorCache(VECTOR_CACHE_BYTES);
      const ids: string[] = [];
      await raw.transact(async (tx) => {
        for (let i = 0; i < CATCHUP_ACCOUNTS; i++) {
          const account = newAccount({ name: `bench ${i}`, tier: 'partner', kind: 'customer' }, clock);
          ids.push(account.id);
          await tx.put(ACCOUNTS, account);
        }
      });
      // The memoirs spread among the accounts, as they would be.
      const owners = memoirs.map((_, m) => ids[Math.floor(((m + 0.5) * CATCHUP_ACCOUNTS) / CATCHUP_MEMOIRS)]!);
      for (const [m, ownerId] of owners.entries()) {
        const texts = memoirs[m]!;
        await putEntries(
          accountStore(raw, ownerId),
          ownerId,
          texts,
          texts.map((t) => readings.get(t)!),
        );
      }
      const ask = (ownerId: string) => firstQuestion(standin, llm, raw, ownerId);
      const catchUp = async () => {
        sizeVectorCache(VECTOR_CACHE_BYTES);
        const from = (await standin.embeddingInputs()).length;
        let result: CatchUpResult = { caughtUp: 0, skipped: 0, held: 0, left: 0, complete: false };
        const r = await held(async () => {
          result = await catchUpAhead(raw, new EmbedAhead(llm, createLogger('silent')), clock);
        });
        const asked = (await standin.embeddingInputs()).slice(from);
        return { ...r, ...result, requests: asked.length, inputs: asked.reduce((n, q) => n + q.length, 0) };
      };
      // The person waiting on a memoir not caught up (the last one: the catch-up reaches it last).
      const before = await ask(owners.at(-1)!);
      const first = await catchUp();
      const after = await ask(owners[0]!);
      const marked = await catchUp();
      const marks = await raw.all<{ id: string }>(MEMOIR_AHEAD_MARKS);
      await raw.transact(async (tx) => {
        for (const m of marks) await tx.delete(MEMOIR_AHEAD_MARKS, m.id);
      });
      const unmarked = await catchUp();
      const line = (what: string, r: { ms: number; longest: number }, base: number, more: string) =>
        console.log(
          `  ${label} ${what.padEnd(52)} ${fmt(r.ms, 0).padStart(6)} ms = ${fmt(r.ms / base, 3)}x the baseline, ` +
            `the event loop held at most ${fmt(r.longest, 0)} ms; ${more}`,
        );
      const sent = (r: { requests: number; inputs: number }) => `${r.requests} request(s), ${r.inputs} input(s)`;
      line('first catch-up (in the background)', first, first.ms, `${first.caughtUp} memoirs marked, ${sent(first)}`);
      line('baseline: first question, memoir not caught up', before, before.ms, sent(before));
      line('first question, memoir caught up', after, before.ms, sent(after));
      line('baseline: a catch-up, no memoir marked', unmarked, unmarked.ms, sent(unmarked));
      line('a catch-up, every memoir marked', marked, unmarked.ms, `${marked.caughtUp} marked, ${sent(marked)}`);
    });
  } finally {
    sizeVectorCache(VECTOR_CACHE_BYTES);
    await standin.close();
  }
}

// ---------------------------------------------------------------------------
// The catch-up's look at every account

const SWEEP_ACCOUNTS = 100_000;

/** See the file's comment: lowdb only (PostgreSQL's rows come in pages from the socket). */
type Held = Awaited<ReturnType<typeof held>>;

async function benchCatchUpSweep(): Promise<void> {
  console.log(
    `\n== memoir: the quarter-hourly looks at ${SWEEP_ACCOUNTS} accounts (catch-up) and armed plans (reminders), on lowdb ==`,
  );
  const dir = await mkdtemp(path.join(os.tmpdir(), 'svc-bench-sweep-'));
  const raw = await openLowdbStore({ dataDir: dir, indexes: STORE_INDEXES });
  const clock: Clock = { now: () => new Date() };
  const llm = { baseUrl: 'http://127.0.0.1:9', apiKey: 'sk-none', model: 'none', embeddingModel: 'none-embed' };
  try {
    for (let from = 0; from < SWEEP_ACCOUNTS; from += 5_000)
      await raw.transact(async (tx) => {
        for (let i = from; i < Math.min(SWEEP_ACCOUNTS, from + 5_000); i++) {
          const account = newAccount({ name: `bench ${i}`, tier: 'public', kind: 'customer' }, clock);
          await tx.put(ACCOUNTS, account);
          await tx.put(MEMOIR_AHEAD_MARKS, doneMark(account.id, 'own', llm.embeddingModel, clock.now()));
        }
      });
    // And as many armed plans, none due: the check-in reminders look at each (src/memoir/reminders.ts).
    const at = clock.now().toISOString();
    for (let from = 0; from < SWEEP_ACCOUNTS; from += 5_000)
      await raw.transact(async (tx) => {
        for (let i = from; i < Math.min(SWEEP_ACCOUNTS, from + 5_000); i++)
          await tx.put(MEMOIR_HEIR_PLANS, armedPlan(i, at));
      });
    const rounds = {
      accounts: [] as Held[],
      catchUp: [] as Held[],
      plans: [] as Held[],
      reminders: [] as Held[],
    };
    for (let round = 0; round < 5; round++) {
      rounds.accounts.push(await held(() => raw.transact((tx) => tx.all(ACCOUNTS), { readOnly: true })));
      rounds.catchUp.push(await held(() => catchUpAhead(raw, new EmbedAhead(llm, createLogger('silent')), clock)));
      rounds.plans.push(
        await held(() => raw.transact((tx) => tx.findBy(MEMOIR_HEIR_PLANS, 'state', 'armed'), { readOnly: true })),
      );
      rounds.reminders.push(await held(() => sendDueReminders(raw, clock)));
    }
    const longest = (rs: Held[]) => median(rs.map((r) => r.longest));
    const line = (what: string, rs: Held[], base?: Held[]) =>
      console.log(
        `  ${what.padEnd(44)} the event loop held ${fmt(longest(rs), 0).padStart(4)} ms` +
          (base
            ? ` = ${fmt(longest(rs) / longest(base), 3)}x the baseline; ${fmt(median(rs.map((r) => r.ms)), 0)} ms in all`
            : ' (median of 5)'),
      );
    line('baseline: the accounts read in one go', rounds.accounts);
    line('a catch-up, every memoir marked', rounds.catchUp, rounds.accounts);
    line('baseline: the armed plans read in one go', rounds.plans);
    line('the check-in reminders, none due', rounds.reminders, rounds.plans);
  } finally {
    await raw.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function benchVoice(): Promise<void> {
  console.log('\n== memoir: voice synthesis and avatar (per second of output) ==');
  // Warm-up: festival loads its voice on the first run.
  await speechSeconds('warm up');
  let t = performance.now();
  const base = await speechSeconds(TEXT);
  const baseMs = performance.now() - t;
  console.log(
    `festival alone (baseline): ${fmt(base)} s of speech in ${fmt(baseMs, 0)} ms = ${fmt(baseMs / base, 1)} ms per second of audio`,
  );
  for (const [label, factor, format] of [
    ['WAV, base voice', 1, 'wav'],
    ['WAV, matched style (pitch x0.85)', 0.85, 'wav'],
    ['Ogg Opus, matched style', 0.85, 'opus'],
  ] as const) {
    t = performance.now();
    const s = await synthesize(TEXT, { factor, format });
    const ms = performance.now() - t;
    console.log(
      `synthesis ${label}: ${fmt(s.durationSeconds)} s in ${fmt(ms, 0)} ms = ${fmt(ms / s.durationSeconds, 1)} ms per second of audio`,
    );
  }
  const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#aa5533' } })
    .jpeg()
    .toBuffer();
  const speech = await synthesize(TEXT, { factor: 1, format: 'wav' });
  for (const seconds of [5, 15]) {
    t = performance.now();
    const mp4 = await renderAvatar(photo, speech.audio, { seconds, style: 'stylized' });
    const ms = performance.now() - t;
    console.log(
      `avatar ${seconds} s (480x480, 25 fps): ${fmt(ms, 0)} ms = ${fmt(ms / seconds, 1)} ms per second of video, ${fmt(mp4.length / 1024, 0)} KiB`,
    );
  }
}

if (isMain(import.meta.url)) await benchMemoir(process.argv.slice(2));

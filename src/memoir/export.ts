/**
 * The memoir as a book, a keepsake for the person and their heirs: titled
 * with the person's name, a contents list, then chapters by time of life (the
 * entries dated by when they happened, by decade) and by theme (the undated
 * entries and the questionnaire answers), photos inline with their captions
 * and recordings with their transcripts. Nothing internal is printed: no
 * record ids, and no upload dates (an entry is dated only by when it
 * happened). Markdown gives the text; the PDF (./book-pdf.ts) also draws the
 * photos. Everything is read through the caller's tenant-bound
 * store (or an heir's open share), so another account's memoir cannot appear;
 * the heirs' book leaves out entries and media the person kept private.
 */
import type { Store } from '../store/port.js';
import { readProfile } from './memoir.js';
import { cachedInference, mediaFile } from './media.js';
import { CATEGORIES } from './questions.js';
import {
  MEMOIR_ANSWERS,
  MEMOIR_JOURNAL,
  MEMOIR_MEDIA,
  type AnswerRecord,
  type JournalEntry,
  type MediaRecord,
} from './records.js';
import { themesOf } from './text.js';

export const EXPORT_FORMATS = ['md', 'pdf'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The title of a book whose person has not been named (in the memoir settings or the account). */
export const UNNAMED_TITLE = 'A memoir';

export interface BookEntry {
  /** When it happened, as the reader sees it ("14 March 1962", "1962", "The 1960s"), or null when undated. */
  when: string | null;
  mood: string | null;
  prompt: string | null;
  content: string;
}

export interface BookPhoto {
  caption: string;
  /** When it was taken (from the photo's own metadata), as the reader sees it, or null. */
  when: string | null;
  file: string;
}

export interface BookRecording {
  caption: string;
  kind: 'audio' | 'video';
  seconds: number | null;
  transcript: string | null;
}

export interface BookChapter {
  /** "time": a decade of the person's life; "theme": a subject. */
  part: 'time' | 'theme';
  title: string;
  entries: BookEntry[];
  answers: Array<{ question: string; answer: string }>;
  photos: BookPhoto[];
  recordings: BookRecording[];
}

export interface MemoirBook {
  /** The person's name. */
  title: string;
  /** The years the dated memories span ("1948 to 1999"), or null. */
  span: string | null;
  generatedAt: string;
  chapters: BookChapter[];
}

/** The book's chapters by theme, in order: the journal themes (src/memoir/text.ts) and questionnaire categories each gathers. */
const THEME_CHAPTERS: Array<{ title: string; themes: string[]; categories: string[] }> = [
  { title: 'Childhood', themes: ['childhood'], categories: ['childhood'] },
  { title: 'Family', themes: ['family'], categories: ['family'] },
  { title: 'Love and friendship', themes: ['love'], categories: ['love'] },
  { title: 'Work', themes: ['work', 'money'], categories: ['work'] },
  { title: 'Home and places', themes: ['home', 'travel', 'nature'], categories: ['places'] },
  { title: 'Food and the table', themes: ['food'], categories: [] },
  { title: 'Faith and meaning', themes: ['faith'], categories: ['faith'] },
  { title: 'Hard times', themes: ['loss', 'health'], categories: [] },
  { title: 'Values', themes: [], categories: ['values'] },
  { title: 'Advice', themes: [], categories: ['advice'] },
  { title: 'Legacy', themes: [], categories: ['legacy'] },
  { title: 'More memories', themes: [], categories: [] },
];
const MORE_MEMORIES = THEME_CHAPTERS.length - 1;

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** A `happenedAt` (YYYY-MM-DD, YYYY or YYYYs) read: its decade, a key that sorts it, and how the reader sees it; undefined when it is none of these. */
export function readWhen(value: unknown): { decade: number; key: string; label: string } | undefined {
  if (typeof value !== 'string') return undefined;
  let m = /^(\d{4})s$/.exec(value);
  if (m) {
    const decade = Math.floor(Number(m[1]) / 10) * 10;
    return { decade, key: `${decade}`, label: `The ${decade}s` };
  }
  m = /^(\d{4})$/.exec(value);
  if (m) return { decade: Math.floor(Number(m[1]) / 10) * 10, key: value, label: value };
  m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (m) {
    const month = MONTHS[Number(m[2]) - 1];
    if (!month) return undefined;
    return {
      decade: Math.floor(Number(m[1]) / 10) * 10,
      key: value,
      label: `${Number(m[3])} ${month} ${m[1]}`,
    };
  }
  return undefined;
}

/** When a photo was taken, from its EXIF date (kept with a paid inference), as a happenedAt-like day. */
function takenDay(m: MediaRecord): string | undefined {
  const taken = (cachedInference(m, 'plain') ?? cachedInference(m, 'gps'))?.takenAt;
  return typeof taken === 'string' && /^\d{4}-\d{2}-\d{2}/.test(taken) ? taken.slice(0, 10) : undefined;
}

/** A caption from a file name the client gave, when it reads as words ("summer_at_the_lake.jpg": "Summer at the lake"); camera names (IMG_1234) give none. */
export function captionFromName(name: string | null): string | null {
  if (!name) return null;
  const words = name
    .replace(/\.[A-Za-z0-9]{1,5}$/, '')
    .replace(/[_\-.]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (
    !/\p{L}{3,}/u.test(words) ||
    /^(img|dsc|dscn|dcim|pxl|photo|image|vid|video|audio|rec|recording|mov|wa)\s*\d/i.test(words)
  )
    return null;
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** What a media item's stored inference says: a photo's description, or the transcript of a recording. */
function inferred(m: MediaRecord, field: 'description' | 'transcript'): string | null {
  for (const key of ['plain', 'gps'] as const) {
    const value = (cachedInference(m, key) as Record<string, unknown> | undefined)?.[field];
    if (typeof value === 'string' && value.trim()) return value.trim();
  }
  return null;
}

/** The caption the owner wrote for a media item, if any. */
function ownCaption(m: MediaRecord): string | null {
  return typeof m.caption === 'string' && m.caption.trim() ? m.caption.trim() : null;
}

export interface BookOptions {
  /** A name for the title when the memoir settings give none (the account's name); ignored when it looks like an email address. */
  fallbackName?: string | null | undefined;
  /** The heirs' book: entries and media marked private are left out. */
  forHeirs?: boolean;
}

/** Collects the book from the person's records. */
export async function memoirBook(
  store: Store,
  ownerId: string,
  dataDir: string,
  now: Date,
  opts: BookOptions = {},
): Promise<MemoirBook> {
  const [profile, allEntries, answers, allMedia] = await Promise.all([
    readProfile(store, ownerId),
    store.findBy<JournalEntry>(MEMOIR_JOURNAL, 'ownerId', ownerId),
    store.findBy<AnswerRecord>(MEMOIR_ANSWERS, 'ownerId', ownerId),
    store.findBy<MediaRecord>(MEMOIR_MEDIA, 'ownerId', ownerId),
  ]);
  const shown = (r: { [field: string]: unknown }) => !(opts.forHeirs && r.private === true);
  const entries = allEntries.filter(shown).sort((a, b) => (a.id < b.id ? -1 : 1));
  const media = allMedia.filter(shown).sort((a, b) => (a.id < b.id ? -1 : 1));

  const decades = new Map<number, Array<{ key: string; entry: BookEntry }>>();
  const decadePhotos = new Map<number, Array<{ key: string; photo: BookPhoto }>>();
  const themed: BookChapter[] = THEME_CHAPTERS.map((c) => ({
    part: 'theme',
    title: c.title,
    entries: [],
    answers: [],
    photos: [],
    recordings: [],
  }));
  const chapterOfTheme = (text: string): number => {
    const theme = themesOf(text)[0];
    const i = theme ? THEME_CHAPTERS.findIndex((c) => c.themes.includes(theme)) : -1;
    return i < 0 ? MORE_MEMORIES : i;
  };
  for (const e of entries) {
    const when = readWhen(e.happenedAt);
    const entry: BookEntry = { when: when?.label ?? null, mood: e.mood, prompt: e.promptUsed, content: e.content };
    if (when) {
      const list = decades.get(when.decade) ?? [];
      list.push({ key: when.key, entry });
      decades.set(when.decade, list);
    } else {
      themed[chapterOfTheme(e.content)]!.entries.push(entry);
    }
  }
  const byCategory = new Map(answers.map((a) => [a.category, a]));
  THEME_CHAPTERS.forEach((c, i) => {
    for (const id of c.categories) {
      const category = CATEGORIES.find((k) => k.id === id);
      for (const q of category?.questions ?? []) {
        const a = byCategory.get(id)?.answers[q.id];
        if (a) themed[i]!.answers.push({ question: q.text, answer: a.answer });
      }
    }
  });
  const loosePhotos: BookPhoto[] = [];
  const recordings: BookRecording[] = [];
  for (const m of media) {
    if (m.kind === 'photo') {
      const day = takenDay(m);
      const when = readWhen(day);
      const caption = ownCaption(m) ?? inferred(m, 'description') ?? captionFromName(m.originalName) ?? 'A photograph';
      const photo: BookPhoto = { caption, when: when?.label ?? null, file: mediaFile(dataDir, m) };
      // A dated photo sits with the memories of its decade; one whose caption has a theme, in that chapter.
      if (when) {
        const list = decadePhotos.get(when.decade) ?? [];
        list.push({ key: when.key, photo });
        decadePhotos.set(when.decade, list);
      } else {
        const i = chapterOfTheme(caption);
        if (i === MORE_MEMORIES) loosePhotos.push(photo);
        else themed[i]!.photos.push(photo);
      }
    } else {
      recordings.push({
        caption: ownCaption(m) ?? captionFromName(m.originalName) ?? (m.kind === 'audio' ? 'A recording' : 'A video'),
        kind: m.kind,
        seconds: m.durationSeconds ?? null,
        transcript: inferred(m, 'transcript'),
      });
    }
  }
  const byKey = <T extends { key: string }>(a: T, b: T) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
  const years = [...new Set([...decades.keys(), ...decadePhotos.keys()])].sort((a, b) => a - b);
  const timeChapters: BookChapter[] = years.map((decade) => ({
    part: 'time',
    title: `The ${decade}s`,
    entries: (decades.get(decade) ?? []).sort(byKey).map((x) => x.entry),
    answers: [],
    photos: (decadePhotos.get(decade) ?? []).sort(byKey).map((x) => x.photo),
    recordings: [],
  }));
  const extra: BookChapter[] = [];
  if (loosePhotos.length)
    extra.push({ part: 'theme', title: 'Photographs', entries: [], answers: [], photos: loosePhotos, recordings: [] });
  if (recordings.length)
    extra.push({ part: 'theme', title: 'In their own voice', entries: [], answers: [], photos: [], recordings });
  const datedYears = entries
    .map((e) => readWhen(e.happenedAt)?.key.slice(0, 4))
    .filter((y): y is string => !!y)
    .sort();
  const first = datedYears[0];
  const last = datedYears[datedYears.length - 1];
  return {
    title: personTitle(profile?.personName, opts.fallbackName),
    span: first && last && first !== last ? `${first} to ${last}` : (first ?? null),
    generatedAt: now.toISOString(),
    chapters: [
      ...timeChapters,
      ...themed.filter((c) => c.entries.length || c.answers.length || c.photos.length),
      ...extra,
    ],
  };
}

/** The person's name for the title: the memoir settings' name, else the account's name when it is not an email address. */
function personTitle(personName: unknown, fallback: string | null | undefined): string {
  if (typeof personName === 'string' && personName.trim()) return personName.trim();
  if (fallback?.trim() && !fallback.includes('@')) return fallback.trim();
  return UNNAMED_TITLE;
}

const plain = (text: string) => text.replace(/[\r\n]+/g, ' ');
const escapeMd = (text: string) => text.replace(/[\\`*_[\]<>#|]/g, (c) => `\\${c}`);

/** Minutes and seconds of a recording ("2 min 5 s"). */
function duration(seconds: number | null): string | null {
  if (seconds === null || !Number.isFinite(seconds)) return null;
  const s = Math.round(seconds);
  return s >= 60 ? `${Math.floor(s / 60)} min${s % 60 ? ` ${s % 60} s` : ''}` : `${s} s`;
}

/** The line above an entry: when it happened and the mood, or null when it has neither. */
export function entryLine(e: BookEntry): string | null {
  const parts = [e.when, e.mood ? `feeling ${e.mood}` : null].filter(Boolean);
  return parts.length ? parts.join(' · ') : null;
}

export const recordingLine = (r: BookRecording) =>
  [r.kind === 'audio' ? 'Recording' : 'Video', duration(r.seconds)].filter(Boolean).join(', ');

export const NO_TRANSCRIPT = 'No transcript has been made of this recording yet.';

/** Markdown: headings are the book's own; the person's text is quoted so it cannot add headings or links of its own kind. */
export function bookMarkdown(book: MemoirBook): string {
  const quote = (text: string) =>
    text
      .split(/\r?\n/)
      .map((line) => `> ${escapeMd(line)}`)
      .join('\n');
  const out: string[] = [`# ${escapeMd(plain(book.title))}`, '', `_A memoir${book.span ? `, ${book.span}` : ''}._`, ''];
  if (!book.chapters.length) out.push('_Nothing has been written yet._', '');
  else {
    out.push('## Contents', '');
    for (const c of book.chapters) out.push(`- ${escapeMd(c.title)}`);
    out.push('');
  }
  for (const c of book.chapters) {
    out.push(`## ${escapeMd(c.title)}`, '');
    for (const e of c.entries) {
      const line = entryLine(e);
      if (line) out.push(`### ${escapeMd(plain(line))}`, '');
      if (e.prompt) out.push(`_In answer to:_ ${escapeMd(plain(e.prompt))}`, '');
      out.push(quote(e.content), '');
    }
    for (const a of c.answers) out.push(`**${escapeMd(plain(a.question))}**`, '', quote(a.answer), '');
    for (const p of c.photos)
      out.push(`_Photograph: ${escapeMd(plain(p.caption))}${p.when ? ` (${escapeMd(p.when)})` : ''}_`, '');
    for (const r of c.recordings) {
      out.push(`**${escapeMd(plain(r.caption))}** (${recordingLine(r)})`, '');
      out.push(r.transcript ? quote(r.transcript) : `_${NO_TRANSCRIPT}_`, '');
    }
  }
  return out.join('\n');
}

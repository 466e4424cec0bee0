/**
 * Deterministic reading of a person's own words: names of people and places,
 * traits and values from small lexicons, recurring phrases, themes and style.
 * Hand-written on purpose: the lexicons are short and domain-specific (a life
 * story), the rules must be predictable and testable, and no NLP package in
 * the registry ships an English named-entity model that works offline.
 */
import { eng } from 'stopword';

const STOP = new Set<string>(eng);
for (const w of ['im', 'ive', 'id', 'dont', 'didnt', 'cant', 'wont', 'isnt', 'wasnt', 'its', 'thats', 'also', 'really', 'just', 'would', 'could', 'one', 'get', 'got']) STOP.add(w);

export function isStopword(word: string): boolean {
  return STOP.has(word.toLowerCase());
}

/** Lower-case word tokens (letters, digits, apostrophes inside words). */
export function words(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu) ?? []).map((w) => w.replace(/'/g, ''));
}

export function contentWords(text: string): string[] {
  return words(text).filter((w) => w.length > 2 && !STOP.has(w) && !/^\d+$/.test(w));
}

export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

const NOT_NAMES = new Set(
  (
    'I Im Ive Id My Me We Our The A An And But Or So If When Then This That These Those It Its He She They His Her Their There Here What Who Why How Yes No Oh Mr Mrs Ms Dr ' +
    'Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April May June July August September October November December ' +
    'God Lord Christmas Easter Ramadan Eid Sunday English French Spanish German Today Yesterday Tomorrow Dear'
  ).split(' '),
);

const KIN = [
  'mother', 'father', 'mom', 'mum', 'dad', 'grandmother', 'grandfather', 'grandma', 'grandpa', 'granny', 'wife', 'husband', 'son', 'daughter',
  'brother', 'sister', 'uncle', 'aunt', 'cousin', 'grandson', 'granddaughter', 'partner', 'friend', 'teacher',
];
const KIN_RE = new RegExp(`\\bmy (?:(?:late|dear|best|older|younger|little|big|eldest) )?(${KIN.join('|')})s?\\b`, 'gi');
const PLACE_PREP = /\b(?:in|at|from|to|near|visited|visit|moved to|lived in|born in)\s+((?:[A-Z][\p{L}]+)(?:\s+[A-Z][\p{L}]+){0,2})/gu;
const CAPITALISED = /\b([A-Z][\p{Ll}]+(?:\s+[A-Z][\p{Ll}]+)?)/gmu;

export interface Mention {
  name: string;
  count: number;
}

function tally(map: Map<string, number>, key: string, by = 1): void {
  map.set(key, (map.get(key) ?? 0) + by);
}

function ranked(map: Map<string, number>, limit: number): Mention[] {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, limit)
    .map(([name, count]) => ({ name, count }));
}

/** Places: capitalised words after "in", "from", "moved to"... */
export function placesIn(text: string): string[] {
  return [...text.matchAll(PLACE_PREP)].map((m) => m[1]!).filter((p) => !NOT_NAMES.has(p.split(/\s+/)[0]!));
}

/** People: kin ("my mother") and capitalised names that are not sentence starts, places or common words. */
export function peopleIn(text: string): string[] {
  const places = new Set(placesIn(text));
  const out: string[] = [];
  for (const m of text.matchAll(KIN_RE)) out.push(`my ${m[1]!.toLowerCase()}`);
  for (const m of text.matchAll(CAPITALISED)) {
    const name = m[1]!;
    const first = name.split(/\s+/)[0]!;
    if (NOT_NAMES.has(first) || places.has(name) || [...places].some((p) => p.startsWith(first))) continue;
    // A word capitalised only because it starts a line or follows a quote is not a name.
    const before = text.slice(Math.max(0, m.index! - 2), m.index!);
    const sentenceStart = m.index === 0 || /[.!?"“]\s*$/.test(before);
    // ...unless it is named with "and I" ("Maria and I married") or appears capitalised mid-sentence elsewhere.
    if (sentenceStart && !/^\s+and (?:I|me)\b/.test(text.slice(m.index! + name.length)) && !midSentence(text, name, m.index!)) continue;
    out.push(name);
  }
  return out;
}

function midSentence(text: string, name: string, except: number): boolean {
  for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + 1)) {
    if (at !== except && at > 0 && !/[.!?"“]\s*$/.test(text.slice(Math.max(0, at - 2), at))) return true;
  }
  return false;
}

export function topPeople(texts: readonly string[], limit = 10): Mention[] {
  const map = new Map<string, number>();
  for (const t of texts) for (const p of peopleIn(t)) tally(map, p);
  return ranked(map, limit);
}

export function topPlaces(texts: readonly string[], limit = 10): Mention[] {
  const map = new Map<string, number>();
  for (const t of texts) for (const p of placesIn(t)) tally(map, p);
  return ranked(map, limit);
}

/** Trait → the word stems that show it. */
const TRAITS: Record<string, string[]> = {
  grateful: ['grateful', 'thankful', 'blessed', 'gratitude'],
  curious: ['curious', 'wonder', 'learn', 'learned', 'learning', 'question'],
  hardworking: ['worked hard', 'hard work', 'work hard', 'diligent', 'long hours'],
  generous: ['generous', 'gave', 'give', 'giving', 'share', 'shared', 'helped'],
  patient: ['patient', 'patience', 'waited', 'calm'],
  humorous: ['laugh', 'laughed', 'joke', 'funny', 'humor', 'humour'],
  adventurous: ['adventure', 'travel', 'travelled', 'traveled', 'explore', 'journey'],
  caring: ['care', 'cared', 'caring', 'looked after', 'love', 'loved'],
  resilient: ['survived', 'overcame', 'kept going', 'never gave up', 'hard times', 'struggle'],
  devout: ['pray', 'prayed', 'prayer', 'faith', 'church', 'mosque', 'temple', 'synagogue'],
  practical: ['fixed', 'built', 'repair', 'saved money', 'garden'],
  reflective: ['remember', 'think back', 'looking back', 'wonder', 'realise', 'realize'],
};

/** Value → the words that show it. */
const VALUES: Record<string, string[]> = {
  family: ['family', 'children', 'kids', 'grandchildren', 'parents'],
  faith: ['faith', 'god', 'prayer', 'church', 'belief'],
  honesty: ['honest', 'honesty', 'truth', 'lie', 'lied'],
  education: ['school', 'education', 'study', 'books', 'read', 'university', 'college'],
  'hard work': ['hard work', 'worked hard', 'work hard', 'effort'],
  kindness: ['kind', 'kindness', 'helped', 'help others'],
  community: ['community', 'neighbours', 'neighbors', 'village', 'volunteer'],
  tradition: ['tradition', 'traditions', 'heritage', 'customs'],
  freedom: ['freedom', 'free', 'independence'],
  health: ['health', 'healthy', 'exercise'],
  thrift: ['save', 'saved', 'savings', 'thrift', 'waste'],
};

/** Theme → words, for insights and topics. */
const THEMES: Record<string, string[]> = {
  family: ['mother', 'father', 'mom', 'dad', 'family', 'children', 'son', 'daughter', 'brother', 'sister', 'wife', 'husband', 'grandchildren'],
  work: ['work', 'job', 'career', 'office', 'boss', 'business', 'farm', 'factory', 'colleagues'],
  childhood: ['childhood', 'child', 'kid', 'school', 'played', 'young', 'boy', 'girl'],
  faith: ['faith', 'god', 'pray', 'church', 'mosque', 'temple', 'believe'],
  travel: ['travel', 'trip', 'journey', 'abroad', 'flew', 'train', 'visited'],
  love: ['love', 'loved', 'married', 'wedding', 'romance'],
  loss: ['died', 'death', 'funeral', 'lost', 'grief', 'passed away', 'miss'],
  home: ['home', 'house', 'garden', 'kitchen', 'village', 'town'],
  food: ['cook', 'cooked', 'bread', 'meal', 'dinner', 'recipe', 'food'],
  health: ['health', 'hospital', 'doctor', 'ill', 'sick', 'recovered'],
  money: ['money', 'savings', 'paid', 'bought', 'debt', 'poor', 'rich'],
  nature: ['sea', 'river', 'mountain', 'forest', 'trees', 'fields', 'birds'],
};

function lexiconCounts(lexicon: Record<string, string[]>, texts: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const text of texts) {
    const lower = ` ${words(text).join(' ')} `;
    for (const [label, cues] of Object.entries(lexicon)) {
      let n = 0;
      for (const cue of cues) {
        let at = lower.indexOf(` ${cue} `);
        while (at !== -1) {
          n++;
          at = lower.indexOf(` ${cue} `, at + 1);
        }
      }
      if (n > 0) tally(counts, label, n);
    }
  }
  return counts;
}

export const traitsIn = (texts: readonly string[], limit = 8) => ranked(lexiconCounts(TRAITS, texts), limit);
export const valuesIn = (texts: readonly string[], limit = 8) => ranked(lexiconCounts(VALUES, texts), limit);
export const themesIn = (texts: readonly string[], limit = 12) => ranked(lexiconCounts(THEMES, texts), limit);
/** The themes one text touches, ordered by weight. */
export const themesOf = (text: string) => themesIn([text]).map((t) => t.name);

/** Word sequences of 2 to 4 words, with at least one content word, found in at least two different texts. */
export function recurringPhrases(texts: readonly string[], limit = 10): Mention[] {
  const seenIn = new Map<string, number>();
  for (const text of texts) {
    const found = new Set<string>();
    for (const s of sentences(text)) {
      const w = words(s);
      for (let n = 2; n <= 4; n++) {
        for (let i = 0; i + n <= w.length; i++) {
          const gram = w.slice(i, i + n);
          if (gram.every((g) => STOP.has(g)) || STOP.has(gram[0]!) && STOP.has(gram[n - 1]!)) continue;
          found.add(gram.join(' '));
        }
      }
    }
    for (const g of found) tally(seenIn, g);
  }
  const repeated = [...seenIn.entries()].filter(([, c]) => c >= 2);
  // Longer phrases first, then drop the shorter ones they contain.
  repeated.sort((a, b) => b[1] - a[1] || b[0].split(' ').length - a[0].split(' ').length || a[0].localeCompare(b[0]));
  const kept: Array<[string, number]> = [];
  for (const [g, c] of repeated) {
    if (kept.some(([k, kc]) => kc >= c && k.includes(g))) continue;
    kept.push([g, c]);
    if (kept.length >= limit) break;
  }
  return kept.map(([name, count]) => ({ name, count }));
}

export interface Style {
  averageSentenceWords: number;
  exclamationRate: number;
  questionRate: number;
  firstPersonRate: number;
  favouriteWords: string[];
  descriptors: string[];
}

export function styleOf(texts: readonly string[]): Style {
  const all = texts.flatMap(sentences);
  const allWords = texts.flatMap(words);
  const n = Math.max(1, all.length);
  const average = allWords.length / n;
  const exclaim = all.filter((s) => s.endsWith('!')).length / n;
  const question = all.filter((s) => s.endsWith('?')).length / n;
  const first = allWords.filter((w) => w === 'i' || w === 'me' || w === 'my' || w === 'we' || w === 'our').length / Math.max(1, allWords.length);
  const freq = new Map<string, number>();
  for (const t of texts) for (const w of contentWords(t)) tally(freq, w);
  const descriptors: string[] = [];
  if (all.length > 0) {
    descriptors.push(average < 10 ? 'short, plain sentences' : average > 22 ? 'long, flowing sentences' : 'sentences of moderate length');
    if (exclaim > 0.15) descriptors.push('exclamatory and warm');
    if (question > 0.1) descriptors.push('asks questions');
    if (first > 0.06) descriptors.push('speaks from personal experience');
  }
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return {
    averageSentenceWords: round(average),
    exclamationRate: round(exclaim),
    questionRate: round(question),
    firstPersonRate: round(first),
    favouriteWords: ranked(freq, 10).filter((m) => m.count >= 2).map((m) => m.name),
    descriptors,
  };
}

/** How a mood word reads on a scale from -1 (low) to 1 (high); unknown moods are neutral. */
const MOOD_SCORES: Record<string, number> = {
  happy: 1, joyful: 1, grateful: 0.9, excited: 0.9, proud: 0.8, hopeful: 0.7, content: 0.6, calm: 0.5, peaceful: 0.5, nostalgic: 0.2,
  neutral: 0, reflective: 0.1, tired: -0.3, bored: -0.3, worried: -0.6, anxious: -0.7, lonely: -0.7, sad: -0.8, angry: -0.8, grieving: -0.9,
};

export function moodScore(mood: string | null): number | null {
  if (!mood) return null;
  const key = mood.trim().toLowerCase();
  // Own keys only: a mood named "constructor" is unknown, not Object.prototype's.
  return Object.hasOwn(MOOD_SCORES, key) ? MOOD_SCORES[key]! : 0;
}

/** A stable 32-bit hash (FNV-1a) for deterministic choices. */
export function stableHash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

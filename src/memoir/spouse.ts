/**
 * Who the memoir's owner was married to, as the memoir says it: the name it uses for the husband or wife, and whether
 * that is a man or a woman. An heir's "Grandad" is the owner's husband when the owner is a grandmother, and the owner
 * himself when the owner is a grandfather (then "Grandma" is his wife); the memoir's own words tell which.
 */
import { GRANDPARENTS } from './intents.js';
import { namesIn } from './names.js';
import { sentences, words } from './text.js';

/** What is read of a memoir's text (./retrieval.ts's SourceDoc has these and more). */
interface SourceDoc {
  kind: string;
  text: string;
}

export interface Spouse {
  /** The name the memoir uses most for the husband or wife ("Frank", "Dot"); none when it is not clear. */
  name?: string;
  /** The husband or wife's sex as the memoir writes of them; none when it does not say or says both. */
  sex?: 'male' | 'female';
}

/** What the owner's grandchildren call them: "call me Nana", "calls me Dadaji", "I am their Oma". */
const CALLED = /\b(?:calls? me|called me|I am (?:their|your)|I'm (?:their|your)) (\p{L}+)/giu;
const MARRIAGE = /\b(married|marry|wedding|husband|wife|proposed|engaged|honeymoon)\b/i;
/**
 * Only the owner's own marriage, told in the first person ("We were married at St Aidan's"), takes its names from
 * the sentences before it: in "In 1995 he married Navneet" (a name the tagger does not know) the son named before
 * is the one marrying, not the owner's spouse.
 */
const FIRST_PERSON = /\b(I|me|my|we|us|our)\b/i;
/** A sentence about marrying that names nobody ("We were married at St Aidan's") speaks of those just named. */
const BEFORE = 2;

interface Source {
  text: string;
  marriage: boolean;
  /** For a sentence about marrying: the sentences before it in the same text. */
  before: string[];
}

/** What `spouseOf` reads names in: every text but the profile, and its sentences about marrying with those before. */
function* spouseSources(docs: readonly SourceDoc[]): Generator<Source> {
  for (const d of docs) {
    if (d.kind === 'profile') continue;
    yield { text: d.text, marriage: false, before: [] };
    const all = sentences(d.text);
    for (let i = 0; i < all.length; i++) {
      if (MARRIAGE.test(all[i]!))
        yield { text: all[i]!, marriage: true, before: all.slice(Math.max(0, i - BEFORE), i) };
    }
  }
}

/** The texts `spouseOf` reads names in, for a search to read beforehand (./retrieval.ts, `holdSearch`). */
export function spouseTexts(docs: readonly SourceDoc[]): string[] {
  const profile = docs.find((d) => d.kind === 'profile');
  return [...(profile ? [profile.text] : []), ...Array.from(spouseSources(docs), (s) => [s.text, ...s.before]).flat()];
}

/** The names of people in `text` that may be the spouse: single names, not the owner's own. */
function candidates(text: string, own: ReadonlySet<string>): string[] {
  return namesIn(text).people.filter((p) => !p.startsWith('my ') && !p.includes(' ') && !own.has(p.toLowerCase()));
}

/**
 * The name: the person (src/memoir/names.ts) named most often in sentences about marrying, or just before one that
 * names nobody, other than the owner's own names; a person written as the writer's husband or wife ("my husband
 * Frank") counts double. The sex, by the weight of what the memoir says: "my husband" or "my wife" anywhere (3 each),
 * the owner's first name and the spouse's as the tagger knows them (2: a man named Walter writes of his wife; it
 * takes the common case of a husband and a wife), and the pronouns of the sentences naming the spouse and of the
 * sentence after each (1 each: "I met Frank ... He trod on my feet"). It is decided when one side has at least 2 and
 * more than twice the other.
 */
export function spouseOf(docs: readonly SourceDoc[]): Spouse {
  const profile = docs.find((d) => d.kind === 'profile')?.text ?? '';
  const own = new Set(words(profile));
  const counts = new Map<string, number>();
  const said = { male: 0, female: 0 };
  for (const { text, marriage, before } of spouseSources(docs)) {
    if (!marriage) {
      for (const k of namesIn(text).kin)
        if (k.relation === 'husband' || k.relation === 'wife') counts.set(k.name, (counts.get(k.name) ?? 0) + 2);
      said.male += (text.match(/\bmy (?:late |dear )?(?:husband|hubby)\b/gi) ?? []).length * 3;
      said.female += (text.match(/\bmy (?:late |dear )?wife\b/gi) ?? []).length * 3;
      // "The grandkids call me Vovó", "Harry's kids call me Dadaji": the owner is that grandparent, the spouse the other.
      for (const m of text.matchAll(CALLED)) {
        const role = GRANDPARENTS[m[1]!.toLowerCase()];
        if (role === 'grandfather') said.female += 3;
        if (role === 'grandmother') said.male += 3;
      }
      continue;
    }
    let named = candidates(text, own);
    if (named.length === 0 && FIRST_PERSON.test(text)) named = [...new Set(before.flatMap((s) => candidates(s, own)))];
    for (const p of named) counts.set(p, (counts.get(p) ?? 0) + 1);
  }
  const [first, second] = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  const name = first && first[1] >= 2 && (!second || first[1] > second[1]) ? first[0] : undefined;
  const owner = profile ? namesIn(profile).sexes : { male: [], female: [] };
  said.female += owner.male.length > 0 ? 2 : 0;
  said.male += owner.female.length > 0 ? 2 : 0;
  if (name) {
    countPronouns(docs, name, said);
    const known = docs.map((d) => namesIn(d.text).sexes);
    if (known.some((k) => k.male.includes(name))) said.male += 2;
    if (known.some((k) => k.female.includes(name))) said.female += 2;
  }
  const sex =
    said.male >= 2 && said.male > 2 * said.female
      ? 'male'
      : said.female >= 2 && said.female > 2 * said.male
        ? 'female'
        : undefined;
  return { ...(name ? { name } : {}), ...(sex ? { sex } : {}) };
}

/** Adds the pronouns of each sentence naming `name`, after the name, and of the sentence that follows it. */
function countPronouns(docs: readonly SourceDoc[], name: string, said: { male: number; female: number }): void {
  const named = new RegExp(`\\b${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`);
  for (const d of docs) {
    if (d.kind === 'profile') continue;
    const all = sentences(d.text);
    for (let i = 0; i < all.length; i++) {
      const at = all[i]!.search(named);
      if (at === -1) continue;
      for (const s of [all[i]!.slice(at), all[i + 1] ?? '']) {
        said.male += (s.match(/\b(?:he|him|his|himself)\b/gi) ?? []).length;
        said.female += (s.match(/\b(?:she|her|hers|herself)\b/gi) ?? []).length;
      }
    }
  }
}

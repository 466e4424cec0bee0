/**
 * What every locale's words for the law check's findings are made with (src/law: check_plan, and the law warnings of
 * validate_plan and generate_contract): the rules, the params a sentence reads through (`Get`), the shape of a
 * locale's catalogue (`LawWords`) and `sayWith`. The catalogues are one file a locale (./law-words-<locale>.ts);
 * ./law-words.ts gathers those a reader gets from params, ./law-words-en.ts adds English.
 *
 * Names of heir types, jurisdictions, templates and schools are not here: the caller gives them (`LawNames`), from
 * the words it already shows a person (the wizard's relationship, template and school labels, and its place names).
 * A finding whose params name something the caller has no word for is not said here: it stays in English, and the
 * caller marks it so.
 */
import type { NumberFormats } from './catalog.js';
import { type Locale, numberFormats } from './index.js';

/** The params of a finding: figures and short strings, as data. */
export type LawParams = Record<string, number | string>;

/** Every rule of the law check; each has words in every locale (the type says so). */
export const LAW_RULES = [
  'plan.percentage-precision',
  'plan.percentages-sum',
  'plan.relationship-missing',
  'template.mismatch',
  'forced-heirship.reserve',
  'forced-heirship.usufruct',
  'forced-heirship.not-computed',
  'forced-heirship.unnamed-heirs',
  'spouse.elective-share',
  'spouse.community-property',
  'spouse.deferred-community',
  'islamic-law.applies',
  'islamic-law.bequest-limit',
  'faraid.school',
  'faraid.school-not-computed',
  'faraid.public-treasury',
  'faraid.share-mismatch',
  'faraid.excluded-heir',
  'faraid.missing-heir',
  'faraid.assumption',
  'faraid.non-heir',
  'faraid.no-heirs',
  'faraid.invalid-heirs',
  'faraid.distant-kindred',
  'islamic.assumed-relationship',
  'islamic.ambiguous-relationship',
  'islamic.unmapped-relationship',
  'wasiyyah.bequest-to-heir',
  'wasiyyah.excluded-heir-legatee',
  'wasiyyah.over-one-third',
  'wasiyyah.no-bequest',
] as const;
export type LawRule = (typeof LAW_RULES)[number];

/** The names a sentence needs, in the reader's language; undefined where the caller has no word for one. */
export interface LawNames {
  /** A fara'id heir type by its key ("son", "fullBrother"). */
  heir(key: string): string | undefined;
  /** A jurisdiction by its id ("fr", "us-ca"). */
  place(id: string): string | undefined;
  /** An inheritance template by its id ("civil-law"). */
  template(id: string): string | undefined;
  /** A school of Islamic law by its id ("hanafi"). */
  school(id: string): string | undefined;
}

/** Number formats, plus lists joined by "and". */
export interface LawFormats extends NumberFormats {
  and(items: string[]): string;
}

/** What a sentence reads its params and names through; each throws when a param or a name is missing. */
export interface Get {
  num(key: string): number;
  str(key: string): string;
  flag(key: string): boolean;
  pct(key: string): string;
  heir(key?: string): string;
  /** An heir type by its key. */
  heirOf(heirKey: string): string;
  /** The heir types of a comma-separated param. */
  heirs(key: string): string[];
  place(): string;
  template(id: string): string;
  school(key?: string): string;
  /** A fraction param ("1/2") in the reader's digits. */
  fraction(key: string): string;
  has(key: string): boolean;
  f: LawFormats;
}

export type SayLaw = (g: Get) => string;

class Unsaid extends Error {}

function getter(p: LawParams, f: LawFormats, n: LawNames): Get {
  const num = (key: string): number => {
    const v = p[key];
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new Unsaid(`param ${key} is not a number`);
    return v;
  };
  const str = (key: string): string => {
    const v = p[key];
    if (typeof v !== 'string') throw new Unsaid(`param ${key} is not a string`);
    return v;
  };
  const name = (v: string | undefined, what: string): string => {
    if (!v) throw new Unsaid(`no word for ${what}`);
    return v;
  };
  const heirOf = (k: string) => name(n.heir(k), `heir ${k}`);
  const heir = (key = 'heir') => heirOf(str(key));
  return {
    num,
    str,
    flag: (key) => p[key] === 1,
    pct: (key) => f.percent(num(key)),
    heir,
    heirOf,
    heirs: (key) => str(key).split(',').map(heirOf),
    place: () => name(n.place(str('jurisdiction')), `jurisdiction ${str('jurisdiction')}`),
    template: (id) => name(n.template(id), `template ${id}`),
    school: (key = 'school') => name(n.school(str(key)), `school ${str(key)}`),
    fraction: (key) => {
      const m = /^(\d+)\/(\d+)$/.exec(str(key));
      if (!m) throw new Unsaid(`param ${key} is not a fraction`);
      return `${f.number(Number(m[1]))}/${f.number(Number(m[2]))}`;
    },
    has: (key) => p[key] !== undefined,
    f,
  };
}

/** The words of each locale that are the law's own (heir groups of a reserve, bases, invalid families). */
export interface LawWords {
  /** The reserved heir groups of a jurisdiction's data. */
  groups: Record<string, string>;
  /** What a reserve is computed on. */
  basis: Record<string, string>;
  /** Why heirs cannot be one family. */
  problems: { 'husband-and-wife': string; one: (heir: string) => string; wives: string };
  sentences: Record<LawRule, SayLaw>;
}

export const groupsOf = (g: Get, words: LawWords, key: string) =>
  g.f.and(
    g
      .str(key)
      .split(',')
      .map((k) => {
        const w = words.groups[k];
        if (!w) throw new Unsaid(`no word for heir group ${k}`);
        return w;
      }),
  );
export const basisOf = (g: Get, words: LawWords) => {
  const w = words.basis[g.str('basis')];
  if (!w) throw new Unsaid('no word for the basis');
  return w;
};
/** A school's or other name inside a sentence, in lower case (French and Spanish write them so). */
export const lower = (s: string) => s.toLocaleLowerCase();

/**
 * The elective share a spouse may claim where the jurisdiction states it: its fraction and percent, or, when it
 * depends on the marriage, its largest (`upTo` puts the language's "up to" before it), else `fallback`.
 */
export const electiveShareOf = (g: Get, upTo: (share: string) => string, fallback: string): string =>
  g.has('fraction')
    ? `${g.fraction('fraction')} (${g.pct('requiredPercent')})`
    : g.has('maxFraction')
      ? upTo(`${g.fraction('maxFraction')} (${g.pct('maxPercent')})`)
      : fallback;

export const problemsOf = (g: Get, words: LawWords) =>
  g.f.and(
    g
      .str('problems')
      .split(',')
      .map((code) => {
        if (code === 'husband-and-wife' || code === 'wives') return words.problems[code];
        const m = /^one:(\w+)$/.exec(code);
        if (!m) throw new Unsaid(`unknown problem ${code}`);
        return words.problems.one(g.heirOf(m[1]!));
      }),
  );

const andCache = new Map<Locale, Intl.ListFormat>();

/** A locale's formats for law sentences: its number formats, and lists joined by "and". */
export function lawFormats(locale: Locale): LawFormats {
  let and = andCache.get(locale);
  if (!and) {
    and = new Intl.ListFormat(locale, { type: 'conjunction' });
    andCache.set(locale, and);
  }
  const list = and;
  return { ...numberFormats(locale), and: (items) => list.format(items) };
}

/** A law finding as the service sends it: its rule, its English message, and its params. */
export interface LawFindingInput {
  rule: string;
  message: string;
  params?: LawParams | undefined;
}

/** The sentence of `words` for a finding's rule and params, or undefined when something is missing. */
export function sayWith(
  words: LawWords,
  finding: LawFindingInput,
  locale: Locale,
  names: LawNames,
): string | undefined {
  if (!(LAW_RULES as readonly string[]).includes(finding.rule) || !finding.params) return undefined;
  const say = words.sentences[finding.rule as LawRule];
  try {
    return say(getter(finding.params, lawFormats(locale), names));
  } catch (err) {
    if (err instanceof Unsaid) return undefined;
    throw err;
  }
}

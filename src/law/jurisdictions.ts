import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { ApiError, type ErrorDetail } from '../core/errors.js';
import { TEMPLATE_TYPES } from './templates.js';
import { SourceSchema } from './findings.js';

/**
 * Jurisdiction data: one JSON file per jurisdiction under `<repo>/jurisdictions/`,
 * validated against `JurisdictionSchema` when loaded. The structured parts
 * (`forcedHeirship.scenarios`, `spouseRights.electiveShare`, `maritalProperty`,
 * `islamicLaw`) drive the checks in `heirship.ts`; the `summary` fields are for
 * people. See docs-index/jurisdictions.md.
 */

// ---------------------------------------------------------------- schema

const FRACTION_RE = /^(0|[1-9]\d*)\/[1-9]\d*$/;

export const FractionSchema = z
  .string()
  .regex(FRACTION_RE, 'a fraction "n/d", e.g. "1/2"')
  .refine((s) => {
    const [n, d] = s.split('/').map(Number);
    return n !== undefined && d !== undefined && n <= d;
  }, 'a fraction between 0 and 1')
  .describe('A share of the estate written as a fraction "n/d", e.g. "1/2".');

export const HEIR_GROUPS = ['descendants', 'spouse', 'parents'] as const;
export type HeirGroup = (typeof HEIR_GROUPS)[number];
export const HeirGroupSchema = z
  .enum(HEIR_GROUPS)
  .describe(
    'A class of relatives: descendants (children, and grandchildren representing a predeceased child), spouse (or registered partner), parents.',
  );

export const REGIONS = ['north-america', 'europe', 'oceania', 'asia', 'middle-east', 'africa'] as const;
export const LEGAL_SYSTEMS = ['common-law', 'civil-law', 'mixed', 'islamic', 'supranational'] as const;

export const ReserveShareSchema = z
  .object({
    heirs: z.array(HeirGroupSchema).min(1).describe('The classes of heirs who share this reserve collectively.'),
    fraction: FractionSchema.describe('The part of the estate reserved to these heirs together.'),
    perHead: FractionSchema.optional().describe(
      'Part of the estate (within `fraction`) that is divided equally per head among the heirs of the group, giving each a personal minimum; omitted when the law does not fix an equal split.',
    ),
    note: z
      .string()
      .optional()
      .describe('How this reserve works (e.g. a monetary claim rather than a share of the property).'),
  })
  .strict()
  .describe('One reserved portion.');
export type ReserveShare = z.infer<typeof ReserveShareSchema>;

export const ReserveScenarioSchema = z
  .object({
    when: z
      .object({
        spouse: z
          .boolean()
          .optional()
          .describe(
            'true: applies only when a spouse is among the named heirs; false: only when none is; omitted: either.',
          ),
        descendantsMin: z
          .number()
          .int()
          .min(0)
          .optional()
          .describe('Applies only when at least this many descendants (counted per child) are named.'),
        descendantsMax: z
          .number()
          .int()
          .min(0)
          .optional()
          .describe('Applies only when at most this many descendants are named.'),
        parents: z
          .boolean()
          .optional()
          .describe('true: applies only when a parent is named; false: only when none is; omitted: either.'),
        regime: z
          .enum(['community', 'separate'])
          .optional()
          .describe(
            'Applies only under this marital property regime (the jurisdiction default when the caller gives none).',
          ),
      })
      .strict()
      .describe(
        'The family situation, as named in the plan, in which this scenario applies. The first matching scenario is used.',
      ),
    reserves: z.array(ReserveShareSchema).describe('The reserved portions in that situation.'),
  })
  .strict()
  .describe('Reserved portions for one family situation.');
export type ReserveScenario = z.infer<typeof ReserveScenarioSchema>;

export const JurisdictionSchema = z
  .object({
    id: z
      .string()
      .regex(/^[a-z]{2}(-[a-z]{2,4})?$/, 'lowercase ISO 3166 code, e.g. "fr", "us-ca", "gb-eng"')
      .describe(
        'Identifier: ISO 3166-1 alpha-2 for countries ("fr"), ISO 3166-2 style for subdivisions ("us-ca", "gb-eng"), "eu" for the EU Succession Regulation, "ae-difc"/"ae-adgm" for the financial free zones.',
      ),
    name: z.string().min(1).describe('English name.'),
    aliases: z
      .array(z.string().min(1).describe('An alias.'))
      .describe('Other names and codes that resolve to this jurisdiction (case-insensitive).'),
    kind: z
      .enum(['country', 'subdivision', 'special-zone', 'supranational'])
      .describe('What sort of jurisdiction this is.'),
    parent: z.string().nullable().describe('Id of the enclosing jurisdiction (e.g. "us" for a state), or null.'),
    instruments: z
      .array(z.string().describe('Jurisdiction id of the instrument.'))
      .describe(
        'Supranational instruments in force here, as jurisdiction ids (e.g. ["eu"] where the EU Succession Regulation applies).',
      ),
    region: z.enum(REGIONS).describe('World region, for filtering.'),
    legalSystem: z.enum(LEGAL_SYSTEMS).describe('Legal tradition governing succession.'),
    legalSystemNote: z.string().describe('One or two sentences on the legal tradition.'),
    forcedHeirship: z
      .object({
        exists: z
          .boolean()
          .describe('Whether some heirs are entitled to a part of the estate a will cannot take away.'),
        reservedHeirs: z
          .array(HeirGroupSchema)
          .describe('Classes of heirs with a reserve (those the checks understand).'),
        basis: z
          .enum(['whole-estate', 'movable-estate'])
          .describe('What the reserve is computed on: the whole estate, or movable property only (Scotland).'),
        onlyIf: z
          .string()
          .optional()
          .describe(
            'A condition the plan cannot show (e.g. the child is under 24 or disabled); findings then become info.',
          ),
        scenarios: z
          .array(ReserveScenarioSchema)
          .describe(
            'Machine-readable reserves by family situation; empty when the reserve is not machine-checked (see summary).',
          ),
        summary: z.string().describe('The rules in plain words.'),
      })
      .strict()
      .describe('Forced heirship (reserved portions).'),
    spouseRights: z
      .object({
        electiveShare: z
          .object({
            fractions: z
              .array(
                z
                  .object({
                    when: z
                      .enum(['always', 'descendants', 'no-descendants'])
                      .describe('Which family situation the fraction applies to.'),
                    fraction: FractionSchema.describe('The fraction the spouse may elect to take.'),
                  })
                  .strict()
                  .describe('A flat elective-share fraction.'),
              )
              .describe('Flat fractions, where the statute fixes one; empty when it depends on other facts.'),
            maxFraction: FractionSchema.optional().describe(
              'The most the spouse can elect (e.g. by length of marriage), where there is no flat fraction.',
            ),
            basis: z.string().describe('What the share is computed on (e.g. "augmented estate").'),
            statute: z.string().describe('The statute granting it.'),
          })
          .strict()
          .nullable()
          .describe("A surviving spouse's right to elect a share against the will, or null."),
        summary: z.string().describe("A surviving spouse's rights in plain words."),
      })
      .strict()
      .describe('Rights of a surviving spouse.'),
    maritalProperty: z
      .object({
        communityProperty: z
          .enum(['default', 'deferred', 'opt-in', 'none'])
          .describe(
            'default: spouses co-own property acquired during marriage; deferred: property is separate during marriage but shared out when it ends (death included); opt-in: community only by agreement or trust; none.',
          ),
        defaultRegime: z.string().describe('Name of the default matrimonial property regime.'),
        summary: z.string().describe('What it means for a plan.'),
      })
      .strict()
      .describe('Matrimonial property.'),
    intestacy: z.string().describe('Who inherits without a will, in order, in short.'),
    islamicLaw: z
      .object({
        applies: z.enum(['none', 'muslims', 'all']).describe('To whose estates Islamic inheritance law applies.'),
        bequestLimit: FractionSchema.optional().describe(
          'Most of the estate that may be bequeathed by will where Islamic law applies (usually 1/3).',
        ),
        spouseRadd: z
          .boolean()
          .optional()
          .describe(
            'A husband or wife as the only heir: true when the law here returns the surplus to the spouse by radd (the whole estate), false when the spouse keeps the fixed share and the rest goes to the public treasury (bayt al-mal). Omitted when not recorded; calculations then return it to the spouse.',
          ),
        summary: z.string().describe('Where and to whom Islamic law applies.'),
      })
      .strict()
      .describe('Islamic inheritance law.'),
    willFormalities: z
      .object({
        witnesses: z
          .number()
          .int()
          .min(0)
          .nullable()
          .describe('Witnesses needed for an ordinary witnessed will; null when not stated.'),
        holographic: z
          .boolean()
          .nullable()
          .describe(
            'Whether a will handwritten and signed by the testator is valid without witnesses; null when not stated.',
          ),
        notarial: z
          .boolean()
          .nullable()
          .describe('Whether a will made before a notary (public will) is available; null when not stated.'),
        electronic: z
          .boolean()
          .nullable()
          .describe('Whether wills may be made or signed electronically; null when not stated.'),
        summary: z.string().describe('The formalities in plain words.'),
      })
      .strict()
      .describe('Will formalities.'),
    digitalAssets: z
      .object({
        rufadaa: z
          .enum(['adopted', 'not-adopted', 'unknown', 'not-applicable'])
          .describe(
            'US states: whether the Revised Uniform Fiduciary Access to Digital Assets Act is enacted; not-applicable elsewhere; unknown when not verified.',
          ),
        law: z.string().nullable().describe('The statute on fiduciary access to digital assets, or null.'),
        summary: z.string().describe('Digital-asset law in plain words.'),
      })
      .strict()
      .describe('Digital-asset law.'),
    tax: z
      .object({
        kind: z
          .enum(['estate', 'inheritance', 'estate-and-inheritance', 'none', 'varies'])
          .describe('Headline death tax.'),
        summary: z.string().describe('Headline estate or inheritance tax, in short.'),
      })
      .strict()
      .describe('Estate or inheritance tax.'),
    recommendedTemplates: z
      .array(z.enum(TEMPLATE_TYPES))
      .min(1)
      .describe('Inheritance templates that fit this jurisdiction.'),
    sources: z.array(SourceSchema).min(1).describe('Statutes and official texts the data rests on.'),
    lastReviewed: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .describe('Date the record was last reviewed (YYYY-MM-DD).'),
  })
  .strict()
  .describe("One jurisdiction's inheritance law, in short.");
export type Jurisdiction = z.infer<typeof JurisdictionSchema>;

export const JurisdictionSummarySchema = z
  .object({
    id: z.string().describe('Jurisdiction id.'),
    name: z.string().describe('English name.'),
    parent: z.string().nullable().describe('Id of the enclosing jurisdiction, or null.'),
    region: z.enum(REGIONS).describe('World region.'),
    legalSystem: z.enum(LEGAL_SYSTEMS).describe('Legal tradition.'),
    forcedHeirship: z.boolean().describe('Whether forced heirship exists.'),
    communityProperty: z.boolean().describe('Whether community property is the default matrimonial regime.'),
  })
  .describe('A jurisdiction in a list.');
export type JurisdictionSummary = z.infer<typeof JurisdictionSummarySchema>;

export function summarizeJurisdiction(j: Jurisdiction): JurisdictionSummary {
  return {
    id: j.id,
    name: j.name,
    parent: j.parent,
    region: j.region,
    legalSystem: j.legalSystem,
    forcedHeirship: j.forcedHeirship.exists,
    communityProperty: j.maritalProperty.communityProperty === 'default',
  };
}

/** The jurisdictions the spec plans legal documents for, plus the large Islamic-law jurisdictions. */
export const US_STATES = [
  'al',
  'ak',
  'az',
  'ar',
  'ca',
  'co',
  'ct',
  'de',
  'dc',
  'fl',
  'ga',
  'hi',
  'id',
  'il',
  'in',
  'ia',
  'ks',
  'ky',
  'la',
  'me',
  'md',
  'ma',
  'mi',
  'mn',
  'ms',
  'mo',
  'mt',
  'ne',
  'nv',
  'nh',
  'nj',
  'nm',
  'ny',
  'nc',
  'nd',
  'oh',
  'ok',
  'or',
  'pa',
  'ri',
  'sc',
  'sd',
  'tn',
  'tx',
  'ut',
  'vt',
  'va',
  'wa',
  'wv',
  'wi',
  'wy',
].map((s) => `us-${s}`);
export const EU_MEMBERS = [
  'at',
  'be',
  'bg',
  'hr',
  'cy',
  'cz',
  'dk',
  'ee',
  'fi',
  'fr',
  'de',
  'gr',
  'hu',
  'ie',
  'it',
  'lv',
  'lt',
  'lu',
  'mt',
  'nl',
  'pl',
  'pt',
  'ro',
  'sk',
  'si',
  'es',
  'se',
];
export const CA_PROVINCES = ['ab', 'bc', 'mb', 'nb', 'nl', 'ns', 'nt', 'nu', 'on', 'pe', 'qc', 'sk', 'yt'].map(
  (s) => `ca-${s}`,
);
export const AU_STATES = ['nsw', 'vic', 'qld', 'wa', 'sa', 'tas', 'act', 'nt'].map((s) => `au-${s}`);
export const PLANNED_JURISDICTION_IDS: readonly string[] = [
  'us',
  ...US_STATES,
  'gb',
  'gb-eng',
  'gb-sct',
  'gb-nir',
  'eu',
  ...EU_MEMBERS,
  'ca',
  ...CA_PROVINCES,
  'au',
  ...AU_STATES,
  'sg',
  'ae',
  'ae-difc',
  'ae-adgm',
  'sa',
  'eg',
  'my',
  'id',
  'pk',
  'ir',
  'ma',
];

// ---------------------------------------------------------------- index

export interface JurisdictionFilter {
  region?: string | undefined;
  legalSystem?: string | undefined;
  forcedHeirship?: boolean | undefined;
}

export interface JurisdictionIndex {
  /** Every jurisdiction, sorted by id. */
  all(): Jurisdiction[];
  /** By id or alias, case- and accent-insensitive; undefined when unknown. */
  get(idOrAlias: string): Jurisdiction | undefined;
  /** Like get, but throws ApiError NOT_FOUND with close matches in `details`. */
  resolve(idOrAlias: string): Jurisdiction;
  /** Jurisdictions matching every given filter, sorted by id. */
  list(filter: JurisdictionFilter): Jurisdiction[];
  /** Up to `max` ids, names and aliases close to `query`, best first. */
  suggest(query: string, max?: number): Jurisdiction[];
}

/** Lookup key: lowercase, accents stripped, spaces/underscores/dots folded to single '-'-free form. */
export function normalizeKey(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’.]/g, '')
    .replace(/[\s_]+/g, ' ')
    .trim();
}

/** Keys under which a record is found: id (also with space/underscore for '-'), name, aliases. */
function keysOf(j: Jurisdiction): string[] {
  const keys = new Set<string>([j.id, j.id.replace('-', ' '), j.name, ...j.aliases].map(normalizeKey));
  return [...keys];
}

/** Optimal string alignment distance (Levenshtein with adjacent transpositions). */
export function editDistance(a: string, b: string): number {
  const m = a.length;
  const n = b.length;
  if (m === 0) return n;
  if (n === 0) return m;
  let prev2: number[] = new Array<number>(n + 1).fill(0);
  let prev: number[] = Array.from({ length: n + 1 }, (_, k) => k);
  let cur: number[] = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= m; i++) {
    cur[0] = i;
    for (let k = 1; k <= n; k++) {
      const cost = a[i - 1] === b[k - 1] ? 0 : 1;
      let v = Math.min(prev[k]! + 1, cur[k - 1]! + 1, prev[k - 1]! + cost);
      if (i > 1 && k > 1 && a[i - 1] === b[k - 2] && a[i - 2] === b[k - 1]) v = Math.min(v, prev2[k - 2]! + 1);
      cur[k] = v;
    }
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[n]!;
}

/** Longest id, name or alias a lookup compares; anything longer is no key (checked at load). */
export const MAX_LOOKUP_LENGTH = 100;
/** Longest query that gets close matches: the edit distance is quadratic, so longer input gets none. */
export const MAX_FUZZY_QUERY_LENGTH = 64;

class Index implements JurisdictionIndex {
  readonly #sorted: Jurisdiction[];
  readonly #byKey = new Map<string, Jurisdiction>();

  constructor(records: Jurisdiction[]) {
    this.#sorted = [...records].sort((a, b) => a.id.localeCompare(b.id));
    for (const j of this.#sorted) {
      for (const k of keysOf(j)) {
        const other = this.#byKey.get(k);
        if (other && other.id !== j.id) {
          throw new Error(`jurisdictions: alias "${k}" of ${j.id} is already used by ${other.id}`);
        }
        if (k.length > MAX_LOOKUP_LENGTH)
          throw new Error(
            `jurisdictions: key "${k.slice(0, 40)}…" of ${j.id} is longer than ${MAX_LOOKUP_LENGTH} characters`,
          );
        this.#byKey.set(k, j);
      }
    }
  }

  all(): Jurisdiction[] {
    return [...this.#sorted];
  }

  get(idOrAlias: string): Jurisdiction | undefined {
    // Keys are at most MAX_LOOKUP_LENGTH characters; input four times longer is no id or name someone typed, and is
    // answered without being normalized.
    if (idOrAlias.length > 4 * MAX_LOOKUP_LENGTH) return undefined;
    const k = normalizeKey(idOrAlias);
    return this.#byKey.get(k) ?? this.#byKey.get(k.replace(/-/g, ' '));
  }

  suggest(query: string, max = 3): Jurisdiction[] {
    // Edit distance costs length × length per key: long input gets no close matches rather than stalling the process.
    if (query.length > 4 * MAX_FUZZY_QUERY_LENGTH) return [];
    const q = normalizeKey(query);
    if (q.length === 0 || q.length > MAX_FUZZY_QUERY_LENGTH) return [];
    const limit = Math.max(1, Math.min(3, Math.floor(Math.max(q.length, 2) / 3)));
    const best = new Map<string, { j: Jurisdiction; score: number }>();
    for (const [key, j] of this.#byKey) {
      // A query that starts a longer name ("califo") is close however short it is.
      const prefix = q.length >= 3 && key.startsWith(q);
      // The distance is at least the difference in length: skip keys that cannot be close.
      if (!prefix && Math.abs(key.length - q.length) > limit) continue;
      let score = editDistance(q, key);
      if (prefix) score = Math.min(score, 1);
      if (score > limit) continue;
      const seen = best.get(j.id);
      if (!seen || score < seen.score) best.set(j.id, { j, score });
    }
    return [...best.values()]
      .sort((a, b) => a.score - b.score || a.j.id.localeCompare(b.j.id))
      .slice(0, max)
      .map((x) => x.j);
  }

  resolve(idOrAlias: string): Jurisdiction {
    const found = this.get(idOrAlias);
    if (found) return found;
    const close = this.suggest(idOrAlias);
    const details: ErrorDetail[] = close.map((j) => ({ field: 'id', reason: `did you mean ${j.id} (${j.name})?` }));
    if (details.length === 0)
      details.push({ field: 'id', reason: 'no jurisdiction with this id, name or alias; see list_jurisdictions' });
    throw new ApiError('NOT_FOUND', `Jurisdiction "${idOrAlias.slice(0, 80)}" not found`, details);
  }

  list(filter: JurisdictionFilter): Jurisdiction[] {
    const region = filter.region?.toLowerCase();
    const system = filter.legalSystem?.toLowerCase();
    return this.#sorted.filter(
      (j) =>
        (region === undefined || j.region === region) &&
        (system === undefined || j.legalSystem === system) &&
        (filter.forcedHeirship === undefined || j.forcedHeirship.exists === filter.forcedHeirship),
    );
  }
}

/** `<repo>/jurisdictions`, found from this file's location (src/law/). */
export const DEFAULT_JURISDICTIONS_DIR = resolve(import.meta.dirname, '..', '..', 'jurisdictions');

function formatIssue(file: string, issue: z.core.$ZodIssue): string {
  const path = issue.path.map(String).join('.') || '(root)';
  return `${file}: field "${path}": ${issue.message}`;
}

/**
 * Reads and validates every `*.json` file in `dir` (synchronously; call once at
 * start). Throws an Error naming the file and field of the first problems, when
 * a file's name differs from its id, when a parent or instrument is unknown, or
 * when two records claim the same alias.
 */
export function loadJurisdictions(dir: string = DEFAULT_JURISDICTIONS_DIR): JurisdictionIndex {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  if (files.length === 0) throw new Error(`jurisdictions: no .json files in ${dir}`);
  const records: Jurisdiction[] = [];
  const problems: string[] = [];
  for (const file of files) {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(join(dir, file), 'utf8'));
    } catch (err) {
      problems.push(`${file}: not valid JSON (${(err as Error).message})`);
      continue;
    }
    const parsed = JurisdictionSchema.safeParse(raw);
    if (!parsed.success) {
      problems.push(...parsed.error.issues.slice(0, 5).map((i) => formatIssue(file, i)));
      continue;
    }
    if (`${parsed.data.id}.json` !== file)
      problems.push(`${file}: field "id": "${parsed.data.id}" does not match the file name`);
    records.push(parsed.data);
  }
  const ids = new Set(records.map((r) => r.id));
  for (const r of records) {
    if (r.parent !== null && !ids.has(r.parent))
      problems.push(`${r.id}.json: field "parent": unknown jurisdiction "${r.parent}"`);
    for (const [i, inst] of r.instruments.entries()) {
      if (!ids.has(inst)) problems.push(`${r.id}.json: field "instruments.${i}": unknown jurisdiction "${inst}"`);
    }
  }
  if (problems.length > 0) throw new Error(`jurisdictions: invalid data in ${dir}:\n  ${problems.join('\n  ')}`);
  return new Index(records);
}

let defaultIndex: JurisdictionIndex | undefined;

/** The index of `<repo>/jurisdictions`, loaded (and validated) on first use and then kept. */
export function defaultJurisdictions(): JurisdictionIndex {
  defaultIndex ??= loadJurisdictions();
  return defaultIndex;
}

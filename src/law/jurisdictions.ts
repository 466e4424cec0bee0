import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { z } from 'zod';
import { indexJurisdictions, type JurisdictionIndex } from './jurisdiction-index.js';
import { type Jurisdiction, JurisdictionSchema } from './jurisdiction-schema.js';

export * from './jurisdiction-coverage.js';
export {
  editDistance,
  type JurisdictionFilter,
  type JurisdictionIndex,
  MAX_FUZZY_QUERY_LENGTH,
  MAX_LOOKUP_LENGTH,
  normalizeKey,
} from './jurisdiction-index.js';
export * from './jurisdiction-schema.js';

/**
 * Jurisdiction data: one JSON file per jurisdiction under `<repo>/jurisdictions/`,
 * validated against `JurisdictionSchema` (jurisdiction-schema.ts) when loaded
 * and served by a JurisdictionIndex (jurisdiction-index.ts). The structured
 * parts (`forcedHeirship.scenarios`, `spouseRights.electiveShare`,
 * `maritalProperty`, `islamicLaw`) drive the checks in `heirship.ts`; the
 * `summary` fields are for people. See docs-index/jurisdictions.md.
 */

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
  return indexJurisdictions(records);
}

let defaultIndex: JurisdictionIndex | undefined;

/** The index of `<repo>/jurisdictions`, loaded (and validated) on first use and then kept. */
export function defaultJurisdictions(): JurisdictionIndex {
  defaultIndex ??= loadJurisdictions();
  return defaultIndex;
}

/**
 * An index that calls `load` at its first lookup and keeps what it returned: what the service holds (src/app.ts). A
 * start then reads no jurisdiction file, which most starts never need (reading and validating the 118 files is some
 * 80 ms of CPU). A broken file still fails the build, which loads them all to write the MCP manifest
 * (src/mcp/manifest-source.ts); in a running service it fails the first lookup, with the same message.
 */
export function lazyJurisdictionIndex(load: () => JurisdictionIndex = defaultJurisdictions): JurisdictionIndex {
  let index: JurisdictionIndex | undefined;
  const loaded = () => (index ??= load());
  return {
    all: () => loaded().all(),
    get: (idOrAlias) => loaded().get(idOrAlias),
    resolve: (idOrAlias, field) => loaded().resolve(idOrAlias, field),
    list: (filter) => loaded().list(filter),
    suggest: (query, max) => loaded().suggest(query, max),
  };
}

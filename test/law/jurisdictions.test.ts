import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../src/core/errors.js';
import {
  AU_STATES,
  CA_PROVINCES,
  DEFAULT_JURISDICTIONS_DIR,
  defaultJurisdictions,
  editDistance,
  EU_MEMBERS,
  JurisdictionSchema,
  JurisdictionSummarySchema,
  lazyJurisdictionIndex,
  loadJurisdictions,
  normalizeKey,
  PLANNED_JURISDICTION_IDS,
  summarizeJurisdiction,
  US_STATES,
  type Jurisdiction,
} from '../../src/law/jurisdictions.js';

const index = loadJurisdictions();
const byId = (id: string): Jurisdiction => {
  const j = index.get(id);
  if (!j) throw new Error(`missing ${id}`);
  return j;
};

const tmpDirs: string[] = [];
afterAll(() => {
  for (const d of tmpDirs) rmSync(d, { recursive: true, force: true });
});

/** A copy of some real files in a fresh directory, optionally altered. */
function fixtureDir(files: Record<string, unknown>): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-juris-'));
  tmpDirs.push(dir);
  for (const [name, content] of Object.entries(files)) {
    writeFileSync(path.join(dir, name), typeof content === 'string' ? content : JSON.stringify(content));
  }
  return dir;
}
const raw = (id: string): Record<string, unknown> =>
  JSON.parse(readFileSync(path.join(DEFAULT_JURISDICTIONS_DIR, `${id}.json`), 'utf8')) as Record<string, unknown>;

describe.concurrent('jurisdiction data', () => {
  it('has every planned jurisdiction: 50 states and DC, UK nations, EU 27 and the Regulation, Canada, Australia, Singapore, UAE, Islamic-law countries', () => {
    expect(US_STATES).toHaveLength(51);
    expect(EU_MEMBERS).toHaveLength(27);
    expect(CA_PROVINCES).toHaveLength(13);
    expect(AU_STATES).toHaveLength(8);
    const missing = PLANNED_JURISDICTION_IDS.filter((id) => index.get(id)?.id !== id);
    expect(missing).toEqual([]);
    for (const id of [
      'gb-eng',
      'gb-sct',
      'gb-nir',
      'eu',
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
      'sy',
      'jo',
      'dz',
      'iq',
    ]) {
      expect(byId(id).id).toBe(id);
    }
  });

  it('validates every file on its own against the schema, with file name = id and the review date', () => {
    const files = readdirSync(DEFAULT_JURISDICTIONS_DIR).filter((f) => f.endsWith('.json'));
    expect(files.length).toBe(index.all().length);
    for (const f of files) {
      const parsed = JurisdictionSchema.safeParse(
        JSON.parse(readFileSync(path.join(DEFAULT_JURISDICTIONS_DIR, f), 'utf8')),
      );
      expect(parsed.success, `${f}: ${parsed.success ? '' : JSON.stringify(parsed.error.issues[0])}`).toBe(true);
      if (parsed.success) {
        expect(`${parsed.data.id}.json`).toBe(f);
        // The review date of the data set, or a later one for records added or reviewed since.
        expect(['2026-11-21', '2026-11-28', '2026-12-03', '2026-12-04']).toContain(parsed.data.lastReviewed);
      }
    }
  });

  it('gives every schema field a description', () => {
    const undocumented: string[] = [];
    let seen = 0;
    const walk = (node: unknown, at: string): void => {
      if (!node || typeof node !== 'object') return;
      const n = node as Record<string, unknown>;
      if (n.properties && typeof n.properties === 'object') {
        for (const [k, v] of Object.entries(n.properties as Record<string, Record<string, unknown>>)) {
          seen++;
          if (typeof v.description !== 'string' || v.description.length === 0) undocumented.push(`${at}.${k}`);
          walk(v, `${at}.${k}`);
        }
      }
      for (const key of ['items', 'anyOf', 'oneOf', 'allOf']) {
        const child = n[key];
        if (Array.isArray(child)) child.forEach((c, i) => walk(c, `${at}.${key}[${i}]`));
        else walk(child, `${at}.${key}`);
      }
    };
    walk(z.toJSONSchema(JurisdictionSchema), 'Jurisdiction');
    walk(z.toJSONSchema(JurisdictionSummarySchema), 'JurisdictionSummary');
    expect(seen).toBeGreaterThan(50);
    expect(undocumented).toEqual([]);
  });

  it('links parents and instruments: states to us, nations to gb, provinces to ca, EU members to the Regulation except Denmark and Ireland', () => {
    for (const id of US_STATES) expect(byId(id).parent).toBe('us');
    for (const id of CA_PROVINCES) expect(byId(id).parent).toBe('ca');
    for (const id of AU_STATES) expect(byId(id).parent).toBe('au');
    for (const id of ['gb-eng', 'gb-sct', 'gb-nir']) expect(byId(id).parent).toBe('gb');
    for (const id of ['ae-difc', 'ae-adgm']) expect(byId(id).parent).toBe('ae');
    for (const id of EU_MEMBERS) expect(byId(id).instruments).toEqual(id === 'dk' || id === 'ie' ? [] : ['eu']);
    for (const j of index.all())
      if (j.kind === 'subdivision' || j.kind === 'special-zone') expect(j.parent, j.id).not.toBeNull();
  });

  it('records community property as the law has it: nine community states, five opt-in states', () => {
    const community = index
      .all()
      .filter((j) => j.parent === 'us' && j.maritalProperty.communityProperty === 'default')
      .map((j) => j.id);
    expect(community.sort()).toEqual(['us-az', 'us-ca', 'us-id', 'us-la', 'us-nm', 'us-nv', 'us-tx', 'us-wa', 'us-wi']);
    const optIn = index
      .all()
      .filter((j) => j.maritalProperty.communityProperty === 'opt-in')
      .map((j) => j.id);
    expect(optIn.sort()).toEqual(['us-ak', 'us-fl', 'us-ky', 'us-sd', 'us-tn']);
    // No elective share in community property states; Georgia has none either.
    for (const id of [...community.filter((id) => id !== 'us-wi'), 'us-ga'])
      expect(byId(id).spouseRights.electiveShare, id).toBeNull();
    expect(byId('us-ny').spouseRights.electiveShare?.fractions).toEqual([{ when: 'always', fraction: '1/3' }]);
  });

  it('has machine-readable reserves for France, Germany, Spain, Italy and Belgium, and none for England', () => {
    expect(byId('fr').forcedHeirship.scenarios.map((s) => s.reserves[0]?.fraction)).toEqual([
      '1/2',
      '2/3',
      '3/4',
      '1/4',
    ]);
    expect(byId('be').forcedHeirship.scenarios[0]?.reserves[0]).toMatchObject({
      heirs: ['descendants'],
      fraction: '1/2',
    });
    for (const id of ['de', 'es', 'it']) expect(byId(id).forcedHeirship.scenarios.length, id).toBeGreaterThan(0);
    expect(byId('gb-eng').forcedHeirship).toMatchObject({ exists: false, scenarios: [] });
    expect(byId('gb-sct').forcedHeirship.basis).toBe('movable-estate');
  });

  it('keeps reserves consistent: within the estate, per-head parts within the reserve, heirs declared as reserved', () => {
    const v = (f: string) => {
      const [n, d] = f.split('/').map(Number);
      return n! / d!;
    };
    let checked = 0;
    for (const j of index.all()) {
      const fh = j.forcedHeirship;
      if (!fh.exists) expect(fh.scenarios, j.id).toEqual([]);
      for (const sc of fh.scenarios) {
        const total = sc.reserves.reduce((sum, r) => sum + v(r.fraction), 0);
        expect(total, j.id).toBeLessThanOrEqual(1);
        for (const r of sc.reserves) {
          if (r.perHead) expect(v(r.perHead), j.id).toBeLessThanOrEqual(v(r.fraction));
          for (const h of r.heirs) expect(fh.reservedHeirs, j.id).toContain(h);
          checked++;
        }
        if (sc.when.descendantsMin !== undefined && sc.when.descendantsMax !== undefined) {
          expect(sc.when.descendantsMin, j.id).toBeLessThanOrEqual(sc.when.descendantsMax);
        }
      }
    }
    expect(checked).toBeGreaterThan(50);
  });

  it('only uses source links over http(s)', () => {
    for (const j of index.all()) {
      expect(j.sources.length, j.id).toBeGreaterThan(0);
      for (const s of j.sources) if (s.url) expect(s.url, j.id).toMatch(/^https?:\/\/[^\s]+$/);
    }
  });
});

describe.concurrent('lookup', () => {
  it.each([
    ['California', 'us-ca'],
    ['US-CA', 'us-ca'],
    ['us-ca', 'us-ca'],
    [' us_ca ', 'us-ca'],
    ['us ca', 'us-ca'],
    ['england', 'gb-eng'],
    ['Wales', 'gb-eng'],
    ['UK', 'gb'],
    ['Scotland', 'gb-sct'],
    ['DIFC', 'ae-difc'],
    ['Dubai', 'ae'],
    ['ADGM', 'ae-adgm'],
    ['Deutschland', 'de'],
    ['DE', 'de'],
    ['españa', 'es'],
    ['ESPANA', 'es'],
    ['Quebec', 'ca-qc'],
    ['Québec', 'ca-qc'],
    ['Washington', 'us-wa'],
    ['Washington DC', 'us-dc'],
    ['District of Columbia', 'us-dc'],
    ['Georgia', 'us-ga'],
    ['NSW', 'au-nsw'],
    ['European Union', 'eu'],
    ['KSA', 'sa'],
    ['USA', 'us'],
  ])('resolves %j to %s', (query, id) => {
    expect(index.resolve(query).id).toBe(id);
    expect(index.get(query)?.id).toBe(id);
  });

  it('answers NOT_FOUND with close matches for a misspelt name or id', () => {
    const err = (() => {
      try {
        index.resolve('Califrnia');
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(err).toBeInstanceOf(ApiError);
    const e = err as ApiError;
    expect(e.code).toBe('NOT_FOUND');
    expect(e.status).toBe(404);
    expect(e.details?.[0]).toEqual({ field: 'id', reason: 'did you mean us-ca (California)?' });

    const close = (q: string) => {
      try {
        index.resolve(q);
        return [];
      } catch (x) {
        return ((x as ApiError).details ?? []).map((d) => d.reason);
      }
    };
    expect(close('us-cx').some((r) => r.includes('us-ca'))).toBe(true);
    expect(close('Frnace')[0]).toContain('fr (France)');
    expect(close('Germny')[0]).toContain('de (Germany)');
    expect(close('gb-en')[0]).toContain('gb-eng');
    expect(close('xyzzy-nowhere-land')).toEqual([
      'no jurisdiction with this id, name or alias; see list_jurisdictions',
    ]);
    expect(index.get('xyzzy')).toBeUndefined();
  });

  it('filters lists by region, legal system and forced heirship', () => {
    const europe = index.list({ region: 'europe' }).map((j) => j.id);
    expect(europe).toContain('fr');
    expect(europe).toContain('gb-sct');
    expect(europe).not.toContain('us-ca');
    const islamic = index.list({ legalSystem: 'islamic' }).map((j) => j.id);
    expect(islamic.sort()).toEqual(['ir', 'sa']);
    const forced = index.list({ forcedHeirship: true }).map((j) => j.id);
    for (const id of ['fr', 'de', 'es', 'it', 'be', 'us-la', 'gb-sct']) expect(forced).toContain(id);
    for (const id of ['gb-eng', 'us-ca', 'au-nsw', 'ca-on']) expect(forced).not.toContain(id);
    const both = index.list({ region: 'north-america', forcedHeirship: true }).map((j) => j.id);
    expect(both).toEqual(['us-la']);
    expect(index.list({}).length).toBe(index.all().length);
    expect(index.list({ region: 'Europe' }).length).toBe(europe.length);
    const ids = index.all().map((j) => j.id);
    expect(ids).toEqual([...ids].sort());
  });

  it("Louisiana: the spouse's usufruct of the community share yields to a testament (La. C.C. art. 890)", () => {
    const said = byId('us-la').spouseRights.summary;
    expect(said).toContain('only as far as a testament has not disposed of that share');
    expect(said).toContain('art. 890');
    expect(said).not.toMatch(/usually keeps a usufruct/);
  });

  it('summarises a jurisdiction for lists', () => {
    const s = summarizeJurisdiction(byId('us-ca'));
    expect(JurisdictionSummarySchema.parse(s)).toEqual({
      id: 'us-ca',
      name: 'California',
      parent: 'us',
      region: 'north-america',
      legalSystem: 'common-law',
      forcedHeirship: false,
      communityProperty: true,
    });
    expect(summarizeJurisdiction(byId('fr'))).toMatchObject({
      forcedHeirship: true,
      communityProperty: true,
      parent: null,
    });
    expect(summarizeJurisdiction(byId('gb-eng'))).toMatchObject({ forcedHeirship: false, communityProperty: false });
  });

  it('keeps one default index', () => {
    expect(defaultJurisdictions()).toBe(defaultJurisdictions());
    expect(
      defaultJurisdictions()
        .all()
        .map((j) => j.id),
    ).toEqual(index.all().map((j) => j.id));
  });

  it('normalises keys and measures edit distance', () => {
    expect(normalizeKey('  Québec ')).toBe('quebec');
    expect(normalizeKey('US_CA')).toBe('us ca');
    expect(editDistance('france', 'france')).toBe(0);
    expect(editDistance('frnace', 'france')).toBe(1); // transposition
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });
});

describe('names in Arabic script', () => {
  it('finds the Arab and Muslim-majority jurisdictions by their own names, typed as people type them', () => {
    const table: [string, string][] = [
      ['مصر', 'eg'],
      ['المملكة العربية السعودية', 'sa'],
      ['السعوديه', 'sa'],
      ['الامارات', 'ae'],
      ['الإمارات العربيّة المتّحدة', 'ae'],
      ['دبى', 'ae'],
      ['مركز دبي المالي العالمي', 'ae-difc'],
      ['المغرب', 'ma'],
      ['الجزائر', 'dz'],
      ['تونس', 'tn'],
      ['الأردن', 'jo'],
      ['الكويت', 'kw'],
      ['العراق', 'iq'],
      ['سوريا', 'sy'],
      ['ایران', 'ir'],
      ['ايران', 'ir'],
      ['پاکستان', 'pk'],
      ['ماليزيا', 'my'],
      ['إندونيسيا', 'id'],
    ];
    for (const [name, id] of table) expect([name, index.resolve(name).id]).toEqual([name, id]);
  });
});

describe('the index the service holds', () => {
  it('reads nothing until its first lookup, then answers as the loaded index, loading once', () => {
    let loads = 0;
    const lazy = lazyJurisdictionIndex(() => {
      loads++;
      return index;
    });
    expect(loads).toBe(0);
    expect(lazy.get('France')).toBe(index.get('France'));
    expect(lazy.resolve('us-ca')).toBe(index.resolve('us-ca'));
    expect(lazy.all()).toEqual(index.all());
    expect(lazy.list({ forcedHeirship: true })).toEqual(index.list({ forcedHeirship: true }));
    expect(lazy.suggest('frnace', 3)).toEqual(index.suggest('frnace', 3));
    expect(loads).toBe(1);
  });

  it('fails each lookup with the loading error while the data cannot be read', () => {
    const dir = fixtureDir({ 'fr.json': '{ not json' });
    const lazy = lazyJurisdictionIndex(() => loadJurisdictions(dir));
    expect(() => lazy.get('fr')).toThrow(/fr\.json: not valid JSON/);
    expect(() => lazy.all()).toThrow(/fr\.json: not valid JSON/);
  });
});

describe('the templates’ examples', () => {
  it('names as civil-law (forced heirship) examples only places whose record has a reserve', async () => {
    // Quebec's civil law has none: a testator may dispose of everything freely (C.C.Q. art. 703).
    const { TEMPLATES } = await import('../../src/law/templates.js');
    const civil = TEMPLATES.find((t) => t.type === 'civil-law')!.description;
    const named = index.all().filter((j) => civil.includes(j.name));
    expect(named.map((j) => j.id)).toContain('fr');
    for (const j of named) expect(j.forcedHeirship.exists, j.id).toBe(true);
  });
});

describe.concurrent('loading invalid data', () => {
  it('names the file and the field of a schema error', () => {
    const bad = {
      ...raw('fr'),
      forcedHeirship: {
        ...(raw('fr').forcedHeirship as object),
        scenarios: [{ when: {}, reserves: [{ heirs: ['descendants'], fraction: '3/2' }] }],
      },
    };
    const dir = fixtureDir({ 'fr.json': bad });
    expect(() => loadJurisdictions(dir)).toThrow(
      /fr\.json: field "forcedHeirship\.scenarios\.0\.reserves\.0\.fraction"/,
    );
  });

  it('refuses unparsable JSON, a file named after another id, an unknown parent and duplicate aliases', () => {
    expect(() => loadJurisdictions(fixtureDir({ 'fr.json': '{ not json' }))).toThrow(/fr\.json: not valid JSON/);
    expect(() => loadJurisdictions(fixtureDir({ 'de.json': raw('fr') }))).toThrow(
      /de\.json: field "id": "fr" does not match the file name/,
    );
    expect(() => loadJurisdictions(fixtureDir({ 'us-ca.json': raw('us-ca') }))).toThrow(
      /us-ca\.json: field "parent": unknown jurisdiction "us"/,
    );
    const clash = { ...raw('de'), aliases: ['France'] };
    expect(() =>
      loadJurisdictions(
        fixtureDir({ 'fr.json': { ...raw('fr'), instruments: [] }, 'de.json': { ...clash, instruments: [] } }),
      ),
    ).toThrow(/alias "france"/);
    expect(() => loadJurisdictions(fixtureDir({ 'readme.txt': 'x' }))).toThrow(/no \.json files/);
  });

  it('rejects fields that are not in the schema', () => {
    const dir = fixtureDir({ 'fr.json': { ...raw('fr'), instruments: [], surprise: true } });
    expect(() => loadJurisdictions(dir)).toThrow(/fr\.json: field "\(root\)"/);
  });
});

describe('lookup of oversized input', () => {
  const notFound = (f: () => unknown): ApiError => {
    try {
      f();
    } catch (e) {
      if (e instanceof ApiError) return e;
      throw e;
    }
    throw new Error('expected NOT_FOUND');
  };

  it('answers a 1 MB id NOT_FOUND with no close matches (no edit distance on it)', () => {
    const err = notFound(() => index.resolve('california'.repeat(100_000)));
    expect(err.code).toBe('NOT_FOUND');
    expect(err.message.length).toBeLessThan(120);
    expect(err.details).toEqual([{ field: 'id', reason: expect.stringMatching(/no jurisdiction/) }]);
    expect(index.suggest('x'.repeat(1_000_000))).toEqual([]);
  });

  it('reads the jurisdiction resource with a 1 MB id as NOT_FOUND', async () => {
    const { RESOURCE_TEMPLATES } = await import('../../src/resources/index.js');
    const def = RESOURCE_TEMPLATES.find((d) => d.uriTemplate === 'svc://jurisdictions/{id}')!;
    const services = { jurisdictions: index } as unknown as Parameters<typeof def.read>[0];
    const err = notFound(() => def.read(services, 'Califrnia'.repeat(110_000)));
    expect(err.code).toBe('NOT_FOUND');
    expect(err.details!.length).toBeLessThanOrEqual(3);
  });

  it('gives close matches up to 64 characters and none beyond', () => {
    expect(index.suggest('Califrnia').map((j) => j.id)).toContain('us-ca');
    expect(index.suggest('District of Columbi')).toEqual([index.get('us-dc')]);
    // 65 characters after normalizing: not compared at all (a prefix of nothing, and far from every key anyway).
    expect(index.suggest('District of Columbia'.padEnd(65, 'a'))).toEqual([]);
  });

  it('loads no key longer than the lookup limit', () => {
    for (const j of index.all())
      for (const k of [j.id, j.name, ...j.aliases]) expect(normalizeKey(k).length, k).toBeLessThanOrEqual(100);
  });
});

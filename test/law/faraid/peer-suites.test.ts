import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HEIR_KEYS, MADHHABS } from '../../../src/law/faraid/index.js';
import { compareCase, loadSuites, type PeerCase, type PeerSuite } from './peer/compare.js';

/**
 * The test suites of other public fara'id calculators, ported as facts
 * (test/law/faraid/peer/*.json, each case with its repository, path, commit
 * and name). svc must agree with every case except those listed in
 * peer/disagreements.json, each with its reason; a listed case must really
 * disagree, so the list cannot go stale.
 */

interface Disagreement {
  suite: string;
  case: string;
  kind: 'school' | 'peer-error' | 'not-expressible' | 'not-computed';
  reason: string;
  agreesWith?: { spouseRadd?: boolean };
}

const SUITES = loadSuites();
const LISTED: Disagreement[] = (
  JSON.parse(readFileSync(new URL('./peer/disagreements.json', import.meta.url), 'utf8')) as {
    cases: Disagreement[];
  }
).cases;
const listed = (s: PeerSuite, c: PeerCase): Disagreement | undefined =>
  LISTED.find((d) => d.suite === s.suite && d.case === c.name);

const ALL = SUITES.flatMap((s) => s.cases.map((c) => ({ s, c })));

describe("fara'id peer suites", () => {
  it('are four public suites of at least 378 cases, each case sourced and in svc vocabulary', () => {
    expect(SUITES.map((s) => s.suite)).toEqual(['hu-bcs1', 'shafi-fiqh', 'romstar', 'yasserrmd-faraid']);
    expect(ALL.length).toBeGreaterThanOrEqual(378);
    for (const s of SUITES) {
      expect(s.repo).toMatch(/^[\w.-]+\/[\w.-]+$/);
      expect(s.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(s.path.length).toBeGreaterThan(3);
      expect(MADHHABS).toContain(s.madhhab);
      const names = s.cases.map((c) => c.name);
      expect(new Set(names).size).toBe(names.length);
      for (const c of s.cases) {
        for (const k of [...Object.keys(c.heirs), ...Object.keys(c.shares), ...(c.nothing ?? [])])
          expect(HEIR_KEYS as readonly string[]).toContain(k);
        if (c.madhhab) expect(MADHHABS).toContain(c.madhhab);
        // A case checks something: shares, blocked heirs, a refusal or (at least) that the shares sum to one.
        expect(Object.keys(c.shares).length + (c.nothing?.length ?? 0) > 0 || c.rejects || c.invariantOnly).toBe(true);
      }
    }
  });

  it('lists each disagreement once, for a case that exists, with a reason', () => {
    const keys = LISTED.map((d) => `${d.suite}|${d.case}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const d of LISTED) {
      expect(ALL.some(({ s, c }) => s.suite === d.suite && c.name === d.case)).toBe(true);
      expect(d.reason.length).toBeGreaterThan(40);
    }
  });

  it('agrees with every case but the listed ones; on cases both compute, at most 5 disagreements', () => {
    const disagreeing = ALL.filter(({ s, c }) => compareCase(s, c).length > 0);
    expect(disagreeing.map(({ s, c }) => `${s.suite}|${c.name}`).sort()).toEqual(
      LISTED.map((d) => `${d.suite}|${d.case}`).sort(),
    );
    // Cases svc computes and the peer computes differently (a school's or period's position, or the peer's error).
    const computed = LISTED.filter((d) => d.kind === 'school' || d.kind === 'peer-error');
    expect(computed.length).toBeLessThanOrEqual(5);
  });

  describe.each(SUITES.map((s) => [s.suite, s] as const))('%s', (_name, s) => {
    it.each(s.cases.map((c) => [c.name, c] as const))('%s', (_n, c) => {
      const d = listed(s, c);
      const diffs = compareCase(s, c);
      if (!d) {
        expect(diffs).toEqual([]);
        return;
      }
      expect(diffs.length).toBeGreaterThan(0);
      if (d.kind === 'not-computed' || d.kind === 'not-expressible') expect(diffs[0]).toMatch(/^svc refuses: /);
      if (d.agreesWith) expect(compareCase(s, { ...c, options: d.agreesWith })).toEqual([]);
    });
  });
});

import { describe, expect, it } from 'vitest';
import { computeShares, MADHHABS, schoolRules } from '../../../src/law/faraid/index.js';

const shareOf = (r: ReturnType<typeof computeShares>, heir: string): string | undefined =>
  r.shares.find((s) => s.heir === heir)?.share.toString();

// Husband, mother, two maternal half-brothers and a full brother: the mushtaraka case.
const MUSHTARAKA = { husband: 1, mother: 1, maternalHalfBrother: 2, fullBrother: 1 };

describe('school rules passed to the engine', () => {
  it('gives the same result for a school name and for its rules', () => {
    for (const m of MADHHABS) expect(computeShares(MUSHTARAKA, schoolRules(m))).toEqual(computeShares(MUSHTARAKA, m));
  });

  it('decides mushtaraka by the rule, not by the school name', () => {
    const hanafi = computeShares(MUSHTARAKA, 'hanafi');
    expect(shareOf(hanafi, 'fullBrother')).toBe('0/1');
    const sharing = computeShares(MUSHTARAKA, { ...schoolRules('hanafi'), mushtarakaSharing: true });
    expect(shareOf(sharing, 'fullBrother')).toBe('1/9');
    expect(shareOf(sharing, 'maternalHalfBrother')).toBe('2/9');
  });

  it('lets the grandfather exclude siblings only where the rule says so', () => {
    const heirs = { paternalGrandfather: 1, fullBrother: 1 };
    expect(shareOf(computeShares(heirs, 'hanafi'), 'fullBrother')).toBeUndefined();
    const zayd = computeShares(heirs, { ...schoolRules('hanafi'), grandfatherExcludesSiblings: false });
    expect(shareOf(zayd, 'fullBrother')).toBe('1/2');
    expect(zayd.specialCases).toContain('grandfather-with-siblings');
  });
});

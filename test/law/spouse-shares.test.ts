import { describe, expect, it } from 'vitest';
import { checkJurisdictionPlan } from '../../src/law/heirship.js';
import { b, J, reserve, rules } from './plans.js';

// What the civil-law checks tell of a spouse's share where it depends on facts a plan does not hold.

describe.concurrent("a spouse's reserve and marital property", () => {
  it('Romania, Greece, Germany: a spouse without descendants has at least the lowest reserve, more alone', () => {
    // Half of an intestate share that grows as the other relatives fall away (Romania arts. 972, 1088: 1/3 to all;
    // Greece arts. 1820, 1825: 1/2 to all): the plan cannot show the siblings, so the finding says "at least".
    // Germany the same (BGB § 1931(1), (2)): 3/4 (1/2 under separation of property) beside the second order.
    for (const [id, fraction, alone, regime] of [
      ['ro', '1/6', '1/2', undefined],
      ['gr', '1/4', '1/2', undefined],
      ['de', '3/8', '1/2', undefined],
      ['de', '1/4', '1/2', 'separate'],
    ] as const) {
      const plan = [b('wife', 10), b('friend', 90)];
      const opts = regime ? { maritalPropertyRegime: regime } : undefined;
      const [f] = reserve(checkJurisdictionPlan(J(id), 'civil-law', plan, opts));
      expect(f?.params?.fraction, id).toBe(fraction);
      expect(f?.message, id).toContain(`At least ${fraction}`);
      expect(f?.message, id).toContain(`${alone} when no`);
    }
  });

  it("Greece: without descendants the parents keep their reserve, beside the spouse's", () => {
    // Civil Code art. 1825: the parents who would inherit have half their intestate share; beside the spouse the
    // second class shares 1/2 (arts. 1814, 1820), alone the whole estate. Siblings share it per head, so these are
    // the most the parents can claim, and the finding says so.
    const parents = (fs: ReturnType<typeof reserve>) => fs.filter((f) => f.params?.heirs === 'parents');
    const withSpouse = reserve(
      checkJurisdictionPlan(J('gr'), 'civil-law', [b('wife', 50), b('mother', 5), b('friend', 45)]),
    );
    expect(parents(withSpouse)).toEqual([
      expect.objectContaining({ beneficiaryIndex: 1, params: expect.objectContaining({ fraction: '1/4' }) }),
    ]);
    expect(parents(withSpouse)[0]!.message).toContain('At most 1/4');
    expect(rules(withSpouse, 'forced-heirship.reserve').some((f) => f.params?.heirs === 'spouse')).toBe(false);
    const alone = reserve(checkJurisdictionPlan(J('gr'), 'civil-law', [b('father', 10), b('friend', 90)]));
    expect(parents(alone)).toEqual([expect.objectContaining({ params: expect.objectContaining({ fraction: '1/2' }) })]);
    expect(reserve(checkJurisdictionPlan(J('gr'), 'civil-law', [b('parents', 50), b('friend', 50)]))).toEqual([]);
    // Parents not named: the plan is told they would have a reserve.
    const unnamed = rules(
      checkJurisdictionPlan(J('gr'), 'civil-law', [b('friend', 100)]),
      'forced-heirship.unnamed-heirs',
    );
    expect(unnamed[0]?.params?.heirs).toContain('parents');
  });

  it('Romania: without descendants the parents keep their reserve, at most half their intestate share', () => {
    // Civil Code art. 1088: the parents (privileged ascendants) have half their intestate share; beside the spouse
    // the second class takes 1/2 when no sibling survives (art. 977(2)), alone the whole estate; siblings cut the
    // parents to 1/4 or 1/2 of the class (art. 978), so these are the most the parents can claim.
    const parents = (fs: ReturnType<typeof reserve>) => fs.filter((f) => f.params?.heirs === 'parents');
    const withSpouse = reserve(
      checkJurisdictionPlan(J('ro'), 'civil-law', [b('husband', 50), b('father', 5), b('friend', 45)]),
    );
    expect(parents(withSpouse)).toEqual([
      expect.objectContaining({ beneficiaryIndex: 1, params: expect.objectContaining({ fraction: '1/4' }) }),
    ]);
    expect(parents(withSpouse)[0]!.message).toContain('At most 1/4');
    const alone = reserve(checkJurisdictionPlan(J('ro'), 'civil-law', [b('mother', 10), b('friend', 90)]));
    expect(parents(alone)).toEqual([expect.objectContaining({ params: expect.objectContaining({ fraction: '1/2' }) })]);
    expect(reserve(checkJurisdictionPlan(J('ro'), 'civil-law', [b('parents', 50), b('friend', 50)]))).toEqual([]);
  });

  it('Bulgaria: beside a spouse the parents keep their reserve of 1/3', () => {
    // Inheritance Act art. 29: the parents (or the survivor of them) 1/3, the spouse 1/3 beside parents.
    const fs = reserve(checkJurisdictionPlan(J('bg'), 'civil-law', [b('wife', 40), b('mother', 5), b('friend', 55)]));
    expect(fs).toEqual([
      expect.objectContaining({
        beneficiaryIndex: 1,
        params: expect.objectContaining({ heirs: 'parents', fraction: '1/3' }),
      }),
    ]);
    const named = reserve(
      checkJurisdictionPlan(J('bg'), 'civil-law', [b('wife', 34), b('father', 34), b('friend', 32)]),
    );
    expect(named).toEqual([]);
  });

  it("Germany settles the gains at death by the spouse's larger share, not by a claim paid first", () => {
    // BGB § 1371(1): the statutory share rises by a quarter whatever the gains; only a spouse who is neither heir nor
    // legatee (or refuses) claims the equalisation (§ 1371(2), (3)). Sweden's bodelning is settled first.
    const [de] = rules(
      checkJurisdictionPlan(J('de'), 'civil-law', [b('wife', 50), b('son', 50)]),
      'spouse.deferred-community',
    );
    expect(de?.params?.variant).toBe('share-increase');
    expect(de?.message).not.toMatch(/settled before the estate is shared out/);
    expect(de?.message).toMatch(/larger statutory share takes its place/);
    const [se] = rules(
      checkJurisdictionPlan(J('se'), 'civil-law', [b('wife', 50), b('son', 50)]),
      'spouse.deferred-community',
    );
    expect(se?.params?.variant).toBe('claim');
    expect(se?.message).toMatch(/settled before the estate is shared out/);
  });
});

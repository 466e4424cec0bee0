import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/core/errors.js';
import { validateForGeneration } from '../../src/contracts/engine.js';
import { checkPlan } from '../../src/law/check-plan.js';
import { calculateFaraid } from '../../src/law/faraid/index.js';
import type { PlanBeneficiary } from '../../src/law/findings.js';
import { checkIslamicPlan } from '../../src/law/islamic.js';
import { defaultJurisdictions } from '../../src/law/jurisdictions.js';

// What an estate owner reads in the law's findings and the fara'id steps: sentences, not code or developer notes.

const index = defaultJurisdictions();
const b = (relationship: string, percentage: number): PlanBeneficiary => ({ name: 'x', percentage, relationship });
const steps = (input: Parameters<typeof calculateFaraid>[0]) => calculateFaraid(input).steps.map((s) => s.detail);

describe('words an owner reads', () => {
  it('a bequest to an heir begins with a capital', () => {
    const r = checkIslamicPlan('islamic-wasiyyah', [b('son', 70), b('daughter', 30)]);
    const m = r.findings.find((f) => f.rule === 'wasiyyah.bequest-to-heir')!.message;
    expect(m).toMatch(/^The son receives 70\.00% instead of/);
  });

  it('a step ends with one full stop, and an exclusion puts it after its bracket', () => {
    const id = steps({ heirs: { son: 1 }, jurisdiction: 'id' });
    for (const s of id) expect(s).not.toMatch(/\.\.$/);
    expect(id[0]).toMatch(/arts\. 185 and 209 are not applied by the calculator\.$/);
    const plan = checkPlan(index, { jurisdiction: 'id', template: 'islamic-mirth', beneficiaries: [b('son', 100)] });
    for (const f of plan.findings) expect(f.message, f.rule).not.toMatch(/\.\./);
    const excluded = checkIslamicPlan('islamic-mirth', [b('son', 50), b('brother', 50)]).findings.find(
      (f) => f.rule === 'faraid.excluded-heir',
    )!;
    expect(excluded.message).toBe(
      'The full brother inherits nothing: excluded by the son (a male descendant excludes all brothers and sisters).',
    );
    const legatee = checkIslamicPlan('islamic-wasiyyah', [b('son', 90), b('brother', 10)]).findings.find(
      (f) => f.rule === 'wasiyyah.excluded-heir-legatee',
    )!;
    expect(legatee.message).toContain('(a male descendant excludes all brothers and sisters) and so may');
  });

  it('a lone residuary simply takes the residue', () => {
    expect(steps({ heirs: { son: 1 } })).toContain('The son takes the whole estate, as residuary.');
    expect(steps({ heirs: { son: 2 } })).toContain('The sons (2, in equal parts) take the whole estate, as residuary.');
    expect(steps({ heirs: { wife: 1, son: 1 } })).toContain('The son takes the residue, 7/8, as residuary.');
    expect(steps({ heirs: { son: 1, daughter: 1 } }).join(' ')).toContain('son 2 parts per head, daughter 1 part');
    for (const s of steps({ heirs: { son: 1 } })) expect(s).not.toMatch(/1\/1|per head/);
  });

  it('names the school as a reader knows it, not by its code', () => {
    const r = checkIslamicPlan('islamic-wasiyyah', [b('son', 50), b('daughter', 40), b('friend', 10)], {
      madhhab: 'hanbali',
    });
    const said = r.findings.map((f) => f.message).join(' ');
    expect(said).toContain("the fara'id share (Hanbali school) is");
    expect(said).toContain("Shares computed by fara'id (Hanbali school)");
    expect(said).not.toMatch(/\bhanbali\b/);
  });

  it('a refused plan names the template and the country, not their codes', () => {
    const input = {
      blockchain: 'evm',
      ownerAddress: '0x27b1fdb04752bbc536007a920d24acb045561c26',
      beneficiaries: [
        { name: 'A', address: '0x52908400098527886E0F7030069857D2E4169EE7', percentage: 60, relationship: 'son' },
        { name: 'B', address: '0x8617e340b3d01fa5f11f306f4090fd50e238070d', percentage: 40, relationship: 'daughter' },
      ],
      inheritanceTemplate: 'islamic-mirth',
      jurisdiction: 'eg',
    } as Parameters<typeof validateForGeneration>[0];
    let err: unknown;
    try {
      validateForGeneration(input, index);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe(
      "The plan does not follow the “Islamic inheritance (mirath / fara'id)” template in Egypt.",
    );
  });

  it('says no developer reference: no docs path, no "svc", and an unknown relationship says what to give', () => {
    const found = [
      ...checkPlan(index, { jurisdiction: 'fr', template: 'custom', beneficiaries: [b('son', 33.333), b('x', 66.667)] })
        .findings,
      ...checkPlan(index, { jurisdiction: 'sa', template: 'islamic-mirth', beneficiaries: [b('pen pal', 100)] })
        .findings,
      ...checkIslamicPlan('islamic-mirth', [b('pen pal', 50), b('son', 50)]).findings,
    ];
    for (const f of found) {
      const said = `${f.message} ${f.source.title}`;
      expect(said, f.rule).not.toMatch(/docs|svc\b|see docs|decisions\.md|basis points on chain/);
    }
    const unknown = found.find((f) => f.rule === 'islamic.unmapped-relationship')!;
    expect(unknown.message).toContain('Give the relationship to the deceased as an heir: son, daughter,');
  });
});

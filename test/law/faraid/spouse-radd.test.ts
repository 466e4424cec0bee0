import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../../src/core/errors.js';
import {
  calculateFaraid,
  spouseRaddSetting,
  type FaraidInput,
  type FaraidResult,
} from '../../../src/law/faraid/index.js';
import { checkIslamicPlan } from '../../../src/law/islamic.js';
import { defaultJurisdictions, type Jurisdiction, type JurisdictionIndex } from '../../../src/law/jurisdictions.js';
import { startTestServer, type TestServer } from '../../helpers.js';

// A husband or wife as the only heir: radd to the spouse (later Hanafi fatwa, Egyptian law) or the fixed share
// with the rest to the public treasury (the classical position; YASSERRMD/Faraid). Both outcomes, each setting.

const totalBp = (r: FaraidResult) => r.shares.reduce((a, s) => a + s.basisPoints, 0) + (r.treasury?.basisPoints ?? 0);
const raddStep = (r: FaraidResult) =>
  r.steps
    .filter((s) => s.kind === 'radd')
    .map((s) => s.detail)
    .join(' ');

/** The real index, with one record whose practice is the classical one (no such record is asserted in the data). */
function indexWith(practice: boolean | undefined): JurisdictionIndex {
  const real = defaultJurisdictions();
  const eg = real.resolve('eg');
  const changed: Jurisdiction = {
    ...eg,
    islamicLaw: { ...eg.islamicLaw, ...(practice === undefined ? {} : { spouseRadd: practice }) },
  };
  if (practice === undefined) delete (changed.islamicLaw as { spouseRadd?: boolean }).spouseRadd;
  return {
    ...real,
    resolve: (id: string) => (id === 'eg' ? changed : real.resolve(id)),
    all: () => real.all(),
    get: (id) => real.get(id),
    list: (f) => real.list(f),
    suggest: (q, m) => real.suggest(q, m),
  };
}

describe('spouse as the only heir', () => {
  it.each([
    ['husband', 1, '1/2', 5000, '1/2', 5000],
    ['wife', 1, '1/4', 2500, '3/4', 7500],
  ] as const)(
    'the %s alone: everything by radd (true), or the fixed share and the treasury (false)',
    (heir, n, fixed, fixedBp, rest, restBp) => {
      const heirs = { [heir]: n } as FaraidInput['heirs'];
      const radd = calculateFaraid({ heirs, spouseRadd: true });
      expect(radd.shares).toEqual([
        expect.objectContaining({ heir, fraction: '1/1', basisPoints: 10000, percentage: '100.00' }),
      ]);
      expect(radd).toMatchObject({ radd: true, spouseRadd: true });
      expect(radd.treasury).toBeUndefined();
      expect(raddStep(radd)).toMatch(/returns to the (husband|wife).*Setting spouseRadd: true \(set by the request\)/);

      const classical = calculateFaraid({ heirs, spouseRadd: false });
      expect(classical.shares).toEqual([expect.objectContaining({ heir, fraction: fixed, basisPoints: fixedBp })]);
      expect(classical.treasury).toEqual({
        recipient: 'publicTreasury',
        fraction: rest,
        percentage: (restBp / 100).toFixed(2),
        basisPoints: restBp,
      });
      expect(classical).toMatchObject({ radd: false, spouseRadd: false });
      expect(totalBp(classical)).toBe(10000);
      expect(raddStep(classical)).toMatch(
        /No radd to a spouse.*public treasury \(bayt al-mal\).*Setting spouseRadd: false \(set by the request\)/,
      );
    },
  );

  it('four wives keep one quarter between them; the treasury takes three quarters, amounts summing to the estate', () => {
    const r = calculateFaraid({ heirs: { wife: 4 }, spouseRadd: false, estate: { total: '1000.01' } });
    expect(r.shares[0]).toMatchObject({ heir: 'wife', fraction: '1/4', perPersonBasisPoints: [625, 625, 625, 625] });
    expect(r.treasury).toMatchObject({ fraction: '3/4', basisPoints: 7500, amount: '750.01' }); // 750.0075: the leftover cent goes to the largest remainder
    const sum = [...r.shares[0]!.perPersonAmounts!, r.treasury!.amount!].reduce(
      (a, x) => a + Math.round(Number(x) * 100),
      0,
    );
    expect(sum).toBe(100001);
  });

  it('the setting changes nothing when another heir survives', () => {
    for (const heirs of [
      { wife: 1, daughter: 1 },
      { husband: 1, mother: 1 },
      { husband: 1, fullBrother: 2 },
    ] as const) {
      const a = calculateFaraid({ heirs, spouseRadd: true });
      const b = calculateFaraid({ heirs, spouseRadd: false });
      expect(b.shares).toEqual(a.shares);
      expect(b.treasury).toBeUndefined();
      expect(b.spouseRadd).toBe(false);
    }
  });

  it('defaults to radd without a jurisdiction, follows the jurisdiction record, and the request overrides it', () => {
    expect(calculateFaraid({ heirs: { husband: 1 } })).toMatchObject({
      spouseRadd: true,
      shares: [{ fraction: '1/1' }],
    });
    const eg = calculateFaraid({ heirs: { wife: 1 }, jurisdiction: 'eg' });
    expect(eg.spouseRadd).toBe(true);
    expect(raddStep(eg)).toMatch(/recorded practice of Egypt/);
    const classicalIndex = indexWith(false);
    const c = calculateFaraid({ heirs: { wife: 1 }, jurisdiction: 'eg' }, { jurisdictions: classicalIndex });
    expect(c).toMatchObject({ spouseRadd: false, treasury: { basisPoints: 7500 } });
    const overridden = calculateFaraid(
      { heirs: { wife: 1 }, jurisdiction: 'eg', spouseRadd: true },
      { jurisdictions: classicalIndex },
    );
    expect(overridden).toMatchObject({ spouseRadd: true, shares: [{ fraction: '1/1' }] });
    expect(spouseRaddSetting(undefined, 'eg', indexWith(undefined))).toEqual({
      value: true,
      source: 'the default; nothing is recorded for Egypt',
    });
    expect(() => calculateFaraid({ heirs: { wife: 1 }, jurisdiction: 'Atlantis' })).toThrow(ApiError);
  });

  it('Egypt records radd to the spouse', () => {
    expect(defaultJurisdictions().resolve('eg').islamicLaw.spouseRadd).toBe(true);
  });
});

describe('Islamic plan checks with a spouse as the only heir', () => {
  const husband100 = [{ name: 'H', percentage: 100, relationship: 'husband' }];
  it('radd: the husband carries 100%', () => {
    const r = checkIslamicPlan('islamic-mirth', husband100, { spouseRadd: true });
    expect(r.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(r.expected).toEqual([{ beneficiaryIndex: 0, heir: 'husband', expectedPercentage: '100.00' }]);
  });

  it('no radd: the husband carries 50% and the treasury, a beneficiary, the other 50%', () => {
    const bad = checkIslamicPlan('islamic-mirth', husband100, {
      spouseRadd: false,
      spouseRaddSource: 'set by the request',
    });
    const rules = bad.findings.filter((f) => f.severity === 'error').map((f) => f.rule);
    expect(rules).toEqual(expect.arrayContaining(['faraid.share-mismatch', 'faraid.public-treasury']));
    expect(bad.findings.find((f) => f.rule === 'faraid.public-treasury')).toMatchObject({
      expected: '50.00',
      message: expect.stringMatching(/set by the request/),
    });
    const good = checkIslamicPlan(
      'islamic-mirth',
      [
        { name: 'H', percentage: 50, relationship: 'husband' },
        { name: 'Bayt al-mal', percentage: 50, relationship: 'bayt al-mal' },
      ],
      { spouseRadd: false },
    );
    expect(good.findings.filter((f) => f.severity === 'error')).toEqual([]);
    expect(good.expected).toEqual([
      { beneficiaryIndex: 0, heir: 'husband', expectedPercentage: '50.00' },
      { beneficiaryIndex: 1, expectedPercentage: '50.00' },
    ]);
  });

  it('a treasury beneficiary takes nothing in a mirath plan when a relative inherits', () => {
    const r = checkIslamicPlan(
      'islamic-mirth',
      [
        { name: 'W', percentage: 25, relationship: 'wife' },
        { name: 'T', percentage: 75, relationship: 'public treasury' },
      ],
      { spouseRadd: true },
    );
    expect(r.findings.filter((f) => f.severity === 'error').map((f) => f.rule)).toEqual(
      expect.arrayContaining(['faraid.share-mismatch', 'faraid.non-heir']),
    );
  });
});

describe('over the tools', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ listen: false });
  });
  afterAll(async () => {
    await server?.close();
  });
  const post = (url: string, payload: object) =>
    server.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${server.adminKey}` }, payload });

  it('calculate_inheritance shows the treasury as its own line and the choice applied', async () => {
    const res = await post('/api/v1/inheritance/calculate', { heirs: { wife: 1 }, spouseRadd: false });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({
      spouseRadd: false,
      treasury: { recipient: 'publicTreasury', fraction: '3/4', basisPoints: 7500 },
    });
    expect(data.shares).toEqual([expect.objectContaining({ heir: 'wife', basisPoints: 2500 })]);
    const eg = (await post('/api/v1/inheritance/calculate', { heirs: { wife: 1 }, jurisdiction: 'Egypt' })).json().data;
    expect(eg).toMatchObject({ spouseRadd: true, shares: [{ heir: 'wife', basisPoints: 10000 }] });
  });

  it('check_plan uses the jurisdiction default for the Islamic templates and reports it', async () => {
    const plan = {
      template: 'islamic-mirth',
      beneficiaries: [{ name: 'H', percentage: 100, relationship: 'husband' }],
    };
    const eg = (await post('/api/v1/inheritance/check', { ...plan, jurisdiction: 'eg' })).json().data;
    expect(eg).toMatchObject({ ok: true, spouseRadd: true });
    const classical = (
      await post('/api/v1/inheritance/check', { ...plan, jurisdiction: 'eg', spouseRadd: false })
    ).json().data;
    expect(classical).toMatchObject({ ok: false, spouseRadd: false });
    expect(classical.findings.map((f: { rule: string }) => f.rule)).toContain('faraid.public-treasury');
    const common = (
      await post('/api/v1/inheritance/check', {
        jurisdiction: 'gb-eng',
        template: 'common-law',
        beneficiaries: [{ name: 'A', percentage: 100 }],
      })
    ).json().data;
    expect(common.spouseRadd).toBeUndefined();
  });
});

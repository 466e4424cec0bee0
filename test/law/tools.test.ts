import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ listen: false });
});
afterAll(async () => {
  await server?.close();
});

const auth = () => ({ authorization: `Bearer ${server.adminKey}` });

describe('jurisdiction tools over REST', () => {
  it('serves GET /api/jurisdictions/:id and the same under /api/v1', async () => {
    for (const url of ['/api/jurisdictions/California', '/api/v1/jurisdictions/us-ca', '/api/v1/jurisdictions/US-CA']) {
      const res = await server.app.inject({ url, headers: auth() });
      expect(res.statusCode, url).toBe(200);
      expect(res.json().data.id).toBe('us-ca');
    }
  });

  it('suggests close matches for an unknown id', async () => {
    const res = await server.app.inject({ url: '/api/v1/jurisdictions/Califrnia', headers: auth() });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.details[0].reason).toMatch(/us-ca/);
  });

  it('names the field that gave an unknown jurisdiction: "jurisdiction" in a check or a calculation, "id" in a lookup', async () => {
    for (const [url, payload] of [
      [
        '/api/v1/inheritance/check',
        { jurisdiction: 'xx', template: 'custom', beneficiaries: [{ name: 'A', percentage: 100 }] },
      ],
      ['/api/v1/inheritance/calculate', { jurisdiction: 'xx', heirs: { son: 1 } }],
      [
        '/api/v1/inheritance/check',
        { jurisdiction: 'Califrnia', template: 'custom', beneficiaries: [{ name: 'A', percentage: 100 }] },
      ],
    ] as const) {
      const res = await server.app.inject({ method: 'POST', url, headers: auth(), payload });
      expect(res.statusCode, url).toBe(404);
      const details = res.json().error.details as { field: string }[];
      expect(details.length, url).toBeGreaterThan(0);
      for (const d of details) expect(d.field, url).toBe('jurisdiction');
    }
    const res = await server.app.inject({ url: '/api/v1/jurisdictions/xx', headers: auth() });
    expect(res.json().error.details[0].field).toBe('id');
  });

  it('lists with filters and pagination, at /api/jurisdictions too', async () => {
    const res = await server.app.inject({
      url: '/api/jurisdictions?region=europe&forcedHeirship=true&limit=100',
      headers: auth(),
    });
    expect(res.statusCode).toBe(200);
    const ids = res.json().data.map((j: { id: string }) => j.id);
    expect(ids).toEqual(expect.arrayContaining(['fr', 'de', 'es', 'it', 'be']));
    expect(ids).not.toContain('gb-eng');
    expect(res.json().meta.pagination.total).toBe(ids.length);
  });
});

describe('check_plan', () => {
  const check = (payload: object) =>
    server.app.inject({ method: 'POST', url: '/api/v1/inheritance/check', headers: auth(), payload });

  it("flags a French plan that cuts into the children's reserve", async () => {
    const res = await check({
      jurisdiction: 'France',
      template: 'common-law',
      beneficiaries: [
        { name: 'A', percentage: 10, relationship: 'son' },
        { name: 'B', percentage: 10, relationship: 'daughter' },
        { name: 'C', percentage: 80, relationship: 'friend' },
      ],
    });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.jurisdiction.id).toBe('fr');
    expect(data.findings.map((f: { rule: string }) => f.rule)).toContain('forced-heirship.reserve');
    const reserve = data.findings.find((f: { rule: string }) => f.rule === 'forced-heirship.reserve');
    expect(reserve.source.title).toMatch(/Code civil/i);
  });

  it('raises nothing for a free English will', async () => {
    const data = (
      await check({
        jurisdiction: 'gb-eng',
        template: 'common-law',
        beneficiaries: [{ name: 'A', percentage: 100, relationship: 'friend' }],
      })
    ).json().data;
    expect(data.findings.filter((f: { severity: string }) => f.severity !== 'info')).toEqual([]);
    expect(data.ok).toBe(true);
  });

  it("checks islamic-mirth shares against fara'id and gives the expected percentages", async () => {
    const data = (
      await check({
        jurisdiction: 'sa',
        template: 'islamic-mirth',
        beneficiaries: [
          { name: 'Wife', percentage: 50, relationship: 'wife' },
          { name: 'Son', percentage: 50, relationship: 'son' },
        ],
      })
    ).json().data;
    expect(data.ok).toBe(false);
    expect(data.expected).toEqual([
      expect.objectContaining({ beneficiaryIndex: 0, heir: 'wife', expectedPercentage: '12.50' }),
      expect.objectContaining({ beneficiaryIndex: 1, heir: 'son', expectedPercentage: '87.50' }),
    ]);
  });

  it('flags percentages that do not sum to 100', async () => {
    const data = (
      await check({
        jurisdiction: 'us-ny',
        template: 'custom',
        beneficiaries: [
          { name: 'A', percentage: 60 },
          { name: 'B', percentage: 30 },
        ],
      })
    ).json().data;
    expect(data.findings[0]).toMatchObject({ severity: 'error', rule: 'plan.percentages-sum' });
  });

  it('accepts otherHeirs with any subset of heir kinds (missing kinds count as none)', async () => {
    const plan = {
      jurisdiction: 'sa',
      template: 'islamic-mirth',
      beneficiaries: [
        { name: 'Wife', percentage: 12.5, relationship: 'wife' },
        { name: 'Daughter', percentage: 87.5, relationship: 'daughter' },
      ],
    };
    // A brother who is not a beneficiary takes the residue: the daughter's 87.5% is then too much.
    const res = await check({ ...plan, otherHeirs: { fullBrother: 1 } });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.expected).toEqual([
      expect.objectContaining({ beneficiaryIndex: 0, heir: 'wife', expectedPercentage: '12.50' }),
      expect.objectContaining({ beneficiaryIndex: 1, heir: 'daughter', expectedPercentage: '50.00' }),
    ]);
    expect(data.ok).toBe(false);
    // Without the brother (empty record, or zeros) the daughter takes the rest by radd.
    for (const otherHeirs of [{}, { fullBrother: 0, mother: 0 }]) {
      const r = await check({ ...plan, otherHeirs });
      expect(r.statusCode).toBe(200);
      expect(r.json().data.ok).toBe(true);
    }
    // An unknown kind is a clear 400, not a 500.
    const bad = await check({ ...plan, otherHeirs: { brother: 1 } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ field: 'otherHeirs.brother' }] });
  });
});

describe('calculate_inheritance with national statutes over REST', () => {
  const calc = (payload: object) =>
    server.app.inject({ method: 'POST', url: '/api/v1/inheritance/calculate', headers: auth(), payload });

  it("applies Egypt's obligatory bequest and names the grandchildren in shares (output schema holds)", async () => {
    const res = await calc({
      heirs: { son: 1 },
      jurisdiction: 'eg',
      predeceasedChildren: [{ sex: 'male', sons: 1, daughters: 0 }],
    });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.shares.map((s: { heir: string; fraction: string }) => [s.heir, s.fraction])).toEqual([
      ['son', '2/3'],
      ['grandchild_son_of_predeceased_son_1', '1/3'],
    ]);
    expect(data.school).toMatchObject({ madhhab: 'hanafi', chosenBy: 'jurisdiction' });
  });

  it('rejects a malformed predeceased child with a 400 naming the field', async () => {
    const res = await calc({
      heirs: { son: 1 },
      jurisdiction: 'eg',
      predeceasedChildren: [{ sex: 'male', sons: 51, daughters: 0 }],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.details[0].field).toBe('predeceasedChildren.0.sons');
  });
});

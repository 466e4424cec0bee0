import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromNano } from '@ton/core';
import { analysisInWords } from '../../src/core/messages/advice.js';
import { lamportsToSol } from '../../src/contracts/solana/estimate.js';
import { LOCALES, numberFormats } from '../../src/core/messages/index.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { embedToken, partnerKey } from './support.js';

// estimate_gas on a plan: what the wizard's review step shows. The plan's own contract is measured (the same source
// and the same deployment gas as generate_contract finds for it), nothing is stored, and an embed token's call is
// admitted, counted and refused like any other tool call.

const SITE = 'https://partner.example';
const OWNER = '0x27b1fdb04752bbc536007a920d24acb045561c26';
const PLAN = {
  blockchain: 'evm',
  ownerAddress: OWNER,
  beneficiaries: [
    { name: 'Alice', address: '0x52908400098527886E0F7030069857D2E4169EE7', percentage: 60, relationship: 'daughter' },
    { name: 'Bob', address: '0x8617e340b3d01fa5f11f306f4090fd50e238070d', percentage: 40, relationship: 'son' },
  ],
  inheritanceTemplate: 'custom',
  deadMansSwitch: { enabled: true, intervalDays: 180, gracePeriodDays: 30 },
  guardians: {
    addresses: ['0xde709f2102306220921060314715629080e2fb77', '0x27b1fdb04752bbc536007a920d24acb045561c27'],
    threshold: 1,
  },
};

let server: TestServer;
let key: string;
let token: string;

const auth = (v: string) => ({ authorization: `Bearer ${v}` });
const estimate = (credential: string, payload: Record<string, unknown>) =>
  server.app.inject({ method: 'POST', url: '/api/v1/contracts/estimate-gas', headers: auth(credential), payload });

beforeAll(async () => {
  server = await startTestServer({ listen: false });
  ({ key } = await partnerKey(server, [SITE]));
  token = await embedToken(server, key, SITE);
}, 60_000);

afterAll(async () => {
  await server?.close();
});

/** The deployment gas generate_contract states in its contractInfo ("deployment 1,234 gas"). */
const generatedDeployment = (estimatedGas: string): number =>
  Number(/deployment ([\d,]+) gas/.exec(estimatedGas)![1]!.replace(/,/g, ''));

describe('estimate_gas on a plan', () => {
  it("measures the plan's own contract, as generation does, and stores nothing", async () => {
    const before = await server.services.store.all('events');
    const res = await estimate(token, { blockchain: 'evm', plan: PLAN });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.figures.beneficiaries).toBe(2);
    expect(body.method).toContain("the plan's own constructor arguments");
    expect(body.estimate.deployment).toMatch(/^[\d,]+ gas ≈ [\d.]+ ETH at 20 gwei$/);
    // Nothing stored, no event: the account has no contract, and the event log did not grow.
    const listed = await server.app.inject({ method: 'GET', url: '/api/v1/contracts', headers: auth(key) });
    expect(listed.json().data).toEqual([]);
    expect((await server.services.store.all('events')).length).toBe(before.length);

    // The same plan generated: the same source, and the same deployment gas (the same constructor arguments).
    const gen = await server.app.inject({
      method: 'POST',
      url: '/api/v1/contracts/generate',
      headers: auth(key),
      payload: PLAN,
    });
    expect(gen.statusCode, gen.body).toBe(200);
    expect(body.contractCode).toBe(gen.json().contractCode);
    expect(body.figures.deployment).toBe(generatedDeployment(gen.json().contractInfo.estimatedGas));
    // Generation's analysis in words, in every language: each warning this plan draws has its words, with the
    // plan's own figures, and the advice says when to check in.
    const analysis = gen.json().analysis;
    expect(analysis.warnings.map((w: { id: string }) => w.id)).toEqual(
      expect.arrayContaining(['guardian-threshold', 'single-guardian-release']),
    );
    for (const locale of LOCALES) {
      const words = analysisInWords(analysis, locale);
      expect(words.warnings.filter((w) => w.english)).toEqual([]);
      expect(words.advice.length).toBeGreaterThanOrEqual(3);
      expect(words.advice.join(' ')).toContain(numberFormats(locale).number(180));
    }
    expect(analysisInWords(analysis, 'fr').warnings.map((w) => w.message)).toContain(
      'N’importe lequel de vos 2 gardiens peut lancer une libération anticipée\u00a0; vous avez alors 30 jours pour l’annuler.',
    );
    expect(analysisInWords(analysis, 'en').advice).toContain(
      'Check in at least once every 180 days. Any other action of yours on the contract (a deposit, a change of the plan) counts too.',
    );
    // A default-contract estimate is a different figure: the plan's guardians and grace period cost gas.
    const plain = (await estimate(token, { blockchain: 'evm' })).json();
    expect(plain.figures.deployment).not.toBe(body.figures.deployment);
  }, 120_000);

  it('measures each number of heirs: three heirs cost more to deploy than two', async () => {
    const three = {
      ...PLAN,
      beneficiaries: [
        ...PLAN.beneficiaries.map((b) => ({ ...b, percentage: 30 })),
        { name: 'Carol', address: '0x0000000000000000000000000000000000c0ffee', percentage: 40 },
      ],
    };
    const [a, b] = await Promise.all([
      estimate(token, { blockchain: 'evm', plan: PLAN }),
      estimate(token, { blockchain: 'evm', plan: three }),
    ]);
    expect(b.json().figures.beneficiaries).toBe(3);
    expect(b.json().figures.deployment).toBeGreaterThan(a.json().figures.deployment);
  }, 120_000);

  it('answers the source of a TON and a Solana plan, with their measured or computed costs', async () => {
    const ton = await estimate(token, {
      blockchain: 'ton',
      plan: {
        blockchain: 'ton',
        ownerAddress: `0:${'b'.repeat(64)}`,
        beneficiaries: [
          { name: 'A', address: `0:${'a'.repeat(64)}`, percentage: 70 },
          { name: 'B', address: `0:${'c'.repeat(64)}`, percentage: 30 },
        ],
        deadMansSwitch: { enabled: true, intervalDays: 365 },
      },
    });
    expect(ton.statusCode, ton.body).toBe(200);
    expect(ton.json().contractCode).toContain('recv_internal');
    expect(ton.json().estimate.currency).toBe('TON');
    expect(ton.json().method).toContain('generated shape');
    // The raw figures say the same fees as the English text, in nanoton.
    const nanoton = ton.json().figures.nanoton;
    for (const op of ['deployment', 'claim', 'update'] as const) {
      expect(Number.isInteger(nanoton[op]) && nanoton[op] > 0, op).toBe(true);
      expect(ton.json().estimate[op], op).toBe(fromNano(BigInt(nanoton[op])));
    }
    const sol = await estimate(token, {
      blockchain: 'solana',
      plan: {
        blockchain: 'solana',
        ownerAddress: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
        beneficiaries: [
          { name: 'A', address: 'So11111111111111111111111111111111111111112', percentage: 50 },
          { name: 'B', address: 'Vote111111111111111111111111111111111111111', percentage: 50 },
        ],
        deadMansSwitch: { enabled: true, intervalDays: 365 },
      },
    });
    expect(sol.statusCode, sol.body).toBe(200);
    expect(sol.json().contractCode).toContain('#[program]');
    expect(sol.json().estimate.currency).toBe('SOL');
    // Lamports and compute units as data, the same as the English summaries.
    const { lamports, computeUnits } = sol.json().figures;
    expect(sol.json().estimate.deployment).toContain(`≈ ${lamportsToSol(lamports.deployment)} SOL`);
    expect(sol.json().estimate.claim).toContain(`${lamports.claim} lamports`);
    expect(sol.json().estimate.claim).toContain(`${computeUnits.claim.toLocaleString('en-US')} CU`);
  }, 120_000);

  it("names a plan's problems under plan., and refuses plan with contractCode or another chain", async () => {
    const bad = await estimate(token, {
      blockchain: 'evm',
      plan: { ...PLAN, beneficiaries: [{ ...PLAN.beneficiaries[0]!, percentage: 100, address: OWNER }] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details.map((d: { field: string }) => d.field)).toContain('plan.beneficiaries.0.address');
    const both = await estimate(token, { blockchain: 'evm', plan: PLAN, contractCode: 'contract A {}' });
    expect(both.statusCode).toBe(400);
    expect(both.json().error.details.map((d: { field: string }) => d.field)).toContain('contractCode');
    const other = await estimate(token, { blockchain: 'ton', plan: PLAN });
    expect(other.statusCode).toBe(400);
    expect(other.json().error.details.map((d: { field: string }) => d.field)).toContain('plan.blockchain');
  });

  it("counts against the key's limits and is refused for a suspended account", async () => {
    const first = await estimate(token, { blockchain: 'evm', plan: { ...PLAN, ownerAddress: 'nope' } });
    const second = await estimate(token, { blockchain: 'evm', plan: { ...PLAN, ownerAddress: 'nope' } });
    expect(Number(second.headers['x-ratelimit-remaining'])).toBe(Number(first.headers['x-ratelimit-remaining']) - 1);
    const made = await server.app.inject({
      method: 'POST',
      url: '/api/v1/accounts',
      headers: auth(server.adminKey),
      payload: { name: 'Soon suspended', tier: 'partner' },
    });
    const { account } = made.json().data;
    // A token of a key in that account: admitted (its plan's problem is answered) until the account is suspended.
    const otherKey = await server.key({
      tier: 'partner',
      scopes: ['embed', 'contracts'],
      allowedOrigins: [SITE],
      ownerId: account.id,
    });
    const otherToken = await embedToken(server, otherKey, SITE);
    const admitted = await estimate(otherToken, { blockchain: 'evm', plan: { ...PLAN, ownerAddress: 'nope' } });
    expect(admitted.json().error.details[0].field).toBe('plan.ownerAddress');
    await server.app.inject({
      method: 'DELETE',
      url: `/api/v1/accounts/${account.id}`,
      headers: auth(server.adminKey),
    });
    const refused = await estimate(otherToken, { blockchain: 'evm', plan: PLAN });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.code).toBe('ACCOUNT_SUSPENDED');
  }, 120_000);
});

describe('analysis in words', () => {
  it('says coded warnings and advice from their params, keeps uncoded warnings in English and sorts the rest apart', () => {
    const words = analysisInWords(
      {
        warnings: [
          {
            id: 'short-interval',
            severity: 'medium',
            message: 'The check-in interval is 7 day(s): ...',
            code: 'evm.short-interval',
            params: { intervalDays: 1200 },
          },
          { id: 'something-new', severity: 'info', message: 'A new finding.' },
        ],
        suggestions: [
          'Check in before 7 days pass (checkIn(), about 30000 gas); ...',
          "The default dead man's switch (7 days) was applied: ...",
          'cancel() returns the ETH to the owner; ...',
        ],
        advice: [
          {
            code: 'evm.advice-check-in',
            params: { intervalDays: 90, checkInGas: 30_000 },
            message: 'Check in before 7 days pass (checkIn(), about 30000 gas); ...',
          },
          {
            code: 'plan.advice-default-switch',
            params: { intervalDays: 365 },
            message: "The default dead man's switch (7 days) was applied: ...",
          },
          { code: 'evm.advice-cancel', params: {}, message: 'cancel() returns the ETH to the owner; ...' },
        ],
      },
      'es',
    );
    expect(words.warnings[0]).toMatchObject({ english: false });
    expect(words.warnings[0]!.message).toContain('1200 días');
    expect(words.warnings[1]).toEqual({
      id: 'something-new',
      severity: 'info',
      message: 'A new finding.',
      english: true,
    });
    expect(words.advice).toEqual([
      'Dé señales de vida al menos una vez cada 90 días. Cualquier otra acción suya en el contrato (un depósito, un cambio del plan) también cuenta.',
      'Dé señales de vida al menos una vez cada 365 días, o elija su propio intervalo.',
    ]);
    expect(words.technical).toEqual(['cancel() returns the ETH to the owner; ...']);
  });
});

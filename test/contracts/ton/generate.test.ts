import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Address, Cell, loadStateInit } from '@ton/core';
import { afterAll, describe, expect, it } from 'vitest';
import { compileFuncUncached } from '../../../src/contracts/ton/compile.js';
import { buildInitialData, tonPlanData } from '../../../src/contracts/ton/data.js';
import {
  estimateTonFees,
  generateTon,
  sampleTonPlanData,
  tonContractSource,
  tonPlanDataFor,
  type TonShape,
} from '../../../src/contracts/ton/index.js';
import { runTonScenario } from '../../../src/contracts/ton/scenario.js';
import { ScenarioError } from '../../../src/contracts/ton/scenario-run.js';
import { addr, makePlan } from './helpers.js';
import { apiRejection as rejection } from '../../support/rejection.js';

const run = promisify(execFile);
const TMP = join(import.meta.dirname, '.tmp');

afterAll(() => rmSync(TMP, { recursive: true, force: true }));

describe('generateTon', () => {
  it('returns a deployment script that, run on its own, computes the same address and StateInit', async () => {
    const plan = makePlan({
      n: 3,
      dms: { intervalDays: 365, gracePeriodDays: 14 },
      guardians: { n: 3, threshold: 2 },
      jettons: 2,
    });
    const r = await generateTon(plan);
    expect(r.features).toContain('jettons');
    // no personal data of the beneficiaries in what goes on chain or into the script
    expect(r.deployScript).not.toContain('Heir');
    expect(r.deployScript).toContain("from '@ton/core'");
    mkdirSync(TMP, { recursive: true });
    const file = join(TMP, 'deploy.ts');
    writeFileSync(file, r.deployScript);
    const { stdout } = await run(process.execPath, ['--import', 'tsx', file], { cwd: process.cwd(), timeout: 60_000 });
    const out = JSON.parse(stdout) as { address: string; rawAddress: string; stateInit: string; deployBody: string };
    expect(Address.parse(out.address).equals(Address.parse(r.address))).toBe(true);
    const init = loadStateInit(Cell.fromBase64(out.stateInit).beginParse());
    expect(init.code!.hash().toString('hex')).toBe(r.codeHash);
    expect(init.data!.hash().equals(buildInitialData(await tonPlanDataFor(plan)).hash())).toBe(true);
    expect(Cell.fromBase64(out.deployBody).beginParse().loadUint(32)).toBe(0x64706f73);
  }, 90_000);

  it('gives the same code for plans of one shape and different addresses for different plans', async () => {
    const a = await generateTon(makePlan({ n: 2, dms: { intervalDays: 100, gracePeriodDays: 0 } }));
    const b = await generateTon(makePlan({ n: 5, dms: { intervalDays: 200, gracePeriodDays: 0 } }));
    expect(a.codeHash).toBe(b.codeHash);
    expect(a.contractCode).toBe(b.contractCode);
    expect(a.address).not.toBe(b.address);
    const c = await generateTon(makePlan({ n: 2, dms: { intervalDays: 100, gracePeriodDays: 3 } }));
    expect(c.codeHash).not.toBe(a.codeHash);
  });

  it('rejects token types of other chains, jettons without a master and a master listed twice, with located details', async () => {
    const plan = makePlan({ n: 2 });
    plan.assets = [
      { type: 'native' },
      { type: 'jetton', address: addr('jetton').toRawString() },
      { type: 'erc20', address: '0x' + '11'.repeat(20) },
      { type: 'jetton' },
      { type: 'jetton', address: addr('jetton').toString() },
    ];
    const err = await rejection(generateTon(plan));
    expect(err.code).toBe('VALIDATION_ERROR');
    expect(err.details!.map((d) => d.field)).toEqual(['assets.2.type', 'assets.3.address', 'assets']);
  });

  it('rejects more than 50 beneficiaries and a guardian threshold above the number of guardians', async () => {
    const tooMany = makePlan({ n: 51 });
    expect((await rejection(generateTon(tooMany))).details![0]!.reason).toMatch(/at most 50/);
    const g = makePlan({ n: 2, guardians: { n: 2, threshold: 3 } });
    expect((await rejection(generateTon(g))).details![0]!.field).toBe('guardians.threshold');
  });

  it('maps percentages with two decimals to basis points', () => {
    const plan = makePlan({ n: 3 });
    plan.beneficiaries[0]!.percentage = 33.33;
    plan.beneficiaries[1]!.percentage = 33.33;
    plan.beneficiaries[2]!.percentage = 33.34;
    expect(tonPlanData(plan, { reserve: 0n, rate: 0n }).beneficiaries.map((x) => x.shareBps)).toEqual([
      3333, 3333, 3334,
    ]);
  });

  it('reports analysis warnings that depend on the plan', async () => {
    const bare = await generateTon(makePlan({ n: 2 }));
    const safe = await generateTon(
      makePlan({ n: 2, dms: { intervalDays: 365, gracePeriodDays: 30 }, guardians: { n: 3, threshold: 2 } }),
    );
    expect(bare.analysis.warnings.map((w) => w.id)).toContain('ton-owner-only-release');
    expect(safe.analysis.warnings.map((w) => w.id)).not.toContain('ton-owner-only-release');
    expect(safe.analysis.securityScore).toBeGreaterThan(bare.analysis.securityScore);
    expect(bare.analysis.suggestions.length).toBeGreaterThan(0);
  });
});

describe('the verification scenario catches a defective contract', () => {
  const shape: TonShape = {
    template: 'custom',
    deadMansSwitch: true,
    gracePeriod: false,
    guardians: false,
    jettons: false,
  };
  const source = tonContractSource(shape);

  async function failsAt(mutated: string): Promise<string> {
    expect(mutated).not.toBe(source);
    const { code } = await compileFuncUncached(mutated);
    try {
      await runTonScenario(shape, code, await sampleTonPlanData(shape));
    } catch (e) {
      expect(e).toBeInstanceOf(ScenarioError);
      return (e as ScenarioError).step;
    }
    throw new Error('the scenario accepted a defective contract');
  }

  it('an owner check that lets anyone through', async () => {
    expect(await failsAt(source.replace('throw_unless(err::not_owner, equal_slices(sender, ctx_owner));', ''))).toBe(
      'stranger checkIn refused',
    );
  });

  it('a payout of twice the share', async () => {
    expect(await failsAt(source.replace('share, 10000)', 'share, 5000)'))).toMatch(/claim/);
  });

  it('a bounce handler that forgets the payout', async () => {
    expect(await failsAt(source.replace('ctx_claimed_total -= amount;', ''))).toBe('bounce');
  });

  it('a deadline that ignores check-ins', async () => {
    expect(await failsAt(source.replace('return ctx_last + ctx_interval;', 'return ctx_interval;'))).toMatch(
      /deploy|checkIn/,
    );
  });
});

describe('estimateTonFees', () => {
  it('measures the reference contract without source', async () => {
    const e = await estimateTonFees({});
    expect(e.currency).toBe('TON');
    for (const k of ['deployment', 'claim', 'update'] as const) expect(Number(e[k])).toBeGreaterThan(0);
    expect(e.method).toMatch(/sandbox/);
    // storage rent per year and over the interval, paid from the reserve
    expect(e.method).toMatch(/storage rent \d+\.\d+ TON per year/);
    const r = e.storageRent;
    expect(Number(r.perYear)).toBeGreaterThan(0);
    expect(Number(r.overIntervalAndGrace)).toBeGreaterThanOrEqual(Number(r.perYear));
    expect(Number(r.reserve)).toBeGreaterThan(Number(r.overIntervalAndGrace));
    expect(r.reserveLastsDays).toBeGreaterThan(365);
    expect(r.bitPricePer65536s).toBe('1');
    expect(r.cellPricePer65536s).toBe('500');
    // estimate_gas passes them on as figures
    const { estimateCosts } = await import('../../../src/contracts/engine.js');
    const { ContractEngine } = await import('../../../src/contracts/engine.js');
    const engine = new ContractEngine();
    try {
      const out = await estimateCosts({ blockchain: 'ton' }, { engine });
      expect(out.figures.storageRent).toEqual(r);
    } finally {
      await engine.close();
    }
  });

  it('measures the shape of generated source', async () => {
    const big: TonShape = {
      template: 'civil-law',
      deadMansSwitch: true,
      gracePeriod: true,
      guardians: true,
      jettons: true,
    };
    const e = await estimateTonFees({ contractCode: tonContractSource(big) });
    expect(e.method).toContain('civil-law');
    expect(Number(e.claim)).toBeGreaterThan(0);
  });

  it('measures the deployment of other FunC source and locates its compile errors', async () => {
    const e = await estimateTonFees({ contractCode: '() recv_internal() impure { }' });
    expect(Number(e.deployment)).toBeGreaterThan(0);
    expect(e.method).toMatch(/not one this service generates/);
    const err = await rejection(estimateTonFees({ contractCode: '() recv_internal() impure {\n  nope();\n}' }));
    expect(err.details![0]).toMatchObject({ field: 'contractCode', line: 2 });
  });
});

describe('plans where people have several roles', () => {
  it('verifies a plan whose guardians are also beneficiaries', async () => {
    const plan = makePlan({ n: 3, dms: { intervalDays: 60, gracePeriodDays: 10 }, guardians: { n: 2, threshold: 2 } });
    plan.guardians!.addresses = [plan.beneficiaries[0]!.address, plan.beneficiaries[1]!.address];
    const r = await generateTon(plan);
    expect(r.features).toContain('multiSig');
  });

  it('verifies a plan whose only beneficiary is also the only guardian (no bounce test possible)', async () => {
    const plan = makePlan({ n: 1, guardians: { n: 1, threshold: 1 } });
    plan.guardians!.addresses = [plan.beneficiaries[0]!.address];
    const r = await generateTon(plan);
    expect(Number(r.fees.claim)).toBeGreaterThan(0);
  });

  it('names every invalid address in the plan', async () => {
    const plan = makePlan({ n: 2, guardians: { n: 2, threshold: 1 } });
    plan.beneficiaries[1]!.address = '0:xyz';
    plan.guardians!.addresses[0] = 'EQ' + 'A'.repeat(46);
    const err = await rejection(generateTon(plan));
    expect(err.details!.map((d) => d.field)).toEqual(['beneficiaries.1.address', 'guardians.addresses.0']);
  });
});

import { toNano, type Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { analyseTon } from '../../../src/contracts/ton/analysis.js';
import { buildInitialData, tonAddressFor, tonPlanData, type TonPlanData } from '../../../src/contracts/ton/data.js';
import { tonDeployScript } from '../../../src/contracts/ton/deploy-script.js';
import { TonHarness } from '../../../src/contracts/ton/harness.js';
import {
  buildTonShape,
  TON_ERR as ERR,
  TON_OP as OP,
  TON_STATE as STATE,
  type TonShape,
} from '../../../src/contracts/ton/index.js';
import { rentFigures, rentReserveFor } from '../../../src/contracts/ton/rent.js';
import { addr, makePlan } from './helpers.js';

// The guardian wait and the veto bound are plan options written into the contract's data, executed in
// @ton/sandbox with values other than the defaults (30 days, 2 vetoes).

const T0 = 1_900_000_000;
const DAY = 86_400;
const GAS = toNano('0.1');
const owner = addr('owner');
const b = [addr('b0'), addr('b1')];
const g = [addr('g0'), addr('g1'), addr('g2')];
const INTERVAL = 365 * DAY;
const GRACE = 30 * DAY;
const shape: TonShape = {
  template: 'custom',
  deadMansSwitch: true,
  gracePeriod: true,
  guardians: true,
  jettons: false,
};

async function deployed(waitSeconds: number, maxVetoes: number) {
  const { compiled } = await buildTonShape(shape);
  const base: Omit<TonPlanData, 'rent'> = {
    owner,
    beneficiaries: [
      { address: b[0]!, shareBps: 6000 },
      { address: b[1]!, shareBps: 4000 },
    ],
    intervalSeconds: INTERVAL,
    graceSeconds: GRACE,
    guardians: { addresses: g, threshold: 2, waitSeconds, maxVetoes },
  };
  const data: TonPlanData = { ...base, rent: await rentReserveFor(compiled.code, base) };
  const cell: Cell = buildInitialData(data);
  const h = await TonHarness.create(compiled.code, cell, tonAddressFor(compiled.code, cell), T0);
  for (const a of [owner, ...b, ...g]) await h.installSink(a, toNano('100'));
  expect((await h.deploy(owner, toNano('5'))).success).toBe(true);
  return { h, data, code: compiled.code };
}

const approve = (h: TonHarness, i: number) => h.op(g[i]!, OP.approve, GAS, (x) => x.storeUint(i, 8));
const veto = (h: TonHarness, i: number) => h.op(g[i]!, OP.veto, GAS, (x) => x.storeUint(i, 8));

describe.concurrent('TON guardian wait and veto bound from the plan', () => {
  it('a 10-day wait: the quorum releases after 10 days of the owner silence, not 30', async () => {
    const { h } = await deployed(10 * DAY, 3);
    expect(await h.guardianRules()).toEqual({ waitSeconds: 10 * DAY, maxVetoes: 3 });
    h.now = T0 + 20 * DAY;
    expect((await approve(h, 0)).success).toBe(true);
    expect((await approve(h, 1)).success).toBe(true);
    const { releaseAt } = await h.guardians();
    expect(releaseAt).toBe(h.now + 10 * DAY);
    h.now = releaseAt - 1;
    expect(await h.state()).toBe(STATE.active);
    h.now = releaseAt;
    expect(await h.state()).toBe(STATE.released);
  });

  it('a bound of 3 vetoes: three postpone the release, the fourth is refused and the release proceeds', async () => {
    const { h } = await deployed(10 * DAY, 3);
    expect((await h.guardians()).vetoesLeft).toBe(3);
    for (let k = 0; k < 3; k++) {
      h.now = (await h.deadline()) + DAY;
      expect((await veto(h, 0)).success).toBe(true);
      expect((await veto(h, 1)).success).toBe(true);
      expect(await h.deadline()).toBe(h.now + INTERVAL);
    }
    expect((await h.guardians()).vetoesLeft).toBe(0);
    h.now = (await h.deadline()) + DAY;
    expect((await veto(h, 0)).exitCode).toBe(ERR.vetoLimit);
    h.now = await h.releaseTime();
    expect(await h.state()).toBe(STATE.released);
    // the votes and the clock changed, the plan's rules did not
    expect(await h.guardianRules()).toEqual({ waitSeconds: 10 * DAY, maxVetoes: 3 });
  });

  it('a bound of 0 vetoes refuses every veto', async () => {
    const { h } = await deployed(30 * DAY, 0);
    h.now = (await h.deadline()) + DAY;
    expect((await veto(h, 0)).exitCode).toBe(ERR.vetoLimit);
  });

  it('the plan options reach the data, the deploy script and the advice', async () => {
    const plan = makePlan({ n: 2, dms: { intervalDays: 365, gracePeriodDays: 30 }, guardians: { n: 3, threshold: 2 } });
    plan.guardians = { ...plan.guardians!, waitDays: 14, maxVetoes: 1 };
    const data = tonPlanData(plan, { reserve: 0n, rate: 0n });
    expect(data.guardians).toMatchObject({ waitSeconds: 14 * DAY, maxVetoes: 1 });
    const { h, code } = await deployed(14 * DAY, 1);
    expect(await h.guardianRules()).toEqual({ waitSeconds: 14 * DAY, maxVetoes: 1 });
    const script = tonDeployScript('te6cc', data, 'hash');
    expect(script).toContain(`"waitSeconds": ${14 * DAY}`);
    expect(script).toContain('.storeUint(PLAN.guardians.waitSeconds, 32).storeUint(PLAN.guardians.maxVetoes, 8)');
    expect(script).toContain('14 days later unless the owner sends any message first');
    const withRent = { ...data, rent: await rentReserveFor(code, data) };
    const a = analyseTon(shape, withRent, await rentFigures(code, withRent));
    const w = a.warnings.find((x) => x.id === 'ton-guardian-threshold');
    expect(w?.message).toContain('after 14 days');
    expect(w?.message).toContain('once after');
    expect(w?.message).toContain('the wait to 14 days instead of 30 and the veto bound to 1 instead of 2');
  });
});

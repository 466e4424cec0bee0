import { type Address, beginCell, toNano, type Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { GUARDIAN_WAIT_DAYS, MAX_VETOES } from '../../../src/contracts/guardians.js';
import { buildInitialData, tonAddressFor, updateBody, type TonPlanData } from '../../../src/contracts/ton/data.js';
import { TonHarness } from '../../../src/contracts/ton/harness.js';
import {
  buildTonShape,
  TON_ERR as ERR,
  TON_OP as OP,
  TON_STATE as STATE,
  type TonShape,
} from '../../../src/contracts/ton/index.js';
import { rentReserveFor } from '../../../src/contracts/ton/rent.js';
import { addr } from './helpers.js';

// A living owner stays in control, executed in @ton/sandbox: the clock starts with the owner's own first
// message (not with a stranger's deployment of the public StateInit), every owner action moves the deadline,
// and guardians confirm an absence without overruling the owner (their early release waits for the owner's
// silence; their vetoes are bounded).

const T0 = 1_900_000_000;
const DAY = 86_400;
const WAIT = GUARDIAN_WAIT_DAYS * DAY;
const GAS = toNano('0.1');
const owner = addr('owner');
const stranger = addr('stranger');
const b = [addr('b0'), addr('b1')];
const g = [addr('g0'), addr('g1'), addr('g2')];
const INTERVAL = 365 * DAY;
const GRACE = 30 * DAY;

function shape(p: Partial<TonShape>): TonShape {
  return { template: 'custom', deadMansSwitch: true, gracePeriod: true, guardians: true, jettons: false, ...p };
}

/** The contract set up but not deployed: `h.deploy(from)` (or any message with the StateInit) creates it. */
async function prepared(s: TonShape) {
  const { compiled } = await buildTonShape(s);
  const base: Omit<TonPlanData, 'rent'> = {
    owner,
    beneficiaries: [
      { address: b[0]!, shareBps: 6000 },
      { address: b[1]!, shareBps: 4000 },
    ],
    intervalSeconds: s.deadMansSwitch ? INTERVAL : 0,
    graceSeconds: s.gracePeriod ? GRACE : 0,
    ...(s.guardians ? { guardians: { addresses: g, threshold: 2 } } : {}),
  };
  const data: TonPlanData = { ...base, rent: await rentReserveFor(compiled.code, base) };
  const cell: Cell = buildInitialData(data);
  const h = await TonHarness.create(compiled.code, cell, tonAddressFor(compiled.code, cell), T0);
  for (const a of [owner, stranger, ...b, ...g]) await h.installSink(a, toNano('100'));
  return h;
}

async function deployed(s: TonShape) {
  const h = await prepared(s);
  expect((await h.deploy(owner, toNano('5'))).success).toBe(true);
  return h;
}

const claim = (h: TonHarness, from: Address, index: number) => h.op(from, OP.claim, GAS, (x) => x.storeUint(index, 8));
const approve = (h: TonHarness, i: number) => h.op(g[i]!, OP.approve, GAS, (x) => x.storeUint(i, 8));
const veto = (h: TonHarness, i: number) => h.op(g[i]!, OP.veto, GAS, (x) => x.storeUint(i, 8));

describe.concurrent('TON: the clock starts with the owner', () => {
  it('a stranger who deploys the StateInit first starts nothing; the owner deploying 400 days later starts the clock', async () => {
    const h = await prepared(shape({ guardians: false }));
    const deposit = beginCell().storeUint(OP.deposit, 32).storeUint(0, 64).endCell();
    const first = await h.sendRaw(stranger, toNano('3'), deposit, true);
    expect(first.success).toBe(true);
    expect(await h.lastCheckIn()).toBe(0);
    h.now = T0 + 400 * DAY;
    expect(await h.state()).toBe(STATE.active);
    expect((await claim(h, b[0]!, 0)).exitCode).toBe(ERR.notReleased);
    // The owner deploys as the instructions say: the clock starts now, and the owner's check-in works.
    expect((await h.deploy(owner, toNano('1'))).success).toBe(true);
    expect(await h.lastCheckIn()).toBe(h.now);
    expect(await h.deadline()).toBe(h.now + INTERVAL);
    expect((await h.op(owner, OP.checkIn, GAS)).success).toBe(true);
    expect((await claim(h, b[0]!, 0)).exitCode).toBe(ERR.notReleased);
    expect(await h.state()).toBe(STATE.active);
  });

  it('guardians cannot act on a clock the owner has not started', async () => {
    const h = await prepared(shape({}));
    const deposit = beginCell().storeUint(OP.deposit, 32).storeUint(0, 64).endCell();
    expect((await h.sendRaw(stranger, toNano('3'), deposit, true)).success).toBe(true);
    expect((await approve(h, 0)).exitCode).toBe(ERR.notStarted);
    h.now = T0 + INTERVAL + DAY;
    expect((await veto(h, 1)).exitCode).toBe(ERR.notStarted);
  });
});

describe.concurrent('TON: every owner action is proof of life', () => {
  for (const [label, act] of [
    [
      'an update',
      (h: TonHarness) =>
        h.sendRaw(
          owner,
          GAS,
          updateBody([
            { address: b[0]!, shareBps: 5000 },
            { address: b[1]!, shareBps: 5000 },
          ]),
        ),
    ],
    ['a withdrawal', (h: TonHarness) => h.op(owner, OP.withdraw, GAS, (x) => x.storeCoins(toNano('1')))],
    ['a deposit', (h: TonHarness) => h.op(owner, OP.deposit, toNano('1'))],
    ['a plain transfer', (h: TonHarness) => h.sendRaw(owner, toNano('1'), beginCell().endCell())],
  ] as const) {
    it(`${label} moves the deadline; the estate is not released at the old one`, async () => {
      const h = await deployed(shape({ guardians: false }));
      h.now = T0 + 300 * DAY;
      expect((await act(h)).success).toBe(true);
      expect(await h.lastCheckIn()).toBe(T0 + 300 * DAY);
      expect(await h.deadline()).toBe(T0 + 300 * DAY + INTERVAL);
      h.now = T0 + INTERVAL + GRACE + DAY; // past the old release time
      expect(await h.state()).toBe(STATE.active);
      expect((await claim(h, b[1]!, 1)).exitCode).toBe(ERR.notReleased);
    });
  }

  it("a stranger's deposit is not proof of life", async () => {
    const h = await deployed(shape({ guardians: false }));
    h.now = T0 + 300 * DAY;
    expect((await h.op(stranger, OP.deposit, toNano('1'))).success).toBe(true);
    expect(await h.lastCheckIn()).toBe(T0);
  });
});

describe.concurrent('TON guardians cannot overrule a living owner', () => {
  it("a quorum's release a day after a check-in waits for the owner's silence; the owner's next action cancels it", async () => {
    const h = await deployed(shape({}));
    h.now = T0 + 100 * DAY;
    expect((await h.op(owner, OP.checkIn, GAS)).success).toBe(true);
    h.now += DAY;
    expect((await approve(h, 0)).success).toBe(true);
    expect((await approve(h, 1)).success).toBe(true);
    expect(await h.state()).toBe(STATE.active);
    expect((await h.guardians()).releaseAt).toBe(h.now + WAIT);
    expect((await claim(h, b[0]!, 0)).exitCode).toBe(ERR.notReleased);
    h.now += WAIT - DAY;
    expect((await h.op(owner, OP.checkIn, GAS)).success).toBe(true);
    expect((await h.guardians()).releaseAt).toBe(0);
    expect((await h.guardians()).approvals).toBe(0);
    h.now += 2 * WAIT;
    expect(await h.state()).toBe(STATE.active);
    expect((await claim(h, b[0]!, 0)).exitCode).toBe(ERR.notReleased);
  });

  it('with the owner silent for the waiting period the estate is released; the late check-in fails', async () => {
    const h = await deployed(shape({ deadMansSwitch: false, gracePeriod: false }));
    h.now = T0 + 10 * DAY;
    expect((await approve(h, 2)).success).toBe(true);
    expect((await approve(h, 0)).success).toBe(true);
    const at = (await h.guardians()).releaseAt;
    h.now = at - 1;
    expect(await h.state()).toBe(STATE.active);
    h.now = at;
    expect(await h.state()).toBe(STATE.released);
    expect((await h.op(owner, OP.checkIn, GAS)).success).toBe(false);
    expect((await h.op(owner, OP.withdraw, GAS, (x) => x.storeCoins(1n))).success).toBe(false);
    expect((await claim(h, b[0]!, 0)).success).toBe(true);
  });

  it('a quorum vetoes at most MAX_VETOES times after the owner is gone; then the release proceeds', async () => {
    const h = await deployed(shape({}));
    for (let k = 0; k < MAX_VETOES; k++) {
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
    expect((await claim(h, b[1]!, 1)).success).toBe(true);
    // the owner's sign of life would have given the vetoes back, but the owner is gone: nothing resets them
    h.now += 30 * 365 * DAY;
    expect((await veto(h, 1)).success).toBe(false);
  });

  it("the owner's check-in gives the guardians their vetoes back", async () => {
    const h = await deployed(shape({}));
    h.now = (await h.deadline()) + DAY;
    expect((await veto(h, 0)).success).toBe(true);
    expect((await veto(h, 2)).success).toBe(true);
    expect((await h.guardians()).vetoesLeft).toBe(MAX_VETOES - 1);
    expect((await h.op(owner, OP.checkIn, GAS)).success).toBe(true);
    expect((await h.guardians()).vetoesLeft).toBe(MAX_VETOES);
  });
});

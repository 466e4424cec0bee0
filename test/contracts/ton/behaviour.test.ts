import { type Address, beginCell, toNano, type Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { rentReserveFor } from '../../../src/contracts/ton/rent.js';
import { buildInitialData, tonAddressFor, updateBody, type TonPlanData } from '../../../src/contracts/ton/data.js';
import { computeExit, TonHarness, type SentOp } from '../../../src/contracts/ton/harness.js';
import {
  buildTonShape,
  TON_ERR as ERR,
  TON_OP as OP,
  TON_STATE as STATE,
  type TonShape,
} from '../../../src/contracts/ton/index.js';
import {
  jettonDoubleCode,
  jettonMasterData,
  jettonMintBody,
  jettonWalletAddress,
  jettonWalletData,
} from '../../../src/contracts/ton/jetton-double.js';
import { internal } from '@ton/sandbox';
import { addr } from './helpers.js';

// Hand-written behaviour checks of the contract in the sandbox, independent of
// the verification scenario the generator runs.

const T0 = 1_900_000_000;
const DAY = 86_400;
const GAS = toNano('0.1');
const owner = addr('owner');
const stranger = addr('stranger');
const b = [addr('b0'), addr('b1'), addr('b2')];
const g = [addr('g0'), addr('g1'), addr('g2')];

function shape(p: Partial<TonShape>): TonShape {
  return { template: 'custom', deadMansSwitch: false, gracePeriod: false, guardians: false, jettons: false, ...p };
}

async function deployed(
  s: TonShape,
  plan: Partial<Omit<TonPlanData, 'rent'>> = {},
  opts: { sinks?: Address[]; beforeDeploy?: (h: TonHarness) => Promise<void> } = {},
) {
  const { compiled } = await buildTonShape(s);
  const base: Omit<TonPlanData, 'rent'> = {
    owner,
    beneficiaries: [
      { address: b[0]!, shareBps: 5000 },
      { address: b[1]!, shareBps: 3000 },
      { address: b[2]!, shareBps: 2000 },
    ],
    intervalSeconds: s.deadMansSwitch ? 30 * DAY : 0,
    graceSeconds: s.gracePeriod ? 7 * DAY : 0,
    ...(s.guardians ? { guardians: { addresses: g, threshold: 2 } } : {}),
    ...plan,
  };
  const data: TonPlanData = { ...base, rent: await rentReserveFor(compiled.code, base) };
  const cell: Cell = buildInitialData(data);
  const h = await TonHarness.create(compiled.code, cell, tonAddressFor(compiled.code, cell), T0);
  for (const a of opts.sinks ?? [owner, ...b, ...g]) await h.installSink(a);
  if (opts.beforeDeploy) await opts.beforeDeploy(h);
  const r = await h.deploy(owner, toNano('1'));
  expect(r.success).toBe(true);
  return { h, data };
}

const claim = (h: TonHarness, from: Address, index: number, value = GAS) =>
  h.op(from, OP.claim, value, (x) => x.storeUint(index, 8));
const payoutValue = (r: SentOp, to: Address): bigint => {
  for (const m of r.tx.outMessages.values()) {
    if (m.info.type === 'internal' && m.info.dest.equals(to)) return m.info.value.coins;
  }
  return -1n;
};
const gasLeft = (r: SentOp) => {
  const d = r.tx.description;
  const fwd = d.type === 'generic' ? (d.actionPhase?.totalFwdFees ?? 0n) : 0n;
  return GAS - computeExit(r.tx).gasFees - fwd;
};

describe.concurrent('TON contract behaviour', () => {
  it('pays each beneficiary exactly its share of everything received, late deposits included', async () => {
    const { h } = await deployed(shape({}));
    expect((await h.op(stranger, OP.deposit, toNano('10'))).success).toBe(true);
    expect((await h.op(owner, OP.release, GAS)).success).toBe(true);
    // time does not move, so no storage rent: the estate is the balance less the reserve
    const estate1 = (await h.balance()) - (await h.reserve()).now;
    const r0 = await claim(h, b[0]!, 0);
    expect(r0.success).toBe(true);
    expect((await h.beneficiary(0)).claimed).toBe((estate1 * 5000n) / 10000n);
    expect(payoutValue(r0, b[0]!)).toBe((estate1 * 5000n) / 10000n + gasLeft(r0));

    // a late deposit after b0 claimed: everyone shares it
    const late = await h.sendRaw(stranger, toNano('3'), beginCell().endCell()); // a plain transfer
    expect(late.success).toBe(true);
    for (const i of [0, 1, 2]) expect((await claim(h, b[i]!, i)).success).toBe(true);
    const claimed = await Promise.all([0, 1, 2].map(async (i) => (await h.beneficiary(i)).claimed));
    const held = (await h.balance()) - (await h.reserve()).now;
    const total = claimed.reduce((a, c) => a + c, 0n) + held;
    expect(claimed).toEqual([(total * 5000n) / 10000n, (total * 3000n) / 10000n, (total * 2000n) / 10000n]);
    expect(held).toBeGreaterThanOrEqual(0n);
    expect(held).toBeLessThanOrEqual(2n); // rounding dust only
    expect(total).toBeGreaterThan(toNano('13.9'));
    expect((await h.totals()).claimedTotal).toBe(claimed.reduce((a, c) => a + c, 0n));
    expect((await claim(h, b[1]!, 1)).exitCode).toBe(ERR.nothingToClaim);
  });

  it('refuses unauthorised operations and leaves the state unchanged', async () => {
    const { h } = await deployed(shape({ deadMansSwitch: true, gracePeriod: true, guardians: true }));
    h.now = T0 + 100;
    const cases: Array<[string, () => Promise<SentOp>, number]> = [
      ['stranger checkIn', () => h.op(stranger, OP.checkIn, GAS), ERR.notOwner],
      ['beneficiary checkIn', () => h.op(b[0]!, OP.checkIn, GAS), ERR.notOwner],
      ['guardian cancel', () => h.op(g[0]!, OP.cancel, GAS), ERR.notOwner],
      ['beneficiary withdraw', () => h.op(b[1]!, OP.withdraw, GAS, (x) => x.storeCoins(1n)), ERR.notOwner],
      [
        'stranger update',
        () => h.sendRaw(stranger, GAS, updateBody([{ address: stranger, shareBps: 10000 }])),
        ERR.notOwner,
      ],
      ['guardian release', () => h.op(g[1]!, OP.release, GAS), ERR.notOwner],
      ['owner claims as beneficiary 0', () => claim(h, owner, 0), ERR.notBeneficiary],
      ['beneficiary 1 claims index 0', () => claim(h, b[1]!, 0), ERR.notBeneficiary],
      ['claim of a missing index', () => claim(h, b[0]!, 7), ERR.notBeneficiary],
      ['beneficiary approves', () => h.op(b[0]!, OP.approve, GAS, (x) => x.storeUint(0, 8)), ERR.notGuardian],
      ['guardian 1 votes as guardian 0', () => h.op(g[1]!, OP.approve, GAS, (x) => x.storeUint(0, 8)), ERR.notGuardian],
      ['early claim', () => claim(h, b[0]!, 0), ERR.notReleased],
    ];
    for (const [label, send, code] of cases) {
      const r = await send(); // one at a time: the sandbox runs messages in order
      expect({ label, success: r.success, exit: r.exitCode }).toEqual({ label, success: false, exit: code });
    }
    expect(await h.state()).toBe(STATE.active);
    expect(await h.lastCheckIn()).toBe(T0);
    expect((await h.owner()).equals(owner)).toBe(true);
    expect((await h.shares()).map((s) => s.shareBps)).toEqual([5000, 3000, 2000]);
    expect((await h.guardians()).approvals).toBe(0);
  });

  it('credits a bounced payout back to the beneficiary', async () => {
    const { h } = await deployed(shape({}), {}, { sinks: [owner, b[1]!, b[2]!] });
    await h.op(stranger, OP.deposit, toNano('10'));
    await h.op(owner, OP.release, GAS);
    const before = await h.claimable(0);
    expect(before).toBeGreaterThan(toNano('5'));
    const r = await claim(h, b[0]!, 0); // b0 has no account: the bounceable payout comes back
    expect(r.success).toBe(true);
    const bounce = r.result.transactions.find((t) => t.inMessage?.info.type === 'internal' && t.inMessage.info.bounced);
    expect(bounce).toBeDefined();
    expect(computeExit(bounce!).success).toBe(true);
    expect((await h.beneficiary(0)).claimed).toBe(0n);
    expect((await h.totals()).claimedTotal).toBe(0n);
    expect(await h.claimable(0)).toBeGreaterThanOrEqual(before);
    await h.installSink(b[0]!);
    const again = await claim(h, b[0]!, 0);
    expect(again.success).toBe(true);
    expect((await h.beneficiary(0)).claimed).toBeGreaterThanOrEqual(before);
    expect(
      again.result.transactions.some((t) => t.inMessage?.info.type === 'internal' && t.inMessage.info.bounced),
    ).toBe(false);
  });

  it('releases at the deadline, which each check-in moves', async () => {
    const { h } = await deployed(shape({ deadMansSwitch: true }));
    await h.op(stranger, OP.deposit, toNano('2'));
    expect(await h.deadline()).toBe(T0 + 30 * DAY);
    h.now = T0 + 29 * DAY;
    expect((await h.op(owner, OP.checkIn, GAS)).success).toBe(true);
    expect(await h.deadline()).toBe(T0 + 59 * DAY);
    h.now = T0 + 59 * DAY - 1;
    expect((await claim(h, b[2]!, 2)).exitCode).toBe(ERR.notReleased);
    expect(await h.state()).toBe(STATE.active);
    h.now = T0 + 59 * DAY;
    expect(await h.state()).toBe(STATE.released);
    expect((await h.op(owner, OP.checkIn, GAS)).exitCode).toBe(ERR.deadlinePassed);
    expect((await h.op(owner, OP.withdraw, GAS, (x) => x.storeCoins(1n))).exitCode).toBe(ERR.deadlinePassed);
    expect((await h.sendRaw(owner, GAS, updateBody([{ address: owner, shareBps: 10000 }]))).exitCode).toBe(
      ERR.deadlinePassed,
    );
    const r = await claim(h, b[2]!, 2);
    expect(r.success).toBe(true);
    expect((await h.beneficiary(2)).claimed).toBeGreaterThan(toNano('0.5'));
  });

  it('gives the owner a grace period after the deadline', async () => {
    const { h } = await deployed(shape({ deadMansSwitch: true, gracePeriod: true }));
    expect(await h.releaseTime()).toBe(T0 + 37 * DAY);
    h.now = T0 + 33 * DAY;
    expect(await h.state()).toBe(STATE.active);
    expect((await claim(h, b[0]!, 0)).exitCode).toBe(ERR.notReleased);
    expect((await h.op(owner, OP.cancel, GAS)).exitCode).toBe(ERR.deadlinePassed);
    expect((await h.op(owner, OP.checkIn, GAS)).success).toBe(true);
    expect(await h.releaseTime()).toBe(T0 + 70 * DAY);
    h.now = T0 + 70 * DAY;
    expect(await h.state()).toBe(STATE.released);
  });

  it('lets m of n guardians release early, and m of n veto a wrong trigger during the grace period', async () => {
    const { h } = await deployed(shape({ deadMansSwitch: true, gracePeriod: true, guardians: true }));
    expect(await h.guardians()).toEqual({
      threshold: 2,
      count: 3,
      approvals: 0,
      vetoes: 0,
      releaseAt: 0,
      vetoesLeft: 2,
    });
    // veto outside the grace period is refused
    expect((await h.op(g[0]!, OP.veto, GAS, (x) => x.storeUint(0, 8))).exitCode).toBe(ERR.notInGrace);
    h.now = T0 + 31 * DAY;
    expect((await h.op(g[2]!, OP.veto, GAS, (x) => x.storeUint(2, 8))).success).toBe(true);
    expect((await h.guardians()).vetoes).toBe(4);
    expect((await h.op(g[2]!, OP.veto, GAS, (x) => x.storeUint(2, 8))).exitCode).toBe(ERR.alreadyVoted);
    expect(await h.lastCheckIn()).toBe(T0);
    expect((await h.op(g[0]!, OP.veto, GAS, (x) => x.storeUint(0, 8))).success).toBe(true);
    expect(await h.lastCheckIn()).toBe(T0 + 31 * DAY);
    expect((await h.guardians()).vetoes).toBe(0);
    expect(await h.deadline()).toBe(T0 + 61 * DAY);
    // early release: one approval is not enough, two are
    expect((await h.op(g[1]!, OP.approve, GAS, (x) => x.storeUint(1, 8))).success).toBe(true);
    expect(await h.state()).toBe(STATE.active);
    expect((await claim(h, b[0]!, 0)).exitCode).toBe(ERR.notReleased);
    expect((await h.op(g[0]!, OP.approve, GAS, (x) => x.storeUint(0, 8))).success).toBe(true);
    // the quorum proposes; the release waits for the owner's silence
    expect(await h.state()).toBe(STATE.active);
    h.now = (await h.guardians()).releaseAt;
    expect(await h.state()).toBe(STATE.released);
    expect((await claim(h, b[0]!, 0)).success).toBe(true);
  });

  it("clears the guardians' pending approvals when the owner checks in", async () => {
    const { h } = await deployed(shape({ deadMansSwitch: true, guardians: true }));
    await h.op(g[0]!, OP.approve, GAS, (x) => x.storeUint(0, 8));
    expect((await h.guardians()).approvals).toBe(1);
    await h.op(owner, OP.checkIn, GAS);
    expect((await h.guardians()).approvals).toBe(0);
    await h.op(g[1]!, OP.approve, GAS, (x) => x.storeUint(1, 8));
    expect(await h.state()).toBe(STATE.active);
  });

  it('lets the owner replace the beneficiaries before the deadline, checking the shares', async () => {
    const { h } = await deployed(shape({ deadMansSwitch: true }));
    const fresh = [
      { address: addr('n0'), shareBps: 7000 },
      { address: b[1]!, shareBps: 3000 },
    ];
    const bad: Array<[string, Cell]> = [
      ['sum 9999', updateBody([{ address: addr('n0'), shareBps: 9999 }])],
      [
        'zero share',
        updateBody([
          { address: addr('n0'), shareBps: 0 },
          { address: addr('n1'), shareBps: 10000 },
        ]),
      ],
      ['empty', updateBody([])],
      [
        '51 beneficiaries',
        updateBody(Array.from({ length: 51 }, (_, i) => ({ address: addr(`x${i}`), shareBps: i === 0 ? 5000 : 100 }))),
      ],
    ];
    for (const [label, body] of bad) {
      const r = await h.sendRaw(owner, GAS, body);
      expect({ label, exit: r.exitCode }).toEqual({ label, exit: ERR.badShares });
    }
    expect((await h.sendRaw(owner, GAS, updateBody(fresh))).success).toBe(true);
    const shares = await h.shares();
    expect(shares.map((s) => [s.address.toRawString(), s.shareBps])).toEqual(
      fresh.map((s) => [s.address.toRawString(), s.shareBps]),
    );
    await h.op(stranger, OP.deposit, toNano('4'));
    h.now = T0 + 31 * DAY;
    expect((await claim(h, b[0]!, 0)).exitCode).toBe(ERR.notBeneficiary); // replaced
    expect((await claim(h, b[2]!, 2)).exitCode).toBe(ERR.notBeneficiary); // removed
    expect((await claim(h, b[1]!, 1)).success).toBe(true);
    await h.installSink(addr('n0'));
    expect((await claim(h, addr('n0'), 0)).success).toBe(true);
  });

  it('lets the owner withdraw and cancel before the deadline, and then refuses deposits', async () => {
    const { h } = await deployed(shape({ deadMansSwitch: true }));
    await h.op(stranger, OP.deposit, toNano('5'));
    const ob = await h.balanceOf(owner);
    const w = await h.op(owner, OP.withdraw, GAS, (x) => x.storeCoins(toNano('2')));
    expect(w.success).toBe(true);
    expect(payoutValue(w, owner)).toBe(toNano('2') + gasLeft(w));
    expect((await h.balanceOf(owner)) - ob).toBeGreaterThan(toNano('2'));
    expect((await h.op(owner, OP.withdraw, GAS, (x) => x.storeCoins(toNano('5')))).exitCode).toBe(
      ERR.insufficientFunds,
    );
    const held = await h.balance();
    const c = await h.op(owner, OP.cancel, GAS);
    expect(c.success).toBe(true);
    expect(payoutValue(c, owner)).toBeGreaterThan(held - toNano('0.01'));
    expect(await h.balance()).toBe(0n);
    expect(await h.state()).toBe(STATE.cancelled);
    const d = await h.op(stranger, OP.deposit, toNano('1'));
    expect(d.exitCode).toBe(ERR.notActive);
    expect(d.result.transactions.some((t) => t.inMessage?.info.type === 'internal' && t.inMessage.info.bounced)).toBe(
      true,
    );
    h.now = T0 + 100 * DAY;
    expect((await claim(h, b[0]!, 0)).exitCode).toBe(ERR.notReleased);
    expect(await h.state()).toBe(STATE.cancelled);
  });

  it('holds jettons: finds its wallet, credits only its own wallet, pays exact shares, and takes bounced jetton transfers back', async () => {
    const jcode = await jettonDoubleCode();
    const master = addr('jetton-master');
    const minter = addr('minter');
    const { h } = await deployed(
      shape({ jettons: true }),
      { jettons: [master] },
      {
        beforeDeploy: (x) => x.installContract(master, jcode, jettonMasterData(minter, jcode), toNano('5')),
      },
    );
    const ourWallet = jettonWalletAddress(jcode, h.address, master);
    const [j0] = await h.jettons();
    expect(j0!.master.equals(master)).toBe(true);
    expect(j0!.wallet?.equals(ourWallet)).toBe(true);
    // only the master may name the wallet
    const forgedWallet = await h.op(stranger, OP.takeWalletAddress, GAS, (x) => x.storeAddress(stranger).storeBit(0));
    expect(forgedWallet.exitCode).toBe(ERR.unknownJetton);

    const mint = (amount: bigint) =>
      h.blockchain.sendMessage(
        internal({
          from: minter,
          to: master,
          value: toNano('0.3'),
          body: jettonMintBody(h.address, amount, toNano('0.01')),
        }),
      );
    await mint(1_000_001n);
    expect((await h.jettons())[0]!.received).toBe(1_000_001n);
    expect(await h.jettonBalance(ourWallet)).toBe(1_000_001n);
    // a notification from anyone but our wallet is not credited
    await h.op(stranger, OP.transferNotification, GAS, (x) =>
      x
        .storeCoins(10n ** 12n)
        .storeAddress(stranger)
        .storeBit(0),
    );
    expect((await h.jettons())[0]!.received).toBe(1_000_001n);
    // a jetton transfer without a notification (no forward TON) is not counted
    await h.blockchain.sendMessage(
      internal({ from: minter, to: master, value: toNano('0.3'), body: jettonMintBody(h.address, 500n, 0n) }),
    );
    expect((await h.jettons())[0]!.received).toBe(1_000_001n);
    expect(await h.jettonBalance(ourWallet)).toBe(1_000_501n);

    expect((await h.op(b[0]!, OP.claimJetton, GAS, (x) => x.storeUint(0, 8).storeUint(0, 8))).exitCode).toBe(
      ERR.notReleased,
    );
    await h.op(owner, OP.release, GAS);

    // our wallet refuses (its balance is taken away in the sandbox): the transfer bounces and stays claimable
    await h.installContract(ourWallet, jcode, jettonWalletData(0n, h.address, master, jcode), toNano('1'));
    const refused = await h.op(b[0]!, OP.claimJetton, GAS, (x) => x.storeUint(0, 8).storeUint(0, 8));
    expect(refused.success).toBe(true);
    expect(
      refused.result.transactions.some((t) => t.inMessage?.info.type === 'internal' && t.inMessage.info.bounced),
    ).toBe(true);
    expect(await h.jettonClaimed(0, 0)).toBe(0n);
    expect((await h.jettons())[0]!.claimed).toBe(0n);
    await h.installContract(ourWallet, jcode, jettonWalletData(1_000_501n, h.address, master, jcode), toNano('1'));

    await mint(2_000n); // late deposit, shared too
    const total = 1_002_001n;
    for (const [i, bps] of [
      [0, 5000n],
      [1, 3000n],
      [2, 2000n],
    ] as const) {
      const r = await h.op(b[i]!, OP.claimJetton, GAS, (x) => x.storeUint(i, 8).storeUint(0, 8));
      expect(r.success).toBe(true);
      expect(await h.jettonClaimed(i, 0)).toBe((total * bps) / 10000n);
      expect(await h.jettonBalance(jettonWalletAddress(jcode, b[i]!, master))).toBe((total * bps) / 10000n);
    }
    expect((await h.op(b[0]!, OP.claimJetton, GAS, (x) => x.storeUint(0, 8).storeUint(0, 8))).exitCode).toBe(
      ERR.nothingToClaim,
    );
    expect((await h.op(b[0]!, OP.claimJetton, GAS, (x) => x.storeUint(0, 8).storeUint(1, 8))).exitCode).toBe(
      ERR.unknownJetton,
    );
    expect((await h.op(stranger, OP.claimJetton, GAS, (x) => x.storeUint(0, 8).storeUint(0, 8))).exitCode).toBe(
      ERR.notBeneficiary,
    );
  });

  it('returns the jettons to the owner on cancel', async () => {
    const jcode = await jettonDoubleCode();
    const masters = [addr('jm-a'), addr('jm-b')];
    const minter = addr('minter');
    const { h } = await deployed(
      shape({ deadMansSwitch: true, jettons: true }),
      { jettons: masters },
      {
        beforeDeploy: async (x) => {
          for (const m of masters) await x.installContract(m, jcode, jettonMasterData(minter, jcode), toNano('5'));
        },
      },
    );
    for (const [j, m] of masters.entries()) {
      await h.blockchain.sendMessage(
        internal({
          from: minter,
          to: m,
          value: toNano('0.3'),
          body: jettonMintBody(h.address, 700n + BigInt(j), toNano('0.01')),
        }),
      );
    }
    expect((await h.op(owner, OP.cancel, GAS)).success).toBe(true);
    for (const [j, m] of masters.entries()) {
      expect(await h.jettonBalance(jettonWalletAddress(jcode, owner, m))).toBe(700n + BigInt(j));
      expect(await h.jettonBalance(jettonWalletAddress(jcode, h.address, m))).toBe(0n);
    }
    expect(await h.state()).toBe(STATE.cancelled);
  });
});

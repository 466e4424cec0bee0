import { toNano, type Address, type Cell } from '@ton/core';
import { internal } from '@ton/sandbox';
import { describe, expect, it } from 'vitest';
import { buildInitialData, tonAddressFor, type TonPlanData } from '../../../src/contracts/ton/data.js';
import { storageFee, TonHarness } from '../../../src/contracts/ton/harness.js';
import { analyseTon } from '../../../src/contracts/ton/analysis.js';
import { TON_MAX_UNLISTED } from '../../../src/contracts/ton/contract.js';
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
  jettonSetRefusingBody,
  jettonWalletAddress,
} from '../../../src/contracts/ton/jetton-double.js';
import { rentFigures, rentReserveFor } from '../../../src/contracts/ton/rent.js';
import { addr } from './helpers.js';

// Jettons the plan does not list, executed in @ton/sandbox with a real (test-double) jetton master and wallets:
// an airdrop after the deadline ends with each heir holding its share (70/20/10), paid by the notification or by
// whoever settles the record; before the deadline the owner takes it back; a fake wallet's notification moves no
// real jettons and costs the contract nothing; a refused share is recorded again; the records are capped.

const T0 = 1_900_000_000;
const DAY = 86_400;
const GAS = toNano('0.1');
const owner = addr('owner');
const stranger = addr('stranger');
const b = [addr('b0'), addr('b1'), addr('b2')];
const SHARES = [7000, 2000, 1000];
const SETTLE = toNano('0.3'); // 3 heirs x (0.05 + 0.02) and some to spare, the rest refunded

const shapeOf = (jettons: boolean): TonShape => ({
  template: 'custom',
  deadMansSwitch: true,
  gracePeriod: false,
  guardians: false,
  jettons,
});

/** The account id of a basechain address, as `share_unlisted` and `get_unlisted` take it. */
const accountId = (a: Address) => BigInt(`0x${a.hash.toString('hex')}`);

async function deployed(jettons: boolean) {
  const jcode = await jettonDoubleCode();
  const shape = shapeOf(jettons);
  const { compiled } = await buildTonShape(shape);
  const listed = addr('jm-listed');
  const airdrop = addr('jm-airdrop');
  const minter = addr('minter');
  const base: Omit<TonPlanData, 'rent'> = {
    owner,
    beneficiaries: b.map((address, i) => ({ address, shareBps: SHARES[i]! })),
    intervalSeconds: 30 * DAY,
    graceSeconds: 0,
    ...(jettons ? { jettons: [listed] } : {}),
  };
  const data: TonPlanData = { ...base, rent: await rentReserveFor(compiled.code, base) };
  const cell: Cell = buildInitialData(data);
  const h = await TonHarness.create(compiled.code, cell, tonAddressFor(compiled.code, cell), T0);
  for (const a of [owner, stranger, ...b]) await h.installSink(a, toNano('100'));
  for (const m of [listed, airdrop]) await h.installContract(m, jcode, jettonMasterData(minter, jcode), toNano('5'));
  expect((await h.deploy(owner, toNano('2'))).success).toBe(true);
  const mint = async (master: Address, amount: bigint, forward = toNano('0.01')) => {
    const r = await h.blockchain.sendMessage(
      internal({
        from: minter,
        to: master,
        value: forward + toNano('0.3'),
        body: jettonMintBody(h.address, amount, forward),
      }),
    );
    // the contract's own transaction for the notification
    return r.transactions.find(
      (t) =>
        t.inMessage?.info.dest &&
        h.address.equals(t.inMessage.info.dest as Address) &&
        t.inMessage.info.type === 'internal',
    );
  };
  const ourWallet = jettonWalletAddress(jcode, h.address, airdrop);
  const heldBy = (who: Address, master = airdrop) => h.jettonBalance(jettonWalletAddress(jcode, who, master));
  const record = async (wallet: Address) => {
    const r = await h.blockchain.runGetMethod(h.address, 'get_unlisted', [{ type: 'int', value: accountId(wallet) }]);
    return { count: r.stackReader.readNumber(), amount: r.stackReader.readBigNumber() };
  };
  const settle = (from: Address, wallet: Address, value = SETTLE) =>
    h.op(from, OP.shareUnlisted, value, (x) => x.storeUint(accountId(wallet), 256));
  const notify = (from: Address, amount: bigint, value: bigint) =>
    h.op(from, OP.transferNotification, value, (x) => x.storeCoins(amount).storeAddress(stranger).storeBit(0));
  const pastDeadline = async () => {
    h.now = (await h.releaseTime()) + 1;
    expect(await h.state()).toBe(STATE.released);
  };
  return { h, data, jcode, listed, airdrop, ourWallet, mint, heldBy, record, settle, notify, pastDeadline };
}

describe.concurrent('TON: unlisted jettons are shared by the heirs after the deadline', () => {
  for (const jettons of [false, true]) {
    it(`an airdrop after the deadline is recorded, and a heir who pays for the transfers settles it 70/20/10 (${jettons ? 'plan with a listed jetton' : 'plan without jettons'})`, async () => {
      const { h, airdrop, ourWallet, mint, heldBy, record, settle, pastDeadline } = await deployed(jettons);
      await pastDeadline();
      await mint(airdrop, 1_000_000n); // forward 0.01 TON: too little to pay three transfers, so it is recorded
      expect(await h.jettonBalance(ourWallet)).toBe(1_000_000n);
      expect(await record(ourWallet)).toEqual({ count: 1, amount: 1_000_000n });
      if (jettons) expect((await h.jettons())[0]!.received).toBe(0n); // not credited to the listed jetton

      // too little attached for three transfers: refused, the record stays
      expect((await settle(b[1]!, ourWallet, toNano('0.15'))).exitCode).toBe(ERR.insufficientFunds);
      expect(await record(ourWallet)).toEqual({ count: 1, amount: 1_000_000n });

      const before = await h.balance();
      const r = await settle(b[1]!, ourWallet);
      expect(r.success).toBe(true);
      expect(await heldBy(b[0]!)).toBe(700_000n);
      expect(await heldBy(b[1]!)).toBe(200_000n);
      expect(await heldBy(b[2]!)).toBe(100_000n);
      expect(await h.jettonBalance(ourWallet)).toBe(0n);
      expect(await record(ourWallet)).toEqual({ count: 0, amount: 0n });
      // the settler paid: the estate's TON did not go down
      expect(await h.balance()).toBeGreaterThanOrEqual(before);
      // a second settle finds nothing
      expect((await settle(b[1]!, ourWallet)).exitCode).toBe(ERR.nothingToClaim);
    });
  }

  it('a notification that carries enough for the transfers is shared at once, paid from its own value', async () => {
    const { h, airdrop, ourWallet, mint, heldBy, record, pastDeadline } = await deployed(false);
    await pastDeadline();
    const before = await h.balance();
    const tx = await mint(airdrop, 500_000n, toNano('0.3'));
    expect(tx).toBeDefined();
    expect(await heldBy(b[0]!)).toBe(350_000n);
    expect(await heldBy(b[1]!)).toBe(100_000n);
    expect(await heldBy(b[2]!)).toBe(50_000n);
    expect(await record(ourWallet)).toEqual({ count: 0, amount: 0n });
    expect(await h.balance()).toBeGreaterThanOrEqual(before);
  });

  it("a fake wallet's notification moves no real jettons and costs the contract nothing beyond what it was sent", async () => {
    const { h, airdrop, ourWallet, mint, heldBy, record, settle, notify, pastDeadline } = await deployed(true);
    await pastDeadline();
    await mint(airdrop, 1_000n);
    const fake = addr('fake-wallet');
    await h.installSink(fake);

    // recorded (cheaply) for the fake wallet only; settling it sends orders to the fake wallet, paid by the settler
    let before = await h.balance();
    expect((await notify(fake, 10n ** 15n, toNano('0.02'))).success).toBe(true);
    expect(await record(fake)).toEqual({ count: 2, amount: 10n ** 15n });
    expect(await h.balance()).toBeGreaterThanOrEqual(before);
    before = await h.balance();
    const r = await settle(stranger, fake);
    expect(r.success).toBe(true);
    const orders = r.result.transactions.filter(
      (t) => t.inMessage?.info.dest && fake.equals(t.inMessage.info.dest as Address),
    );
    expect(orders).toHaveLength(3); // three transfer orders, all to the fake wallet itself
    expect(await h.balance()).toBeGreaterThanOrEqual(before);

    // with enough value attached it is answered at once, from that value
    before = await h.balance();
    expect((await notify(fake, 10n ** 15n, toNano('0.3'))).success).toBe(true);
    expect(await h.balance()).toBeGreaterThanOrEqual(before);
    // and with less than gas, nothing happens at the contract's expense
    before = await h.balance();
    await notify(fake, 10n ** 15n, 1n);
    expect(await h.balance()).toBeGreaterThanOrEqual(before);

    // no real jetton moved: the real airdrop is still whole, the heirs hold nothing of it, nothing was credited
    for (const x of b) expect(await heldBy(x)).toBe(0n);
    expect(await h.jettonBalance(ourWallet)).toBe(1_000n);
    expect(await record(ourWallet)).toMatchObject({ amount: 1_000n });
    expect((await h.jettons())[0]!.received).toBe(0n);
  });

  it('before the deadline the owner takes an unlisted jetton back, as proof of life; heirs cannot settle it', async () => {
    const { h, airdrop, ourWallet, mint, heldBy, record, settle } = await deployed(false);
    await mint(airdrop, 42_000n);
    expect(await record(ourWallet)).toEqual({ count: 1, amount: 42_000n });
    expect((await settle(b[0]!, ourWallet)).exitCode).toBe(ERR.notReleased);
    h.now = T0 + 20 * DAY;
    const before = await h.balance();
    const back = await settle(owner, ourWallet, toNano('0.1'));
    expect(back.success).toBe(true);
    expect(await heldBy(owner)).toBe(42_000n);
    expect(await record(ourWallet)).toEqual({ count: 0, amount: 0n });
    expect(await h.lastCheckIn()).toBe(T0 + 20 * DAY);
    // the owner's value paid the transfer: the contract lost only the storage rent of those 20 days
    expect(await h.balance()).toBeGreaterThanOrEqual(before - storageFee(back.tx));
  });

  it('a share the jetton wallet refuses is recorded again and shared later; records are capped', async () => {
    const { h, airdrop, ourWallet, mint, heldBy, record, settle, notify, pastDeadline } = await deployed(false);
    await pastDeadline();
    await mint(airdrop, 10_000n);
    const refuse = (on: boolean) =>
      h.blockchain.sendMessage(
        internal({ from: stranger, to: ourWallet, value: GAS, body: jettonSetRefusingBody(on) }),
      );
    await refuse(true);
    expect((await settle(b[2]!, ourWallet)).success).toBe(true);
    // every transfer bounced: the whole amount is recorded again, nothing was lost
    expect(await record(ourWallet)).toEqual({ count: 1, amount: 10_000n });
    expect(await h.jettonBalance(ourWallet)).toBe(10_000n);
    await refuse(false);
    expect((await settle(b[2]!, ourWallet)).success).toBe(true);
    expect([await heldBy(b[0]!), await heldBy(b[1]!), await heldBy(b[2]!)]).toEqual([7_000n, 2_000n, 1_000n]);

    // the record list is bounded: beyond the cap a new wallet's notification is refused (and bounces)
    for (let k = 0; k < TON_MAX_UNLISTED; k++) {
      expect((await notify(addr(`spam${k}`), 1n, toNano('0.02'))).success, `record ${k}`).toBe(true);
    }
    expect((await record(ourWallet)).count).toBe(TON_MAX_UNLISTED);
    expect((await notify(addr('spam-over'), 1n, toNano('0.02'))).exitCode).toBe(ERR.unlistedFull);
    // a wallet already recorded still adds to its record; settling one frees a slot
    await h.installSink(addr('spam0')); // a contract that accepts the orders (one that refuses them keeps its record)
    expect((await notify(addr('spam0'), 1n, toNano('0.02'))).success).toBe(true);
    expect(await record(addr('spam0'))).toMatchObject({ amount: 2n });
    expect((await settle(stranger, addr('spam0'))).success).toBe(true);
    expect((await notify(addr('spam-over'), 1n, toNano('0.02'))).success).toBe(true);
  });

  it('the advice says how unlisted jettons are shared', async () => {
    const { h, data } = await deployed(true);
    for (const s of [shapeOf(true), shapeOf(false)]) {
      const a = analyseTon(s, data, await rentFigures(h.code, data));
      const w = a.warnings.find((x) => x.id === 'ton-unlisted-jettons');
      expect(w?.message).toMatch(/shared by the heirs in their shares/);
      expect(w?.message).toMatch(/share_unlisted|shareUnlisted/);
      expect(w?.message).toMatch(new RegExp(`${TON_MAX_UNLISTED} `));
    }
  });
});

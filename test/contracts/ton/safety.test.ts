import { fromNano, toNano, type Cell } from '@ton/core';
import { internal } from '@ton/sandbox';
import { describe, expect, it } from 'vitest';
import { JETTON_FEE_MARGIN, JETTON_MESSAGE_VALUE } from '../../../src/contracts/ton/contract.js';
import { buildInitialData, tonAddressFor, type TonPlanData } from '../../../src/contracts/ton/data.js';
import { computeExit, storageFee, TonHarness } from '../../../src/contracts/ton/harness.js';
import {
  buildTonShape,
  generateTon,
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
import {
  CLAIM_WINDOW_SECONDS,
  rentFor,
  rentReserveFor,
  reserveAt,
  worstCaseStorage,
} from '../../../src/contracts/ton/rent.js';
import { addr, makePlan } from './helpers.js';

// The ways an estate could get stuck for good, executed in the sandbox:
// storage rent outliving a fixed reserve, a jetton return on cancel that
// bounces, and a stranger spending the estate on jetton-wallet discovery.

const T0 = 1_900_000_000;
const DAY = 86_400;
const GAS = toNano('0.1');
const owner = addr('owner');
const stranger = addr('stranger');
const b = [addr('b0'), addr('b1'), addr('b2')];
const SHARES = [5000n, 3000n, 2000n];

function shape(p: Partial<TonShape>): TonShape {
  return { template: 'custom', deadMansSwitch: true, gracePeriod: true, guardians: false, jettons: false, ...p };
}

async function deployed(
  s: TonShape,
  plan: Partial<Omit<TonPlanData, 'rent'>>,
  beforeDeploy?: (h: TonHarness) => Promise<void>,
) {
  const { compiled } = await buildTonShape(s);
  const base: Omit<TonPlanData, 'rent'> = {
    owner,
    beneficiaries: b.map((address, i) => ({ address, shareBps: Number(SHARES[i]) })),
    intervalSeconds: 365 * DAY,
    graceSeconds: 30 * DAY,
    ...plan,
  };
  const data: TonPlanData = { ...base, rent: await rentReserveFor(compiled.code, base) };
  const cell: Cell = buildInitialData(data);
  const h = await TonHarness.create(compiled.code, cell, tonAddressFor(compiled.code, cell), T0);
  for (const a of [owner, stranger, ...b]) await h.installSink(a, toNano('100'));
  if (beforeDeploy) await beforeDeploy(h);
  expect((await h.deploy(owner, toNano('1'))).success).toBe(true);
  return { h, data, code: compiled.code };
}

async function accountOf(h: TonHarness) {
  const c = await h.blockchain.getContract(h.address);
  return { status: c.accountState?.type, storage: c.account.account!.storageStats };
}

describe.concurrent('TON storage rent is paid by the reserve, never by the estate', () => {
  for (const [label, years] of [
    ['the default 365-day switch', 1],
    ['a ten-year switch', 10],
  ] as const) {
    it(`${label}: untouched until the release, the contract is not frozen and the heirs get their full shares`, async () => {
      const interval = years * 365 * DAY;
      const { h, data, code } = await deployed(shape({}), { intervalSeconds: interval });
      // the reserve covers the rent over the interval, the grace period and a claim window, with a margin
      expect(data.rent.reserve).toBeGreaterThanOrEqual(
        rentFor(data.rent.rate, interval + 30 * DAY + CLAIM_WINDOW_SECONDS),
      );
      expect(await h.reserve()).toEqual({
        now: data.rent.reserve,
        base: data.rent.reserve,
        rate: data.rent.rate,
        step: data.rent.step,
        count: data.rent.count,
      });
      // the worst-case size behind the rate is not below what the network charges for
      const { storage } = await accountOf(h);
      const worst = worstCaseStorage(code, data);
      expect(Number(storage.used.cells)).toBeLessThanOrEqual(worst.cells);
      expect(Number(storage.used.bits)).toBeLessThanOrEqual(worst.bits);

      // the owner takes everything out of the estate: only the reserve is left
      const { available } = await h.totals();
      expect((await h.op(owner, OP.withdraw, GAS, (x) => x.storeCoins(available))).success).toBe(true);
      expect((await h.totals()).available).toBe(0n);
      const left = await h.balance();
      expect(left - data.rent.reserve).toBeLessThan(toNano('0.01'));

      // nobody touches the contract until the release
      h.now = T0 + interval + 30 * DAY + 1;
      expect(await h.state()).toBe(STATE.released);
      const deposit = toNano('10');
      const d = await h.op(stranger, OP.deposit, deposit);
      expect(d.success).toBe(true);
      const rent = storageFee(d.tx);
      expect(rent).toBeGreaterThan(0n);
      const desc = d.tx.description;
      expect(desc.type === 'generic' ? (desc.storagePhase?.storageFeesDue ?? 0n) : -1n).toBe(0n);
      expect(desc.type === 'generic' ? desc.storagePhase?.statusChange : undefined).toBe('unchanged');
      expect((await accountOf(h)).status).toBe('active');

      // the rent came out of the reserve: the deposit is whole, less its own gas (plus what the withdrawal left above the reserve)
      const reserveNow = (await h.reserve()).now;
      expect(reserveNow).toBe(reserveAt(data.rent, T0, h.now));
      expect(reserveNow).toBeLessThanOrEqual(data.rent.reserve - rent);
      const pool = (await h.totals()).available;
      expect(pool).toBe((await h.balance()) - reserveNow);
      const received = deposit - computeExit(d.tx).gasFees; // a deposit pays its own gas
      expect(pool).toBeGreaterThanOrEqual(received);
      // the reserve decays at the worst-case rate (every unlisted-jetton record taken, every claim recorded); what it
      // held back beyond the rent the network really charged, and no more, has come back to the estate
      const surplus = rentFor(data.rent.rate, h.now - T0) - rent;
      expect(pool - received).toBeLessThan(surplus + toNano('0.01'));

      // every beneficiary is paid its full share of the balance less the reserve
      for (const i of [0, 1, 2]) {
        const r = await h.op(b[i]!, OP.claim, GAS, (x) => x.storeUint(i, 8));
        expect(r.success).toBe(true);
        expect((await h.beneficiary(i)).claimed).toBe((pool * SHARES[i]!) / 10000n);
      }
      // what stays is the reserve (plus rounding dust), enough for a year of rent after the release
      const end = await h.balance();
      expect(end - reserveNow).toBeGreaterThanOrEqual(0n);
      expect(end - reserveNow).toBeLessThanOrEqual(3n);
      expect(reserveNow).toBeGreaterThanOrEqual(rentFor(data.rent.rate, CLAIM_WINDOW_SECONDS) - 1n);
    });
  }

  it("a check-in restores the reserve from the balance; rent before it is the owner's", async () => {
    const { h, data } = await deployed(shape({ gracePeriod: false }), { graceSeconds: 0 });
    await h.op(stranger, OP.deposit, toNano('5'));
    h.now = T0 + 200 * DAY;
    expect((await h.reserve()).now).toBe(reserveAt(data.rent, T0, h.now));
    expect((await h.reserve()).now).toBeLessThan(data.rent.reserve);
    expect((await h.op(owner, OP.checkIn, GAS)).success).toBe(true);
    expect((await h.reserve()).now).toBe(data.rent.reserve);
  });

  it('reports the rent per year and over the interval with the generated contract', async () => {
    const r = await generateTon(makePlan({ n: 2, dms: { intervalDays: 365, gracePeriodDays: 30 } }));
    expect(r.estimatedGas).toMatch(
      /storage rent \d+\.\d+ TON per year, \d+\.\d+ TON over the interval and grace period, paid from a \d+\.\d+ TON reserve/,
    );
    const w = r.analysis.warnings.find((x) => x.id === 'ton-storage-reserve');
    expect(w?.message).toMatch(/about \d+\.\d+ TON per year/);
    expect(w?.message).not.toContain('0.05 TON stays');
    expect(r.deployScript).toMatch(/rentReserveNanotons/);
  });
});

describe.concurrent('TON jettons: bounced returns and paid discovery', () => {
  const minter = addr('minter');

  it('restores a jetton return that bounces on cancel, and the owner retries it', async () => {
    const jcode = await jettonDoubleCode();
    const master = addr('jm-bounce');
    const { h } = await deployed(shape({ jettons: true }), { jettons: [master] }, (x) =>
      x.installContract(master, jcode, jettonMasterData(minter, jcode), toNano('5')),
    );
    const ourWallet = jettonWalletAddress(jcode, h.address, master);
    const ownerWallet = jettonWalletAddress(jcode, owner, master);
    await h.blockchain.sendMessage(
      internal({
        from: minter,
        to: master,
        value: toNano('0.3'),
        body: jettonMintBody(h.address, 4_321n, toNano('0.01')),
      }),
    );
    expect((await h.jettons())[0]!.received).toBe(4_321n);

    // our wallet refuses the next transfer: the return to the owner bounces
    await h.blockchain.sendMessage(
      internal({ from: stranger, to: ourWallet, value: toNano('0.05'), body: jettonSetRefusingBody(true) }),
    );
    const c = await h.op(owner, OP.cancel, GAS);
    expect(c.success).toBe(true);
    const bounce = c.result.transactions.find(
      (t) =>
        t.inMessage?.info.type === 'internal' && t.inMessage.info.bounced && t.inMessage.info.dest.equals(h.address),
    );
    expect(bounce).toBeDefined();
    expect(computeExit(bounce!).success).toBe(true);
    expect(await h.state()).toBe(STATE.cancelled);
    expect(await h.jettonBalance(ownerWallet)).toBe(0n);
    expect(await h.jettonBalance(ourWallet)).toBe(4_321n);
    const [j] = await h.jettons();
    expect(j!.received - j!.claimed).toBe(4_321n); // held again in the book-keeping
    expect(await h.balance()).toBeGreaterThan(0n); // the reserve stayed

    // a retry: only the owner, and it must carry the fees itself
    expect((await h.op(stranger, OP.returnJettons, GAS)).exitCode).toBe(ERR.notOwner);
    const poor = await h.op(owner, OP.returnJettons, JETTON_MESSAGE_VALUE);
    expect(poor.exitCode).toBe(ERR.insufficientFunds);
    await h.blockchain.sendMessage(
      internal({ from: stranger, to: ourWallet, value: toNano('0.05'), body: jettonSetRefusingBody(false) }),
    );
    const before = await h.balance();
    const retry = await h.op(owner, OP.returnJettons, toNano('0.2'));
    expect(retry.success).toBe(true);
    // the transfer forwards what the owner attached (less the fee margin), not a fixed amount
    const forwarded = [...retry.tx.outMessages.values()].find(
      (m) => m.info.type === 'internal' && m.info.dest.equals(ourWallet),
    );
    expect(forwarded?.info.type === 'internal' ? forwarded.info.value.coins : -1n).toBe(
      toNano('0.2') - JETTON_FEE_MARGIN,
    );
    expect(await h.jettonBalance(ownerWallet)).toBe(4_321n);
    expect(await h.jettonBalance(ourWallet)).toBe(0n);
    const [after] = await h.jettons();
    expect(after!.received - after!.claimed).toBe(0n);
    expect(await h.balance()).toBeGreaterThanOrEqual(before - storageFee(retry.tx));
    expect((await h.op(owner, OP.returnJettons, toNano('0.2'))).exitCode).toBe(ERR.nothingToClaim);
  });

  it("lets a stranger retry wallet discovery only with its own money, never the estate's", async () => {
    const jcode = await jettonDoubleCode();
    const masters = [addr('jm-late-a'), addr('jm-late-b')];
    // the masters do not exist at deployment: discovery fails then
    const { h } = await deployed(shape({ jettons: true }), { jettons: masters });
    expect((await h.jettons()).every((x) => x.wallet === null)).toBe(true);
    for (const m of masters) await h.installContract(m, jcode, jettonMasterData(minter, jcode), toNano('5'));
    await h.op(stranger, OP.deposit, toNano('10'));
    const estate = await h.balance();

    // too little value for two requests: refused, and the estate pays nothing
    const cheap = await h.op(stranger, OP.discover, toNano('0.05'));
    expect(cheap.exitCode).toBe(ERR.insufficientFunds);
    expect(await h.balance()).toBe(estate);
    expect((await h.jettons()).every((x) => x.wallet === null)).toBe(true);

    // enough value: the wallets are found, the estate balance is not spent, the rest goes back to the caller
    // (the sandbox does not debit an injected message's sender, so what it spent is the value less its refund)
    const sb = await h.balanceOf(stranger);
    const value = toNano('1');
    const paid = await h.op(stranger, OP.discover, value);
    expect(paid.success).toBe(true);
    const afterDiscovery = await h.balance();
    expect(afterDiscovery).toBeGreaterThanOrEqual(estate); // the masters' answers bring back what is left of their value
    const js = await h.jettons();
    expect(js.every((x, k) => x.wallet?.equals(jettonWalletAddress(jcode, h.address, masters[k]!)) === true)).toBe(
      true,
    );
    const spent = value - ((await h.balanceOf(stranger)) - sb);
    expect(spent).toBeGreaterThan(2n * JETTON_MESSAGE_VALUE);
    expect(spent).toBeLessThan(2n * (JETTON_MESSAGE_VALUE + JETTON_FEE_MARGIN));

    // nothing left to discover
    expect((await h.op(stranger, OP.discover, value)).exitCode).toBe(ERR.nothingToClaim);
    expect(await h.balance()).toBe(afterDiscovery);
  });
});

describe('the advice matches the contract', () => {
  it('names the reserve the contract holds, the ops it has and the value they need', async () => {
    const r = await generateTon(makePlan({ n: 3, dms: { intervalDays: 365, gracePeriodDays: 30 }, jettons: 1 }));
    const byId = new Map(r.analysis.warnings.map((w) => [w.id, w.message]));
    const reserveTon = /A reserve of (\d+\.\d+) TON/.exec(byId.get('ton-storage-reserve') ?? '')?.[1];
    const reserveNano = /"rentReserveNanotons": "(\d+)"/.exec(r.deployScript)?.[1];
    expect(reserveTon).toBeDefined();
    expect(toNano(reserveTon!)).toBe(BigInt(reserveNano!));
    const perJetton = fromNano(JETTON_MESSAGE_VALUE + JETTON_FEE_MARGIN);
    expect(byId.get('ton-jetton-discovery')).toContain(`${perJetton} TON per wallet`);
    expect(byId.get('ton-jetton-cancel-bounce')).toContain(`${perJetton} TON per jetton`);
    expect(byId.get('ton-cancel')).toMatch(/reserve stays/);
    for (const op of ['op::discover', 'op::return_jettons', 'caller_pays', 'get_reserve'])
      expect(r.contractCode).toContain(op);
    const plain = await generateTon(makePlan({ n: 2, dms: { intervalDays: 365, gracePeriodDays: 0 } }));
    expect(plain.analysis.warnings.find((w) => w.id === 'ton-cancel')?.message).toMatch(/rent reserve included/);
    expect(plain.analysis.warnings.map((w) => w.id)).not.toContain('ton-jetton-discovery');
  });
});

describe('a plan whose switch was defaulted', () => {
  it('generates and verifies a contract for a switch with no interval given (365 days)', async () => {
    const plan = makePlan({ n: 2 });
    plan.deadMansSwitch = { enabled: true } as NonNullable<typeof plan.deadMansSwitch>;
    const r = await generateTon(plan);
    expect(r.features).toContain('deadMansSwitch');
    expect(r.analysis.warnings.find((x) => x.id === 'ton-storage-reserve')?.message).toMatch(/TON per year/);
  });
});

describe('the safety page of the docs', () => {
  it('answers questions about rent, bounced jettons, discovery and Solana events', async () => {
    const { DocsIndex } = await import('../../../src/docs/search.js');
    const { TOOLS } = await import('../../../src/tools/index.js');
    const docs = DocsIndex.load(TOOLS);
    for (const [q, heading] of [
      ['how long does the TON storage rent reserve last', 'TON storage rent and the rent reserve'],
      ['jetton return bounced on cancel', 'Bounced jetton transfers'],
      ['who pays for jetton wallet discovery', 'Who pays for jetton-wallet discovery'],
      ['solana events emitted on deposit and withdraw', 'Solana events'],
      [
        'an unlisted jetton airdropped to the TON contract after the deadline',
        'Unlisted jettons on TON: shared by the heirs through the wallet that notified',
      ],
    ] as const) {
      const [top] = docs.search(q, 3);
      expect({ q, slug: top?.slug, heading: top?.heading }).toEqual({ q, slug: 'ton-solana-safety', heading });
    }
  });
});

import { Address, beginCell, Dictionary, toNano, type Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import {
  BeneficiaryValue,
  buildInitialData,
  tonAddressFor,
  type TonRent,
  updateBody,
  worstCaseData,
  type TonPlanData,
} from '../../../src/contracts/ton/data.js';
import { storageFee, TonHarness, type TonHarnessConfig } from '../../../src/contracts/ton/harness.js';
import { defaultConfigSeqno, loadConfig } from '@ton/sandbox';
import {
  buildTonShape,
  TON_ERR as ERR,
  TON_OP as OP,
  TON_STATE as STATE,
  type TonShape,
} from '../../../src/contracts/ton/index.js';
import {
  basechainStoragePrices,
  cellStats,
  CLAIM_WINDOW_SECONDS,
  coveredSeconds,
  grownRent,
  MIN_RESERVE,
  RENT_MARGIN,
  rentFor,
  rentReserveFor,
  worstCaseStorage,
} from '../../../src/contracts/ton/rent.js';
import { TON_MAX_BENEFICIARIES } from '../../../src/contracts/ton/shape.js';
import { addr, unevenShares } from './helpers.js';

// Storage rent for the state the contract can really reach, executed in @ton/sandbox: the worst case is counted
// with distinct values (identical cells are stored once), an owner update that grows the list pays the larger
// reserve, and with only the reserve left the contract lives through the longest interval, grace period and claim
// window with the largest state, and ends active. The same run with the reserve reckoned the old way (the plan's own
// beneficiaries, one value in every claim record, nothing added when an update grows the list) owes rent by the end
// of its claim window: that is the flaw these tests exist to catch. The lifetime runs on the mainnet configuration the
// sandbox ships (the whole config cell of a mainnet masterchain block), not the slim one the behaviour tests use.

const T0 = 1_900_000_000;
const DAY = 86_400;
const GAS = toNano('0.1');
const owner = addr('owner');
const stranger = addr('stranger');
const b = [addr('b0'), addr('b1'), addr('b2')];

function shape(p: Partial<TonShape>): TonShape {
  return { template: 'custom', deadMansSwitch: true, gracePeriod: true, guardians: false, jettons: false, ...p };
}

/** How a reserve is reckoned for a plan: the service's way (rentReserveFor), or the counter-example below. */
type Reckoning = (code: Cell, plan: Omit<TonPlanData, 'rent'>) => Promise<TonRent>;

const MAX_COINS = (1n << 120n) - 1n;

/**
 * The reckoning this service used before, kept here only as the counter-example: the worst case held the plan's
 * own beneficiaries with one value in every claim record (identical cells are stored once, so they were counted
 * once), and nothing rose when an owner update added beneficiaries (no step: the update attached nothing).
 */
const oldReckoning: Reckoning = async (code, plan) => {
  const p = await basechainStoragePrices();
  const benefs = Dictionary.empty(Dictionary.Keys.Uint(8), BeneficiaryValue);
  plan.beneficiaries.forEach((x, i) => benefs.set(i, { address: x.address, shareBps: x.shareBps, claimed: MAX_COINS }));
  const worst = beginCell()
    .storeAddress(plan.owner)
    .storeUint(2, 8)
    .storeUint(0xffff_ffffn, 64)
    .storeUint(plan.intervalSeconds, 32)
    .storeUint(plan.graceSeconds, 32)
    .storeUint(0, 64)
    .storeUint(0, 64)
    .storeCoins(MAX_COINS)
    .storeUint(plan.beneficiaries.length, 8)
    .storeDict(benefs)
    .storeMaybeRef(null)
    .storeMaybeRef(null)
    .endCell();
  const size = cellStats([code, worst]);
  const rate = BigInt(size.bits + 1023) * p.bitPricePs + BigInt(size.cells + 1) * p.cellPricePs;
  let reserve = (rentFor(rate, coveredSeconds(plan)) * RENT_MARGIN.num + RENT_MARGIN.den - 1n) / RENT_MARGIN.den;
  if (reserve < MIN_RESERVE) reserve = MIN_RESERVE;
  return { reserve, rate, step: 0n, count: plan.beneficiaries.length };
};

async function deployed(
  s: TonShape,
  intervalSeconds: number,
  graceSeconds: number,
  config?: TonHarnessConfig,
  reckon: Reckoning = rentReserveFor,
) {
  const { compiled } = await buildTonShape(s);
  const base: Omit<TonPlanData, 'rent'> = {
    owner,
    beneficiaries: b.map((address, i) => ({ address, shareBps: [5000, 3000, 2000][i]! })),
    intervalSeconds,
    graceSeconds,
  };
  const data: TonPlanData = { ...base, rent: await reckon(compiled.code, base) };
  const cell: Cell = buildInitialData(data);
  const h = await TonHarness.create(
    compiled.code,
    cell,
    tonAddressFor(compiled.code, cell),
    T0,
    config ? { config } : {},
  );
  for (const a of [owner, stranger, ...b]) await h.installSink(a, toNano('1000'));
  expect((await h.deploy(owner, toNano('2'))).success).toBe(true);
  return { h, data, code: compiled.code };
}

async function account(h: TonHarness) {
  const c = await h.blockchain.getContract(h.address);
  return {
    status: c.accountState?.type,
    cells: Number(c.account.account!.storageStats.used.cells),
    bits: Number(c.account.account!.storageStats.used.bits),
  };
}

describe('TON rent is reckoned for the largest reachable state', () => {
  it('the worst case stores distinct values: repeated claim amounts would be counted once', async () => {
    const { compiled } = await buildTonShape(shape({ jettons: true }));
    const jettons = [addr('m0'), addr('m1'), addr('m2')];
    const plan: TonPlanData = {
      owner,
      beneficiaries: Array.from({ length: TON_MAX_BENEFICIARIES }, (_, i) => ({
        address: addr(`n${i}`),
        shareBps: 200,
      })),
      intervalSeconds: 30 * DAY,
      graceSeconds: 0,
      jettons,
      rent: { reserve: 0n, rate: 0n },
    };
    const worst = worstCaseData(plan);
    // Every beneficiary's claim of every jetton is its own leaf: 50 x 3 claim records, none shared.
    const root = worst.beginParse();
    root.loadAddress();
    root.skip(8 + 64 + 32 + 32 + 64 * 3 + 8);
    root.loadCoins();
    root.loadUint(8);
    root.loadMaybeRef(); // the beneficiaries
    root.loadMaybeRef(); // no guardians
    const claims = root.loadMaybeRef()!.beginParse(); // the jettons
    claims.loadUint(8);
    claims.loadMaybeRef(); // the jetton entries
    const claimDict = claims.loadDict(Dictionary.Keys.Uint(16), Dictionary.Values.BigVarUint(4));
    expect(claimDict.size).toBe(TON_MAX_BENEFICIARIES * jettons.length);
    expect(new Set(claimDict.values().map(String)).size).toBe(claimDict.size);
    const size = worstCaseStorage(compiled.code, plan);
    const data = cellStats([worst]);
    // a HashmapE of k leaves has at least k cells; the data alone holds the 150 claims, 50 beneficiaries and 3 jettons
    expect(data.cells).toBeGreaterThanOrEqual(
      TON_MAX_BENEFICIARIES * jettons.length + TON_MAX_BENEFICIARIES + jettons.length,
    );
    expect(size.cells).toBeGreaterThan(data.cells);
  });

  it('an update to more beneficiaries must attach the larger reserve; it is refused without, and nothing changes', async () => {
    const { h, data } = await deployed(shape({}), 3650 * DAY, 365 * DAY);
    const fresh = unevenShares(TON_MAX_BENEFICIARIES).map((shareBps, i) => ({ address: addr(`n${i}`), shareBps }));
    const grown = grownRent(data.rent, fresh.length);
    expect(grown.rate).toBeGreaterThan(data.rent.rate);
    const diff = grown.reserve - data.rent.reserve;
    expect(diff).toBeGreaterThan(GAS); // so that a message short of it still pays its own gas
    const short = await h.sendRaw(owner, diff - 1n, updateBody(fresh));
    expect(short.exitCode).toBe(ERR.insufficientFunds);
    expect((await h.shares()).length).toBe(3);
    expect(await h.reserve()).toMatchObject({ base: data.rent.reserve, rate: data.rent.rate, count: 3 });
    // an update that does not grow the list attaches nothing more
    expect((await h.sendRaw(owner, GAS, updateBody([{ address: b[1]!, shareBps: 10000 }]))).success).toBe(true);
    expect((await h.sendRaw(owner, diff + GAS, updateBody(fresh))).success).toBe(true);
    expect((await h.shares()).length).toBe(TON_MAX_BENEFICIARIES);
    expect(await h.reserve()).toMatchObject({ base: grown.reserve, rate: grown.rate, count: TON_MAX_BENEFICIARIES });
  });

  it('the old reckoning (repeated values deduplicated, no rise on growth) undercounts the state it must pay for', async () => {
    const { compiled } = await buildTonShape(shape({}));
    const base: Omit<TonPlanData, 'rent'> = {
      owner,
      beneficiaries: b.map((address, i) => ({ address, shareBps: [5000, 3000, 2000][i]! })),
      intervalSeconds: 30 * DAY,
      graceSeconds: 0,
    };
    const old = await oldReckoning(compiled.code, base);
    const now = await rentReserveFor(compiled.code, base);
    const grownNow = grownRent(now, TON_MAX_BENEFICIARIES);
    expect(grownRent(old, TON_MAX_BENEFICIARIES).rate).toBe(old.rate); // growing to 50 changed nothing
    expect(grownNow.rate).toBeGreaterThan(2n * old.rate);
    expect(now.rate).toBeGreaterThan(old.rate);
  });

  it('under the old reckoning an owner update from 3 to 50 beneficiaries is accepted with nothing attached', async () => {
    const { h, data } = await deployed(shape({}), 30 * DAY, 0, undefined, oldReckoning);
    const fresh = unevenShares(TON_MAX_BENEFICIARIES).map((shareBps, i) => ({ address: addr(`n${i}`), shareBps }));
    expect((await h.sendRaw(owner, GAS, updateBody(fresh))).success).toBe(true);
    expect(await h.reserve()).toMatchObject({ rate: data.rent.rate, count: TON_MAX_BENEFICIARIES });
  });

  /**
   * The owner grows the plan to fifty beneficiaries, takes out everything but the reserve and is gone; after the
   * release fifty heirs claim a late deposit, and a year of claim window later one message collects the year's rent.
   */
  async function lifetime(interval: number, grace: number, reckon: Reckoning = rentReserveFor) {
    const { h, data, code } = await deployed(shape({}), interval, grace, 'mainnet', reckon);
    // the sandbox runs the full mainnet configuration: mainnet's global id, and the parameters the slim one drops
    const cfg = loadConfig(h.blockchain.config) as unknown as Record<number, { global_id?: number } | undefined>;
    expect(cfg[19]?.global_id).toBe(-239);
    for (const param of [32, 34, 44, 45]) expect(cfg[param], `config parameter ${param}`).toBeDefined();
    expect(defaultConfigSeqno).toBeGreaterThan(0);
    const fresh = unevenShares(TON_MAX_BENEFICIARIES).map((shareBps, i) => ({ address: addr(`n${i}`), shareBps }));
    for (const x of fresh) await h.installSink(x.address);
    const grown = grownRent(data.rent, fresh.length);
    expect((await h.sendRaw(owner, grown.reserve - data.rent.reserve + GAS, updateBody(fresh))).success).toBe(true);
    // the owner takes out everything but the reserve
    const { available } = await h.totals();
    expect((await h.op(owner, OP.withdraw, GAS, (x) => x.storeCoins(available))).success).toBe(true);
    expect((await h.totals()).available).toBe(0n);

    // the owner is gone: released after the interval and grace period; a late deposit is claimed by all fifty
    h.now = (await h.releaseTime()) + 1;
    expect(await h.state()).toBe(STATE.released);
    expect((await h.op(stranger, OP.deposit, toNano('50'))).success).toBe(true);
    for (let i = 0; i < fresh.length; i++) {
      const r = await h.op(fresh[i]!.address, OP.claim, GAS, (x) => x.storeUint(i, 8));
      expect(r.success, `claim ${i}`).toBe(true);
    }
    const reached = await account(h);
    const worst = worstCaseStorage(code, { ...data, rent: grown });
    h.now += CLAIM_WINDOW_SECONDS;
    const late = await h.op(stranger, 0x0badc0de, GAS); // any message: its storage phase collects the year's rent
    expect(late.exitCode === ERR.unknownOp || !late.success).toBe(true);
    const d = late.tx.description;
    return {
      h,
      grown,
      reached,
      worst,
      late,
      due: d.type === 'generic' ? (d.storagePhase?.storageFeesDue ?? 0n) : -1n,
      status: (await account(h)).status,
    };
  }

  it('a 30-day plan grown to 50 beneficiaries, reserve reckoned the old way, is drained in its claim window', async () => {
    const { due, h, status } = await lifetime(30 * DAY, 0, oldReckoning);
    // the year's rent was more than the contract held: it owes rent (frozen once the debt passes the network's limit)
    expect(due).toBeGreaterThan(0n);
    expect(status === 'frozen' || (await h.balance()) === 0n).toBe(true);
  });

  for (const [label, interval, grace] of [
    ['a 30-day plan', 30 * DAY, 0],
    ['the longest interval and grace period (3650 + 365 days)', 3650 * DAY, 365 * DAY],
  ] as const) {
    it(`${label} grown from 3 to 50 beneficiaries, with only the reserve left, stays active through the claim window`, async () => {
      const { h, grown, reached, worst, late, due, status } = await lifetime(interval, grace);
      // the largest state is reached, and the rate behind the reserve is not below it
      expect(reached.cells).toBeLessThanOrEqual(worst.cells);
      expect(reached.bits).toBeLessThanOrEqual(worst.bits);
      expect(reached.cells).toBeGreaterThan(2 * TON_MAX_BENEFICIARIES);
      // a year of claim window later, the contract still paid its rent from the reserve and is active
      expect(late.exitCode).toBe(ERR.unknownOp);
      expect(due).toBe(0n);
      // the rent mainnet charged for the year is paid, and is not above what the reckoned rate allows for it
      const charged = storageFee(late.tx);
      expect(charged).toBeGreaterThan(0n);
      expect(charged).toBeLessThanOrEqual(rentFor(grown.rate, CLAIM_WINDOW_SECONDS));
      expect(status).toBe('active');
      expect(await h.balance()).toBeGreaterThan(0n);
      expect(Address.isAddress(h.address)).toBe(true);
    });
  }
});

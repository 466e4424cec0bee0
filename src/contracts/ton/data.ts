import { Address, beginCell, type Cell, contractAddress, Dictionary, type DictionaryValue } from '@ton/core';
import { guardianTiming } from '../guardians.js';
import type { Plan } from '../plan.js';
import { OP, TON_MAX_UNLISTED } from './contract.js';

/** Per-plan values of the TON contract, all of which go into the initial data cell. */
export interface TonPlanData {
  owner: Address;
  beneficiaries: Array<{ address: Address; shareBps: number }>;
  /** Seconds; 0 without a dead man's switch. */
  intervalSeconds: number;
  /** Seconds after the deadline during which the owner can still check in and guardians can veto. */
  graceSeconds: number;
  /**
   * Guardians, m of n; `waitSeconds` (the owner's time to answer their early release) and `maxVetoes` (vetoes after
   * each sign of life) default to the shared defaults when absent.
   */
  guardians?: { addresses: Address[]; threshold: number; waitSeconds?: number; maxVetoes?: number };
  /** Jetton master addresses, in plan order (the jetton index used by claims). */
  jettons?: Address[];
  /** The storage-rent reserve of this contract (see rent.ts). */
  rent: TonRent;
}

/**
 * The storage-rent reserve written into the data cell: `reserve` nanotons are
 * kept out of the estate at each check-in and decay at `rate` nanotons per
 * 65536 seconds (the contract's worst-case state size priced with the
 * basechain storage prices), since that is what rent takes from the balance.
 */
export interface TonRent {
  reserve: bigint;
  /** Nanotons of rent per 65536 seconds (bits x bit price + cells x cell price). */
  rate: bigint;
  /** How much the rate rises per beneficiary an owner update adds beyond `count` (the largest rise of one more). */
  step?: bigint;
  /** The number of beneficiaries the rate and reserve are reckoned for (default: the plan's). */
  count?: number;
}

const DAY = 86_400;

export function tonPlanData(plan: Plan, rent: TonRent): TonPlanData {
  const dms = plan.deadMansSwitch;
  const on = dms?.enabled === true;
  const data: TonPlanData = {
    owner: Address.parse(plan.ownerAddress),
    beneficiaries: plan.beneficiaries.map((b) => ({
      address: Address.parse(b.address),
      shareBps: Math.round(b.percentage * 100),
    })),
    intervalSeconds: on ? (dms?.intervalDays ?? 365) * DAY : 0,
    graceSeconds: on ? (dms?.gracePeriodDays ?? 0) * DAY : 0,
    rent,
  };
  const jettons = (plan.assets ?? [])
    .filter((a) => a.type === 'jetton' && a.address)
    .map((a) => Address.parse(a.address!));
  if (jettons.length > 0) data.jettons = jettons;
  if (plan.guardians) {
    data.guardians = {
      addresses: plan.guardians.addresses.map((a) => Address.parse(a)),
      threshold: plan.guardians.threshold,
      waitSeconds: guardianTiming(plan.guardians).waitDays * DAY,
      maxVetoes: guardianTiming(plan.guardians).maxVetoes,
    };
  }
  return data;
}

/** Dictionary value of one beneficiary: address, share in basis points, amount claimed. */
export const BeneficiaryValue: DictionaryValue<{ address: Address; shareBps: number; claimed: bigint }> = {
  serialize(src, b) {
    b.storeAddress(src.address).storeUint(src.shareBps, 16).storeCoins(src.claimed);
  },
  parse(s) {
    return { address: s.loadAddress(), shareBps: s.loadUint(16), claimed: s.loadCoins() };
  },
};

/** Dictionary value of one jetton: master, the contract's jetton wallet (none until discovered), received, claimed. */
export const JettonValue: DictionaryValue<{
  master: Address;
  wallet: Address | null;
  received: bigint;
  claimed: bigint;
}> = {
  serialize(src, b) {
    b.storeAddress(src.master).storeAddress(src.wallet).storeCoins(src.received).storeCoins(src.claimed);
  },
  parse(s) {
    return { master: s.loadAddress(), wallet: s.loadMaybeAddress(), received: s.loadCoins(), claimed: s.loadCoins() };
  },
};

const AddressValue: DictionaryValue<Address> = {
  serialize(src, b) {
    b.storeAddress(src);
  },
  parse(s) {
    return s.loadAddress();
  },
};

export function beneficiariesDict(list: Array<{ address: Address; shareBps: number }>) {
  const d = Dictionary.empty(Dictionary.Keys.Uint(8), BeneficiaryValue);
  list.forEach((b, i) => d.set(i, { address: b.address, shareBps: b.shareBps, claimed: 0n }));
  return d;
}

/** The guardian wait in seconds the data cell holds (the shared default when the plan data does not say). */
export function guardianWaitSeconds(g: { waitSeconds?: number | undefined }): number {
  return g.waitSeconds ?? guardianTiming().waitDays * DAY;
}

/** The veto bound the data cell holds (the shared default when the plan data does not say). */
export function guardianMaxVetoes(g: { maxVetoes?: number | undefined }): number {
  return g.maxVetoes ?? guardianTiming().maxVetoes;
}

/** The initial data cell (layout documented in contract.ts). */
export function buildInitialData(d: TonPlanData): Cell {
  let guardians: Cell | null = null;
  if (d.guardians) {
    const g = Dictionary.empty(Dictionary.Keys.Uint(8), AddressValue);
    d.guardians.addresses.forEach((a, i) => g.set(i, a));
    guardians = beginCell()
      .storeUint(d.guardians.threshold, 8)
      .storeUint(d.guardians.addresses.length, 8)
      .storeUint(0, 16)
      .storeUint(0, 16)
      .storeUint(0, 64)
      .storeUint(0, 8)
      .storeUint(guardianWaitSeconds(d.guardians), 32)
      .storeUint(guardianMaxVetoes(d.guardians), 8)
      .storeDict(g)
      .endCell();
  }
  let jettons: Cell | null = null;
  if (d.jettons && d.jettons.length > 0) {
    const entries = Dictionary.empty(Dictionary.Keys.Uint(8), JettonValue);
    d.jettons.forEach((m, i) => entries.set(i, { master: m, wallet: null, received: 0n, claimed: 0n }));
    jettons = beginCell().storeUint(d.jettons.length, 8).storeDict(entries).storeDict(null).endCell();
  }
  return beginCell()
    .storeAddress(d.owner)
    .storeUint(0, 8)
    .storeUint(0, 64)
    .storeUint(d.intervalSeconds, 32)
    .storeUint(d.graceSeconds, 32)
    .storeUint(d.rent.reserve, 64)
    .storeUint(d.rent.rate, 64)
    .storeUint(d.rent.step ?? 0n, 64)
    .storeUint(d.rent.count ?? d.beneficiaries.length, 8)
    .storeCoins(0)
    .storeUint(d.beneficiaries.length, 8)
    .storeDict(beneficiariesDict(d.beneficiaries))
    .storeMaybeRef(guardians)
    .storeMaybeRef(jettons)
    .storeUint(0, 8)
    .storeDict(null)
    .endCell();
}

const MAX_COINS = (1n << 120n) - 1n;
const MAX_U64 = (1n << 64n) - 1n;

/** A distinct address per (tag, i): identical cells are stored once, so a worst case must not repeat values. */
function distinctAddress(tag: number, i: number): Address {
  const hash = Buffer.alloc(32, 0xff);
  hash.writeUInt16BE(tag, 0);
  hash.writeUInt16BE(i, 2);
  return new Address(0, hash);
}

/**
 * The largest data cell this plan's contract can come to hold with `count` beneficiaries (default: the plan's):
 * the clock started, every jetton wallet known, every claim recorded, every unlisted-jetton record slot taken,
 * every amount at the widest Coins encoding,
 * and every value distinct (the network stores identical cells once, so repeated values would undercount).
 * Beneficiaries beyond the plan's are what an owner update may add. Its size bounds the rent the contract pays.
 */
export function worstCaseData(d: TonPlanData, count = d.beneficiaries.length): Cell {
  const benefs = Dictionary.empty(Dictionary.Keys.Uint(8), BeneficiaryValue);
  for (let i = 0; i < count; i++) {
    const address = d.beneficiaries[i]?.address ?? distinctAddress(1, i);
    benefs.set(i, { address, shareBps: 0xffff - i, claimed: MAX_COINS - BigInt(i) });
  }
  let guardians: Cell | null = null;
  if (d.guardians) {
    const g = Dictionary.empty(Dictionary.Keys.Uint(8), AddressValue);
    d.guardians.addresses.forEach((a, i) => g.set(i, a));
    guardians = beginCell()
      .storeUint(d.guardians.threshold, 8)
      .storeUint(d.guardians.addresses.length, 8)
      .storeUint(0xffff, 16)
      .storeUint(0xffff, 16)
      .storeUint(0xffff_ffff_ffffn, 64)
      .storeUint(0xff, 8)
      .storeUint(guardianWaitSeconds(d.guardians), 32)
      .storeUint(guardianMaxVetoes(d.guardians), 8)
      .storeDict(g)
      .endCell();
  }
  let jettons: Cell | null = null;
  if (d.jettons && d.jettons.length > 0) {
    const entries = Dictionary.empty(Dictionary.Keys.Uint(8), JettonValue);
    const claims = Dictionary.empty(Dictionary.Keys.Uint(16), Dictionary.Values.BigVarUint(4));
    d.jettons.forEach((m, j) => {
      entries.set(j, {
        master: m,
        wallet: distinctAddress(2, j),
        received: MAX_COINS - BigInt(j),
        claimed: MAX_COINS - BigInt(j) - 1000n,
      });
      for (let i = 0; i < count; i++) claims.set((i << 8) | j, MAX_COINS - BigInt((i << 8) | j));
    });
    jettons = beginCell().storeUint(d.jettons.length, 8).storeDict(entries).storeDict(claims).endCell();
  }
  // every unlisted jetton wallet the contract may record at once, each with its own amount
  const unlisted = Dictionary.empty(Dictionary.Keys.BigUint(256), Dictionary.Values.BigVarUint(4));
  for (let k = 0; k < TON_MAX_UNLISTED; k++) {
    unlisted.set(BigInt(`0x${distinctAddress(3, k).hash.toString('hex')}`), MAX_COINS - BigInt(k));
  }
  return beginCell()
    .storeAddress(d.owner)
    .storeUint(2, 8)
    .storeUint(0xffff_ffffn, 64)
    .storeUint(d.intervalSeconds, 32)
    .storeUint(d.graceSeconds, 32)
    .storeUint(MAX_U64, 64)
    .storeUint(MAX_U64, 64)
    .storeUint(MAX_U64, 64)
    .storeUint(0xff, 8)
    .storeCoins(MAX_COINS)
    .storeUint(count, 8)
    .storeDict(benefs)
    .storeMaybeRef(guardians)
    .storeMaybeRef(jettons)
    .storeUint(TON_MAX_UNLISTED, 8)
    .storeDict(unlisted)
    .endCell();
}

/**
 * A plan of the same structure as `d` holding none of its values: no beneficiary of its own (each count takes
 * `worstCaseData`'s distinct stand-ins), and distinct stand-in addresses for the owner, the guardians and the jetton
 * masters. Every value of the data cell has a fixed width (an address is always 267 bits), so its worst case has the
 * same bits as the plan's, and the same cells unless two of the plan's cells are identical (stored once). What
 * `rentReserveFor` reckons once per structure instead of once per plan (rent.ts).
 */
export function standInPlanData(d: TonPlanData): TonPlanData {
  const standIn: TonPlanData = {
    owner: distinctAddress(6, 0),
    beneficiaries: [],
    intervalSeconds: d.intervalSeconds,
    graceSeconds: d.graceSeconds,
    rent: d.rent,
  };
  if (d.guardians) {
    standIn.guardians = { ...d.guardians, addresses: d.guardians.addresses.map((_, i) => distinctAddress(4, i)) };
  }
  if (d.jettons) standIn.jettons = d.jettons.map((_, j) => distinctAddress(5, j));
  return standIn;
}

/** The body of the owner's update: ^[count:uint8 (HashmapE 8 (address share claimed))]. */
export function updateBody(list: Array<{ address: Address; shareBps: number }>, queryId = 0n): Cell {
  const inner = beginCell().storeUint(list.length, 8).storeDict(beneficiariesDict(list)).endCell();
  return beginCell().storeUint(OP.update, 32).storeUint(queryId, 64).storeRef(inner).endCell();
}

export function tonAddressFor(code: Cell, data: Cell, workchain = 0): Address {
  return contractAddress(workchain, { code, data });
}

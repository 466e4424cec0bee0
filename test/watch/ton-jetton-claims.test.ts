import { type Address, toNano } from '@ton/core';
import { afterAll, describe, expect, it } from 'vitest';
import { createTonReader, showTon, type TonReader } from '../../src/chains/ton.js';
import type { SwitchSnapshot } from '../../src/contracts/deployments.js';
import { TON_OP as OP, type TonShape } from '../../src/contracts/ton/index.js';
import { decide } from '../../src/watch/decide.js';
import { readTonSwitch } from '../../src/watch/ton-switch.js';
import { addr } from '../contracts/ton/helpers.js';
import { deployJettonPlan } from '../contracts/ton/jetton-plan.js';
import { startTonApiStandin, type TonApiStandin } from '../support/ton-api.js';

// The watcher's reading of a TON contract's jetton claims, through the toncenter-kind stand-in over the sandbox the
// contract runs in (real jetton doubles: a master and its wallets): each heir's claim of a jetton becomes one
// deadman.claimed with the jetton's master and the amount moved, and a read with nothing new asks no per-heir method.

const T0 = 1_900_000_000;
const GAS = toNano('0.1');
const owner = addr('owner');
const heirs = [addr('heir-0'), addr('heir-1')];
const shape: TonShape = {
  template: 'custom',
  deadMansSwitch: false,
  gracePeriod: false,
  guardians: false,
  jettons: true,
};

let api: TonApiStandin | undefined;
afterAll(async () => {
  await api?.close();
});

/** A reader that also lists the get methods it ran. */
function counting(reader: TonReader): { reader: TonReader; methods: string[] } {
  const methods: string[] = [];
  return {
    methods,
    reader: {
      ...reader,
      runGetMethod: (a: Address, m: string, args?: Parameters<TonReader['runGetMethod']>[2]) => {
        methods.push(m);
        return reader.runGetMethod(a, m, args);
      },
    },
  };
}

describe('TON jetton claims as the watcher reads them', () => {
  it('one deadman.claimed per heir and jetton claim, with the master and the amount; nothing when nothing moved', async () => {
    const listed = addr('jm-listed');
    const {
      h,
      mint: mintTo,
      claimJetton,
    } = await deployJettonPlan({
      shape,
      owner,
      heirs: heirs.map((address, i) => ({ address, shareBps: i === 0 ? 7000 : 3000 })),
      listed: [listed],
      masters: [listed],
      minter: addr('minter'),
      t0: T0,
    });
    const mint = (amount: bigint) => mintTo(listed, amount);
    await mint(1_000_000n);

    api = await startTonApiStandin({ chain: h.blockchain });
    const { reader, methods } = counting(createTonReader(api.apiUrl, 'ton-testnet'));
    const read = async (prev: SwitchSnapshot | null) => {
      methods.length = 0;
      return readTonSwitch(reader, h.address, 1, prev);
    };
    const master = showTon(listed);
    const heir0 = showTon(heirs[0]!);
    const heir1 = showTon(heirs[1]!);

    // A first get_jettons that fails (the API, not the contract) fails the read: the contract is not taken for one
    // that lists no jettons. Before, it was, for good: its jetton claims were never reported.
    api.failNextGet('get_jettons');
    await expect(read(null)).rejects.toThrow(/get_jettons failed/);
    const s0 = await read(null);
    expect(s0.jettons).toEqual([{ master, claimed: '0' }]);
    expect(s0.jettonClaimed).toEqual({});

    expect((await h.op(owner, OP.release, GAS)).success).toBe(true);
    expect((await claimJetton(0)).success).toBe(true);
    const s1 = await read(s0);
    expect(s1.jettons).toEqual([{ master, claimed: '700000' }]);
    expect(s1.jettonClaimed).toEqual({ [`${heir0} ${master}`]: '700000' });
    expect(methods.filter((m) => m === 'get_jetton_claimed')).toHaveLength(2);
    const all1 = decide(s0, s1, [], new Set(), s1.blockTime);
    const e1 = all1.filter((e) => e.type === 'deadman.claimed');
    expect(e1.map((e) => e.data)).toEqual([{ beneficiary: heir0, asset: 'jetton', token: master, amount: '700000' }]);

    // Nothing moved: get_jettons only, no per-heir method, no event.
    const s2 = await read(s1);
    expect(methods).toContain('get_jettons');
    expect(methods).not.toContain('get_jetton_claimed');
    expect(s2.jettonClaimed).toEqual(s1.jettonClaimed);
    // What the watcher recorded of that read (the release's trigger and the claim).
    const emitted = new Set(all1.map((e) => e.key));
    expect(decide(s1, s2, [], emitted, s2.blockTime)).toEqual([]);

    // More arrives; the first heir claims its part of it and the second heir its whole share: two events, the
    // first heir's for the new 70,000 only.
    await mint(100_000n);
    expect((await claimJetton(0)).success).toBe(true);
    expect((await claimJetton(1)).success).toBe(true);
    const s3 = await read(s2);
    expect(s3.jettonClaimed).toEqual({ [`${heir0} ${master}`]: '770000', [`${heir1} ${master}`]: '330000' });
    const e3 = decide(s2, s3, [], emitted, s3.blockTime).filter((e) => e.type === 'deadman.claimed');
    expect(e3.map((e) => [e.data.beneficiary, e.data.amount])).toEqual([
      [heir0, '70000'],
      [heir1, '330000'],
    ]);
    // The same state read again after a crash (the events already recorded) sends nothing twice.
    for (const e of e3) emitted.add(e.key);
    expect(decide(s2, s3, [], emitted, s3.blockTime)).toEqual([]);
  }, 120_000);

  it('a contract that lists no jettons is asked for them once, then never', async () => {
    const { h } = await deployJettonPlan({
      shape: { ...shape, jettons: false },
      owner,
      heirs: heirs.map((address) => ({ address, shareBps: 5000 })),
      listed: [],
      masters: [],
      minter: addr('minter'),
      t0: T0,
    });
    const standin = await startTonApiStandin({ chain: h.blockchain });
    try {
      const { reader, methods } = counting(createTonReader(standin.apiUrl, 'ton-testnet'));
      const first = await readTonSwitch(reader, h.address, 1, null);
      expect(first.jettons).toEqual([]);
      expect(methods).toContain('get_jettons');
      methods.length = 0;
      await readTonSwitch(reader, h.address, 2, first);
      expect(methods).not.toContain('get_jettons');
    } finally {
      await standin.close();
    }
  }, 120_000);
});

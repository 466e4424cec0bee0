import { toNano, type Address } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { TON_OP as OP, type TonShape } from '../../../src/contracts/ton/index.js';
import { jettonWalletAddress } from '../../../src/contracts/ton/jetton-double.js';
import { addr } from './helpers.js';
import { deployJettonPlan } from './jetton-plan.js';

// Jetton shares in @ton/sandbox: a jetton balance that grows after an early claim (a deposit) gives the early
// claimant only its own share of that deposit, never the others'; a jetton the plan does not list is never credited
// to a listed one.

const T0 = 1_900_000_000;
const GAS = toNano('0.1');
const owner = addr('owner');
const b = [addr('b0'), addr('b1'), addr('b2')];
const SHARES = [7000n, 2000n, 1000n];

const shape: TonShape = {
  template: 'custom',
  deadMansSwitch: false,
  gracePeriod: false,
  guardians: false,
  jettons: true,
};

const deployed = (listed: Address, unlisted: Address, minter: Address) =>
  deployJettonPlan({
    shape,
    owner,
    heirs: b.map((address, i) => ({ address, shareBps: Number(SHARES[i]) })),
    listed: [listed],
    masters: [listed, unlisted],
    minter,
    t0: T0,
  });

describe.concurrent('TON jetton shares stay fair', () => {
  it('a deposit after an early claim gives the early claimant only its own share of the deposit', async () => {
    const listed = addr('jm-listed');
    const { h, mint, claimJetton, heldBy } = await deployed(listed, addr('jm-other'), addr('minter'));
    await mint(listed, 1_000_000n);
    expect((await h.op(owner, OP.release, GAS)).success).toBe(true);

    // the 70% heir claims early
    expect((await claimJetton(0)).success).toBe(true);
    expect(await heldBy(0)).toBe(700_000n);
    // then the balance grows: 100,000 more arrive
    await mint(listed, 100_000n);
    expect((await h.jettons())[0]!.received).toBe(1_100_000n);

    // the early claimant gets 70% of the new 100,000 and nothing of the others' shares
    expect((await claimJetton(0)).success).toBe(true);
    expect(await heldBy(0)).toBe(770_000n);
    expect((await claimJetton(0)).success).toBe(false);
    // the others still get their full shares of everything that arrived
    for (const i of [1, 2]) expect((await claimJetton(i)).success).toBe(true);
    expect(await heldBy(1)).toBe(220_000n);
    expect(await heldBy(2)).toBe(110_000n);
    // all received is paid, no more
    const [j] = await h.jettons();
    expect(j!.claimed).toBe(1_100_000n);
    expect(await h.jettonBalance(j!.wallet!)).toBe(0n);
  });

  it('a jetton the plan does not list is never credited to a listed one; it is recorded on its own for the heirs', async () => {
    const listed = addr('jm-listed');
    const other = addr('jm-other');
    const { h, jcode, mint, claimJetton, heldBy } = await deployed(listed, other, addr('minter'));
    expect((await h.op(owner, OP.release, GAS)).success).toBe(true);
    await mint(other, 5_000n); // an airdrop of an unlisted jetton after the release
    const otherWallet = jettonWalletAddress(jcode, h.address, other);
    expect(await h.jettonBalance(otherWallet)).toBe(5_000n);
    // the listed jetton's records are untouched: nothing of the other jetton can be claimed as the listed one
    const jettons = await h.jettons();
    expect(jettons).toHaveLength(1);
    expect(jettons[0]!.received).toBe(0n);
    expect((await claimJetton(0)).success).toBe(false);
    expect(await heldBy(0, other)).toBe(0n);
    // it is recorded for its own wallet, to be shared with share_unlisted (see unlisted-jettons.test.ts)
    const r = await h.blockchain.runGetMethod(h.address, 'get_unlisted', [
      { type: 'int', value: BigInt(`0x${otherWallet.hash.toString('hex')}`) },
    ]);
    expect([r.stackReader.readNumber(), r.stackReader.readBigNumber()]).toEqual([1, 5_000n]);
  });
});

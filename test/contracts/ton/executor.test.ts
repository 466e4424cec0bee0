import { toNano, type Cell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { buildInitialData, tonAddressFor, type TonPlanData } from '../../../src/contracts/ton/data.js';
import { sandboxExecutor } from '../../../src/contracts/ton/executor.js';
import { TonHarness, type TonHarnessConfig } from '../../../src/contracts/ton/harness.js';
import { buildTonShape, TON_STATE as STATE } from '../../../src/contracts/ton/index.js';
import { rentReserveFor } from '../../../src/contracts/ton/rent.js';
import { addr } from './helpers.js';

// Every sandbox blockchain of a thread runs on one emulator (src/contracts/ton/executor.ts) instead of a fresh
// WebAssembly instance each: blockchains on the slim and the mainnet configuration, used in turn and at once, still
// each see their own accounts and their own network prices.

const T0 = 1_900_000_000;
const owner = addr('owner');
const heirs = [addr('h0'), addr('h1')];

async function harness(config: TonHarnessConfig): Promise<TonHarness> {
  const { compiled } = await buildTonShape({
    template: 'custom',
    deadMansSwitch: true,
    gracePeriod: false,
    guardians: false,
    jettons: false,
  });
  const base: Omit<TonPlanData, 'rent'> = {
    owner,
    beneficiaries: [
      { address: heirs[0]!, shareBps: 5000 },
      { address: heirs[1]!, shareBps: 5000 },
    ],
    intervalSeconds: 365 * 86_400,
    graceSeconds: 0,
  };
  const data: TonPlanData = { ...base, rent: await rentReserveFor(compiled.code, base) };
  const cell: Cell = buildInitialData(data);
  const h = await TonHarness.create(compiled.code, cell, tonAddressFor(compiled.code, cell), T0, { config });
  for (const a of [owner, ...heirs]) await h.installSink(a, toNano('100'));
  return h;
}

describe('TON: one sandbox emulator per thread', () => {
  it('is the executor of every blockchain, whatever its configuration', async () => {
    const shared = await sandboxExecutor();
    const [slim, mainnet] = await Promise.all([harness('slim'), harness('mainnet')]);
    expect(slim.blockchain.executor).toBe(shared);
    expect(mainnet.blockchain.executor).toBe(shared);
    expect(await sandboxExecutor()).toBe(shared);
  });

  it('keeps blockchains apart when they take turns on it: accounts, balances and fees are each their own', async () => {
    const [a, b, m] = await Promise.all([harness('slim'), harness('slim'), harness('mainnet')]);
    const fee = (op: { tx: { totalFees: { coins: bigint } } }) => op.tx.totalFees.coins;
    // Deployed on a and m in turn; b, never deployed, has no contract and no coins.
    const onSlim = await a.deploy(owner, toNano('5'));
    const onMainnet = await m.deploy(owner, toNano('5'));
    expect(onSlim.success && onMainnet.success).toBe(true);
    expect(await a.state()).toBe(STATE.active);
    expect(await m.state()).toBe(STATE.active);
    expect(await b.balance()).toBe(0n);
    // The emulator, last used with the mainnet configuration, charges a fresh slim blockchain's deployment what it
    // charged a's, and a fresh mainnet blockchain's what it charged m's.
    const slimAgain = await (await harness('slim')).deploy(owner, toNano('5'));
    const mainnetAgain = await (await harness('mainnet')).deploy(owner, toNano('5'));
    expect(fee(slimAgain)).toBe(fee(onSlim));
    expect(fee(mainnetAgain)).toBe(fee(onMainnet));
    expect(await a.balance()).toBe((await m.balance()) + fee(onMainnet) - fee(onSlim));
  });
});

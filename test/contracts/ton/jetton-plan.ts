import { type Address, type Cell, toNano } from '@ton/core';
import { internal } from '@ton/sandbox';
import { buildInitialData, tonAddressFor, type TonPlanData } from '../../../src/contracts/ton/data.js';
import { TonHarness } from '../../../src/contracts/ton/harness.js';
import { buildTonShape, TON_OP as OP, type TonShape } from '../../../src/contracts/ton/index.js';
import {
  jettonDoubleCode,
  jettonMasterData,
  jettonMintBody,
  jettonWalletAddress,
} from '../../../src/contracts/ton/jetton-double.js';
import { rentReserveFor } from '../../../src/contracts/ton/rent.js';

const GAS = toNano('0.1');

/**
 * A contract of `shape` (no switch: the owner releases it) deployed in the sandbox at `t0`, its owner and heirs with
 * accounts, and a jetton master double (minted by `minter`) at each of `masters`; the plan lists `listed` of them.
 */
export async function deployJettonPlan(opts: {
  shape: TonShape;
  owner: Address;
  heirs: Array<{ address: Address; shareBps: number }>;
  listed: Address[];
  masters: Address[];
  minter: Address;
  t0: number;
}) {
  const { owner, heirs, minter } = opts;
  const jcode = await jettonDoubleCode();
  const { compiled } = await buildTonShape(opts.shape);
  const base: Omit<TonPlanData, 'rent'> = {
    owner,
    beneficiaries: heirs,
    intervalSeconds: 0,
    graceSeconds: 0,
    ...(opts.listed.length ? { jettons: opts.listed } : {}),
  };
  const data: TonPlanData = { ...base, rent: await rentReserveFor(compiled.code, base) };
  const cell: Cell = buildInitialData(data);
  const h = await TonHarness.create(compiled.code, cell, tonAddressFor(compiled.code, cell), opts.t0);
  for (const a of [owner, ...heirs.map((x) => x.address)]) await h.installSink(a);
  for (const m of opts.masters) await h.installContract(m, jcode, jettonMasterData(minter, jcode), toNano('5'));
  if (!(await h.deploy(owner, toNano('1'))).success) throw new Error('the jetton plan did not deploy');
  const mint = (master: Address, amount: bigint) =>
    h.blockchain.sendMessage(
      internal({
        from: minter,
        to: master,
        value: toNano('0.3'),
        body: jettonMintBody(h.address, amount, toNano('0.01')),
      }),
    );
  const claimJetton = (i: number) =>
    h.op(heirs[i]!.address, OP.claimJetton, GAS, (x) => x.storeUint(i, 8).storeUint(0, 8));
  const heldBy = (i: number, master = opts.listed[0]!) =>
    h.jettonBalance(jettonWalletAddress(jcode, heirs[i]!.address, master));
  return { h, data, jcode, mint, claimJetton, heldBy };
}

/** One run of the TON scenario (./scenario.ts): the state its steps share, and the sandbox it starts from. */
import { createHash } from 'node:crypto';
import { Address, toNano, type Cell } from '@ton/core';
import { buildInitialData, tonAddressFor, type TonPlanData } from './data.js';
import { computeExit, TonHarness, type SentOp } from './harness.js';
import type { TonShape } from './shape.js';
import { jettonDoubleCode, jettonMasterData, jettonMintBody } from './jetton-double.js';
import { internal } from '@ton/sandbox';

/** A step of the scenario that did not go as the contract promises; `step` names it. */
export class ScenarioError extends Error {
  override name = 'ScenarioError';
  constructor(
    readonly step: string,
    message: string,
  ) {
    super(`${step}: ${message}`);
  }
}

/** A fixed start time: scenarios never depend on the wall clock. */
export const SCENARIO_T0 = 1_800_000_000;
/** The value sent with each operation of the scenario. */
export const GAS = toNano('0.1');

function derived(label: string): Address {
  return new Address(0, createHash('sha256').update(`svc-ton-scenario:${label}`).digest());
}

/** The state one scenario run shares between its steps. */
export interface Run {
  shape: TonShape;
  plan: TonPlanData;
  h: TonHarness;
  address: Address;
  steps: string[];
  fees: Record<string, bigint>;
  transactions: number;
  n: number;
  owner: Address;
  stranger: Address;
  /** The beneficiaries' addresses. */
  b: Address[];
  /** The beneficiary without an account at first, whose first payout bounces (-1: none). */
  bounceIndex: number;
  /** The jetton masters (a minimal TEP-74/89 double) at the plan's master addresses, and their code. */
  masters: Address[];
  jcode: Cell | null;
  /** Jettons credited to the contract so far, per jetton. */
  jettonReceived: bigint[];
  check: (step: string, ok: boolean, why: string) => void;
  expectOk: (step: string, r: SentOp, feeName?: string) => void;
  expectRefused: (step: string, r: SentOp, code: number) => void;
  mint: (step: string, j: number, amount: bigint) => Promise<void>;
}

/** The sandbox with the contract's code and data, the accounts the scenario uses and the jetton doubles; nothing deployed yet. */
export async function startRun(shape: TonShape, code: Cell, plan: TonPlanData): Promise<Run> {
  const data = buildInitialData(plan);
  const address = tonAddressFor(code, data);
  const h = await TonHarness.create(code, data, address, SCENARIO_T0);
  const owner = plan.owner;
  const b = plan.beneficiaries.map((x) => x.address);
  // One beneficiary starts without an account, so that its first payout bounces;
  // it must not also be the owner or a guardian (those accounts exist).
  const others = [owner, ...(plan.guardians?.addresses ?? [])];
  const bounceIndex = b.findIndex((x) => !others.some((o) => o.equals(x)));
  for (const a of [...others, ...b.filter((_, i) => i !== bounceIndex)]) await h.installSink(a);
  const masters = shape.jettons ? (plan.jettons ?? []) : [];
  const minter = derived('minter');
  const jcode = masters.length > 0 ? await jettonDoubleCode() : null;
  for (const mst of masters) await h.installContract(mst, jcode!, jettonMasterData(minter, jcode!), toNano('10'));
  const run: Run = {
    shape,
    plan,
    h,
    address,
    steps: [],
    fees: {},
    transactions: 0,
    n: plan.beneficiaries.length,
    owner,
    stranger: derived('stranger'),
    b,
    bounceIndex,
    masters,
    jcode,
    jettonReceived: masters.map(() => 0n),
    check: (step, ok, why) => {
      if (!ok) throw new ScenarioError(step, why);
    },
    expectOk: (step, r, feeName) => {
      run.transactions += r.result.transactions.length;
      run.check(step, r.success, `expected success, exit code ${r.exitCode}`);
      if (feeName && run.fees[feeName] === undefined) run.fees[feeName] = r.tx.totalFees.coins;
      run.steps.push(step);
    },
    expectRefused: (step, r, code) => {
      run.transactions += r.result.transactions.length;
      run.check(
        step,
        !r.success && r.exitCode === code,
        `expected refusal with exit code ${code}, got ${r.success ? 'success' : r.exitCode}`,
      );
      run.steps.push(step);
    },
    mint: async (step, j, amount) => {
      const r = await h.blockchain.sendMessage(
        internal({
          from: minter,
          to: masters[j]!,
          value: toNano('0.3'),
          body: jettonMintBody(address, amount, toNano('0.01')),
        }),
      );
      run.transactions += r.transactions.length;
      run.check(
        step,
        r.transactions.every((t) => computeExit(t).success),
        'the jetton transfer failed',
      );
      run.steps.push(step);
    },
  };
  return run;
}

import './native-sha256.js';
import { createHash } from 'node:crypto';
import { Address, beginCell, Cell, toNano } from '@ton/core';
import { internal } from '@ton/sandbox';
import { ApiError } from '../../core/errors.js';
import type { Plan } from '../plan.js';
import { TEMPLATE_TYPES } from '../../law/templates.js';
import { analyseTon, type TonAnalysis } from './analysis.js';
import { compileFuncCached, type CompiledFunc } from './compile.js';
import { tonContractSource, OP } from './contract.js';
import { buildInitialData, tonAddressFor, tonPlanData, type TonPlanData } from './data.js';
import { rentFigures, rentReserveFor, type TonRentFigures } from './rent.js';
import { tonDeployScript } from './deploy-script.js';
import { tonStateInit } from './state-init.js';
import { runTonScenario, formatFees, type ScenarioReport } from './scenario.js';
import { ScenarioError } from './scenario-run.js';
import { checkTonPlan, featuresOf, shapeKey, shapeOf, type TonShape } from './shape.js';
import { ton } from './harness.js';

import { isValidTonAddress } from './address.js';
import { sandboxBlockchain } from './executor.js';

export { isValidTonAddress };
export {
  TON_MAX_BENEFICIARIES,
  TON_MAX_GUARDIANS,
  TON_MAX_JETTONS,
  shapeOf,
  shapeKey,
  featuresOf,
  type TonShape,
} from './shape.js';
export { tonContractSource, OP as TON_OP, ERR as TON_ERR, STATE as TON_STATE } from './contract.js';

export interface TonGenerated {
  contractCode: string /* FunC source */;
  codeBoc: string /* base64 */;
  codeHash: string /* hex */;
  deployScript: string /* TypeScript using @ton/core */;
  /** The contract address for this plan (workchain 0), user-friendly bounceable form. */
  address: string;
  /** The initial data cell for this plan, base64 BoC. */
  dataBoc: string;
  /** The StateInit (code and data) to deploy, base64 BoC. */
  stateInitBoc: string;
  features: string[];
  fees: Record<string, string> /* measured, in TON */;
  estimatedGas: string;
  network: string;
  analysis: TonAnalysis;
}

export const TON_NETWORK = 'ton-mainnet';
const METHOD =
  'measured in @ton/sandbox: total fees of the contract transaction (storage, compute and forwarding), in TON';

/** Every shape the generator can produce (templates x switch/grace x guardians x jettons). */
export function allTonShapes(): TonShape[] {
  const out: TonShape[] = [];
  for (const template of TEMPLATE_TYPES) {
    for (const [deadMansSwitch, gracePeriod] of [
      [false, false],
      [true, false],
      [true, true],
    ] as const) {
      for (const guardians of [false, true]) {
        for (const jettons of [false, true]) out.push({ template, deadMansSwitch, gracePeriod, guardians, jettons });
      }
    }
  }
  return out;
}

interface ShapeBuild {
  source: string;
  compiled: CompiledFunc;
}

/** Compile once per shape; the source of a shape never changes within a process. */
const shapeBuilds = new Map<string, Promise<ShapeBuild>>();

export function buildTonShape(shape: TonShape): Promise<ShapeBuild> {
  const key = shapeKey(shape);
  let p = shapeBuilds.get(key);
  if (!p) {
    const source = tonContractSource(shape);
    p = compileFuncCached(source, { persist: true }).then((compiled) => ({ source, compiled }));
    p.catch(() => shapeBuilds.delete(key));
    shapeBuilds.set(key, p);
  }
  return p;
}

function feeSummary(fees: Record<string, bigint>, rent: TonRentFigures): string {
  const order = ['deployment', 'checkIn', 'update', 'claim'];
  const parts = order.filter((k) => fees[k] !== undefined).map((k) => `${k} ${ton(fees[k]!)} TON`);
  return `${parts.join(', ')} (${METHOD}); ${rentSummary(rent)}`;
}

/** Storage rent in words: per year, over the interval and grace period, and the reserve that pays it. */
export function rentSummary(r: TonRentFigures): string {
  return (
    `storage rent ${ton(r.perYear)} TON per year, ${ton(r.overInterval)} TON over the interval and grace period, ` +
    `paid from a ${ton(r.reserve)} TON reserve kept out of the estate (worst-case state ${r.cells} cells, ${r.bits} bits; ${r.prices.source})`
  );
}

/** The storage-rent figures of estimate_gas. */
function rentOutput(r: TonRentFigures) {
  return {
    perYear: ton(r.perYear),
    overIntervalAndGrace: ton(r.overInterval),
    reserve: ton(r.reserve),
    reserveLastsDays: r.reserveLastsDays,
    stateCells: r.cells,
    stateBits: r.bits,
    bitPricePer65536s: r.prices.bitPricePs.toString(),
    cellPricePer65536s: r.prices.cellPricePs.toString(),
    pricesSource: r.prices.source,
    currency: 'TON',
  };
}

/**
 * Verified (code, initial data) pairs: the scenario is deterministic (fixed
 * start time, derived addresses), so an identical plan need not run again.
 */
const verified = new Map<string, ScenarioReport>();
const MAX_VERIFIED = 256;

async function verify(shape: TonShape, code: Cell, data: TonPlanData): Promise<ScenarioReport> {
  const key = `${code.hash().toString('hex')}:${buildInitialData(data).hash().toString('hex')}`;
  const hit = verified.get(key);
  if (hit) return hit;
  try {
    const report = await runTonScenario(shape, code, data);
    verified.set(key, report);
    if (verified.size > MAX_VERIFIED) verified.delete(verified.keys().next().value as string);
    return report;
  } catch (e) {
    if (e instanceof ScenarioError) {
      throw new ApiError(
        'INTERNAL_ERROR',
        `The generated TON contract failed its sandbox verification at step "${e.step}"; no contract was returned.`,
      );
    }
    throw e;
  }
}

async function parsePlanData(plan: Plan, code: Cell): Promise<TonPlanData> {
  const bad = [
    { field: 'ownerAddress', value: plan.ownerAddress },
    ...plan.beneficiaries.map((b, i) => ({ field: `beneficiaries.${i}.address`, value: b.address })),
    ...(plan.guardians?.addresses ?? []).map((a, i) => ({ field: `guardians.addresses.${i}`, value: a })),
  ].filter((x) => !isValidTonAddress(x.value));
  if (bad.length > 0) {
    throw ApiError.validation(
      'Invalid TON address in the plan',
      bad.map((x) => ({
        field: x.field,
        reason: 'not a TON address (raw 0:<64 hex> or 48-character user-friendly form with a valid checksum)',
      })),
    );
  }
  const rent = await rentReserveFor(code, tonPlanData(plan, { reserve: 0n, rate: 0n }));
  return tonPlanData(plan, rent);
}

/** The on-chain values of a plan, with its rent reserve computed for the shape's code (what generate uses). */
export async function tonPlanDataFor(plan: Plan): Promise<TonPlanData> {
  const { compiled } = await buildTonShape(shapeOf(plan));
  return parsePlanData(plan, compiled.code);
}

/**
 * Generates, compiles (once per shape) and verifies in the sandbox the TON
 * contract for a validated plan. Throws ApiError; never returns a contract
 * that did not pass the whole scenario.
 */
export async function generateTon(
  plan: Plan,
  onStage?: (stage: 'compile' | 'execute' | 'measure') => void,
): Promise<TonGenerated> {
  checkTonPlan(plan);
  const shape = shapeOf(plan);
  onStage?.('compile');
  const { source, compiled } = await buildTonShape(shape);
  const data = await parsePlanData(plan, compiled.code);
  onStage?.('execute');
  const report = await verify(shape, compiled.code, data);
  onStage?.('measure');
  const rent = await rentFigures(compiled.code, data);
  const init = tonStateInit(compiled.code, buildInitialData(data));
  return {
    contractCode: source,
    codeBoc: compiled.codeBoc,
    codeHash: compiled.codeHash,
    deployScript: tonDeployScript(compiled.codeBoc, data, compiled.codeHash),
    address: init.address,
    dataBoc: init.dataBoc,
    stateInitBoc: init.stateInitBoc,
    features: featuresOf(shape),
    fees: formatFees(report.fees),
    estimatedGas: feeSummary(report.fees, rent),
    network: TON_NETWORK,
    analysis: analyseTon(shape, data, rent),
  };
}

/** Compiles FunC source; compile errors become VALIDATION_ERROR with located details. */
export async function compileFunc(source: string): Promise<{ codeBoc: string; codeHash: string }> {
  const c = await compileFuncCached(source);
  return { codeBoc: c.codeBoc, codeHash: c.codeHash };
}

function sampleAddress(label: string): Address {
  return new Address(0, createHash('sha256').update(`svc-ton-sample:${label}`).digest());
}

/** A two-beneficiary plan of the given shape, for fee measurements without a plan. */
export async function sampleTonPlanData(shape: TonShape): Promise<TonPlanData> {
  const { compiled } = await buildTonShape(shape);
  const data: Omit<TonPlanData, 'rent'> = {
    owner: sampleAddress('owner'),
    beneficiaries: [
      { address: sampleAddress('b0'), shareBps: 6000 },
      { address: sampleAddress('b1'), shareBps: 4000 },
    ],
    intervalSeconds: shape.deadMansSwitch ? 365 * 86_400 : 0,
    graceSeconds: shape.gracePeriod ? 30 * 86_400 : 0,
    ...(shape.guardians
      ? { guardians: { addresses: [sampleAddress('g0'), sampleAddress('g1'), sampleAddress('g2')], threshold: 2 } }
      : {}),
    ...(shape.jettons ? { jettons: [sampleAddress('jetton0')] } : {}),
  };
  return { ...data, rent: await rentReserveFor(compiled.code, data) };
}

const REFERENCE_SHAPE: TonShape = {
  template: 'custom',
  deadMansSwitch: true,
  gracePeriod: false,
  guardians: false,
  jettons: false,
};
interface ShapeFees {
  fees: Record<string, bigint>;
  rent: TonRentFigures;
}
const shapeFees = new Map<string, Promise<ShapeFees>>();

function feesForShape(shape: TonShape): Promise<ShapeFees> {
  const key = shapeKey(shape);
  let p = shapeFees.get(key);
  if (!p) {
    p = buildTonShape(shape).then(async ({ compiled }) => {
      const data = await sampleTonPlanData(shape);
      return { fees: (await verify(shape, compiled.code, data)).fees, rent: await rentFigures(compiled.code, data) };
    });
    p.catch(() => shapeFees.delete(key));
    shapeFees.set(key, p);
  }
  return p;
}

let sourceIndex: Map<string, TonShape> | undefined;

/** The shape whose generated source is exactly `src`, if any. */
export function shapeOfSource(src: string): TonShape | undefined {
  sourceIndex ??= new Map(allTonShapes().map((s) => [tonContractSource(s), s]));
  return sourceIndex.get(src);
}

/** Deployment fee of arbitrary compiled code with empty data, measured in the sandbox. */
async function measureForeignDeployment(code: Cell): Promise<bigint> {
  const bc = await sandboxBlockchain();
  const data = new Cell();
  const to = tonAddressFor(code, data);
  const r = await bc.sendMessage(
    internal({
      from: sampleAddress('deployer'),
      to,
      value: toNano('1'),
      bounce: false,
      stateInit: { code, data },
      body: beginCell().storeUint(OP.deposit, 32).storeUint(0, 64).endCell(),
    }),
  );
  const tx = r.transactions.find((t) => t.inMessage?.info.dest instanceof Address && t.inMessage.info.dest.equals(to));
  return tx ? tx.totalFees.coins : 0n;
}

/** Fees in nanoton as numbers (a fee is far below 2^53 nanoton, about nine million TON). */
const nanotonOf = (deployment: bigint, claim: bigint, update: bigint) => ({
  deployment: Number(deployment),
  claim: Number(claim),
  update: Number(update),
});

/**
 * Fees of the TON contract, measured by running it. With the source of a
 * generated contract, that shape is run with a two-beneficiary sample plan;
 * other FunC source is compiled and its deployment measured, with claim and
 * update taken from the reference contract; without source, the reference
 * shape (custom template, dead man's switch) is measured.
 */
export async function estimateTonFees(input: { contractCode?: string }): Promise<{
  deployment: string;
  claim: string;
  update: string;
  currency: 'TON';
  method: string;
  storageRent: ReturnType<typeof rentOutput>;
  /** The same fees as raw figures, in nanoton (readers write them in their own conventions). */
  nanoton: { deployment: number; claim: number; update: number };
}> {
  const src = input.contractCode;
  if (src !== undefined && src.trim() !== '') {
    const shape = shapeOfSource(src);
    if (shape) {
      const { fees: f, rent } = await feesForShape(shape);
      return {
        deployment: ton(f.deployment!),
        claim: ton(f.claim!),
        update: ton(f.update!),
        currency: 'TON',
        nanoton: nanotonOf(f.deployment!, f.claim!, f.update!),
        method: `${METHOD}; generated shape ${shapeKey(shape)}, sample plan with 2 beneficiaries${shape.deadMansSwitch ? ', 365-day interval' : ''}${shape.gracePeriod ? ' and 30-day grace period' : ''}; ${rentSummary(rent)}`,
        storageRent: rentOutput(rent),
      };
    }
    const compiled = await compileFuncCached(src);
    const [deployment, ref] = await Promise.all([
      measureForeignDeployment(compiled.code),
      feesForShape(REFERENCE_SHAPE),
    ]);
    return {
      deployment: ton(deployment),
      claim: ton(ref.fees.claim!),
      update: ton(ref.fees.update!),
      currency: 'TON',
      nanoton: nanotonOf(deployment, ref.fees.claim!, ref.fees.update!),
      method: `deployment of the given code (empty data) ${METHOD}; claim, update and storage rent of the reference generated contract, as the given code is not one this service generates`,
      storageRent: rentOutput(ref.rent),
    };
  }
  const { fees: f, rent } = await feesForShape(REFERENCE_SHAPE);
  return {
    deployment: ton(f.deployment!),
    claim: ton(f.claim!),
    update: ton(f.update!),
    currency: 'TON',
    nanoton: nanotonOf(f.deployment!, f.claim!, f.update!),
    method: `${METHOD}; reference contract (custom template, dead man's switch, 365-day interval), 2 beneficiaries; ${rentSummary(rent)}`,
    storageRent: rentOutput(rent),
  };
}

/**
 * Shared by the TON deployment tests: generate a TON contract through the REST API, deploy its StateInit on the
 * sandbox behind the TON API stand-in, and send the owner's and heirs' messages the generated contract expects.
 */
import { Address, beginCell, Cell, contractAddress, loadStateInit, toNano } from '@ton/core';
import type { SandboxContract, TreasuryContract } from '@ton/sandbox';
import { PlanSchema } from '../../src/contracts/plan.js';
import { buildInitialData, tonPlanData } from '../../src/contracts/ton/data.js';
import { TON_OP } from '../../src/contracts/ton/index.js';
import type { TestServer } from '../helpers.js';
import type { TonApiStandin } from '../support/ton-api.js';

export interface TonGeneratedAnswer {
  id: string;
  compiled: { address: string; stateInit: string; codeHash: string; codeBoc: string; dataBoc: string };
}

export async function call(server: TestServer, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) {
  const res = await server.app.inject({
    method,
    url: `/api/v1${url}`,
    headers: { authorization: `Bearer ${server.adminKey}` },
    ...(payload ? { payload } : {}),
  });
  return { status: res.statusCode, body: res.json() };
}

export function tonPlan(
  owner: Address,
  heirs: Array<{ address: Address; percentage: number }>,
  extra: Record<string, unknown> = {},
) {
  return {
    blockchain: 'ton',
    ownerAddress: owner.toRawString(),
    beneficiaries: heirs.map((h, i) => ({
      name: `Heir ${i}`,
      address: h.address.toRawString(),
      percentage: h.percentage,
    })),
    deadMansSwitch: { enabled: true, intervalDays: 90, gracePeriodDays: 7 },
    ...extra,
  };
}

export async function generateTon(server: TestServer, plan: object): Promise<TonGeneratedAnswer> {
  const res = await call(server, 'POST', '/contracts/generate', plan);
  if (res.status !== 200) throw new Error(`generate answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body as TonGeneratedAnswer;
}

/** Sends the StateInit from `from` with `value` TON: the contract is deployed at the generated address. */
export async function deployTon(
  api: TonApiStandin,
  from: SandboxContract<TreasuryContract>,
  g: TonGeneratedAnswer,
  value = '10',
): Promise<Address> {
  const init = loadStateInit(Cell.fromBase64(g.compiled.stateInit).beginParse());
  const to = Address.parse(g.compiled.address);
  await from.send({
    to,
    value: toNano(value),
    bounce: false,
    init: { code: init.code!, data: init.data! },
    body: beginCell().storeUint(TON_OP.deposit, 32).storeUint(0, 64).endCell(),
  });
  api.bump();
  return to;
}

/** An owner or heir message to the contract: op, query id, then what `fill` writes. */
export async function sendOp(
  api: TonApiStandin,
  from: SandboxContract<TreasuryContract>,
  to: Address,
  op: number,
  fill?: (b: ReturnType<typeof beginCell>) => void,
) {
  const body = beginCell().storeUint(op, 32).storeUint(0, 64);
  fill?.(body);
  const r = await from.send({ to, value: toNano('0.1'), bounce: true, body: body.endCell() });
  api.bump();
  return r;
}

/**
 * Deploys the generated code with the initial data of another plan (as a tampered deployment would be): no second
 * generation (and sandbox run) is needed for a contract that differs only in its data.
 */
export async function deployVariant(
  api: TonApiStandin,
  from: SandboxContract<TreasuryContract>,
  g: TonGeneratedAnswer,
  plan: object,
): Promise<Address> {
  const code = Cell.fromBase64(g.compiled.codeBoc);
  const data = buildInitialData(tonPlanData(PlanSchema.parse(plan), { reserve: 10n ** 8n, rate: 1000n }));
  const to = contractAddress(0, { code, data });
  await from.send({
    to,
    value: toNano('10'),
    bounce: false,
    init: { code, data },
    body: beginCell().storeUint(TON_OP.deposit, 32).storeUint(0, 64).endCell(),
  });
  api.bump();
  return to;
}

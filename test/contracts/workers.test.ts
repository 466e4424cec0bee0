import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ContractEngine,
  generateContract,
  type GenerateInput,
  type GenerateStage,
} from '../../src/contracts/engine.js';
import { ApiError } from '../../src/core/errors.js';
import { startTestServer, type TestServer } from '../helpers.js';
import { ticker, until } from '../support/loop.js';

// Issue 14, point 1: no request holds the event loop. The CPU-heavy steps run in worker threads with time limits,
// bounded queues and caps checked before any parsing; pathological input is answered at once, enveloped.

const EVM_PLAN = {
  blockchain: 'evm',
  ownerAddress: '0x27b1fdb04752bbc536007a920d24acb045561c26',
  beneficiaries: [
    { name: 'A', address: '0x52908400098527886E0F7030069857D2E4169EE7', percentage: 60 },
    { name: 'B', address: '0x8617e340b3d01fa5f11f306f4090fd50e238070d', percentage: 40 },
  ],
  deadMansSwitch: { enabled: true, intervalDays: 180 },
};
const tonPlan = (intervalDays: number) => ({
  blockchain: 'ton',
  ownerAddress: '0:' + 'b'.repeat(64),
  beneficiaries: [
    { name: 'A', address: '0:' + 'a'.repeat(64), percentage: 70 },
    { name: 'B', address: '0:' + 'c'.repeat(64), percentage: 30 },
  ],
  deadMansSwitch: { enabled: true, intervalDays },
});
const SOLANA_PLAN = {
  blockchain: 'solana',
  ownerAddress: '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin',
  beneficiaries: [
    { name: 'A', address: 'So11111111111111111111111111111111111111112', percentage: 50 },
    { name: 'B', address: 'SysvarRent111111111111111111111111111111111', percentage: 50 },
  ],
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({});
});
afterAll(async () => {
  await server?.close();
});

/** Gives the server an engine with these options (the previous one is closed). */
async function useEngine(engine: ContractEngine): Promise<ContractEngine> {
  const old = server.services.contracts;
  server.services.contracts = engine;
  await old.close();
  return engine;
}

async function post(url: string, payload: object) {
  const res = await server.app.inject({
    method: 'POST',
    url,
    headers: { authorization: `Bearer ${server.adminKey}` },
    payload,
  });
  return {
    status: res.statusCode,
    headers: res.headers,
    body: res.json() as {
      error?: { code: string; message: string; details?: Array<{ field: string; reason: string }> };
    },
  };
}

const estimate = (payload: object) => post('/api/v1/contracts/estimate-gas', payload);
const generate = (payload: object) => post('/api/v1/contracts/generate', payload);

function deps(engine: ContractEngine, extra: { signal?: AbortSignal; onStage?: (s: GenerateStage) => void } = {}) {
  return {
    engine,
    store: server.services.store,
    clock: server.services.clock,
    log: server.services.log,
    jurisdictions: server.services.jurisdictions,
    ...extra,
  };
}

describe('pathological input is refused before any parsing, enveloped', () => {
  it('solana: "#[]" x 333,000 (the quadratic-regex input) is a 400 naming the per-chain limit; no worker starts', async () => {
    const engine = await useEngine(new ContractEngine());
    const t = ticker();
    const res = await estimate({ blockchain: 'solana', contractCode: '#[]'.repeat(333_000) });
    t.stop();
    expect(res.status).toBe(400);
    expect(res.body.error?.code).toBe('VALIDATION_ERROR');
    expect(JSON.stringify(res.body.error?.details)).toMatch(/contractCode.*at most 200000 characters for solana/);
    expect(engine.solana.workers).toBe(0);
  });

  it('solana: Vec< nested 20,000 deep is a 400 "nested too deeply" with its position', async () => {
    const engine = await useEngine(new ContractEngine());
    const res = await estimate({
      blockchain: 'solana',
      contractCode: `pub struct A { x: ${'Vec<'.repeat(20_000)}u8${'>'.repeat(20_000)} }`,
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', message: 'Rust source nested too deeply' });
    expect(res.body.error?.details?.[0]).toMatchObject({ field: 'contractCode', line: 1 });
    expect(engine.solana.workers).toBe(0);
  });

  it('ton: a FunC source over 200,000 characters, or nested too deeply, is a 400 before the compiler sees it', async () => {
    const engine = await useEngine(new ContractEngine());
    const huge = await estimate({
      blockchain: 'ton',
      contractCode: `() recv_internal() impure {\n${';; padding\n'.repeat(25_000)}}\n`,
    });
    expect(huge.status).toBe(400);
    expect(JSON.stringify(huge.body.error?.details)).toMatch(/at most 200000 characters for ton/);
    const deep = await estimate({
      blockchain: 'ton',
      contractCode: `int f() { return ${'('.repeat(5_000)}1${')'.repeat(5_000)}; }`,
    });
    expect(deep.status).toBe(400);
    expect(deep.body.error).toMatchObject({ code: 'VALIDATION_ERROR', message: 'FunC source nested too deeply' });
    expect(engine.ton.workers).toBe(0);
  });

  it("evm: the estimate_gas cap is the compiler's (512 KiB), not 2,000,000", async () => {
    await useEngine(new ContractEngine());
    const res = await estimate({ blockchain: 'evm', contractCode: '// x\n'.repeat(110_000) });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body.error?.details)).toMatch(/contractCode/);
  });
});

describe('jobs over their limits are stopped without holding the event loop', () => {
  it('ton: a generate over a tiny time limit answers 503 SERVICE_BUSY with Retry-After; the loop kept turning; the worker is gone', async () => {
    const engine = await useEngine(new ContractEngine({ ton: { timeoutMs: 30 } }));
    const t = ticker();
    const res = await generate(tonPlan(91));
    const ticks = t.stop();
    expect(res.status).toBe(503);
    expect(res.body.error?.code).toBe('SERVICE_BUSY');
    expect(res.body.error?.message).toMatch(/TON compile and sandbox run took longer than 30 ms and was stopped/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(ticks).toBeGreaterThan(10);
    expect(engine.ton.stats.timeouts).toBe(1);
    expect(engine.ton.workers).toBe(0);
  }, 60_000);

  it('the limit scales with the plan: 50 beneficiaries and 10 jettons get three times the pool limit', async () => {
    await useEngine(new ContractEngine({ ton: { timeoutMs: 30 } }));
    const hex = (i: number) => i.toString(16).padStart(64, '0');
    const large = {
      ...tonPlan(92),
      beneficiaries: Array.from({ length: 50 }, (_, i) => ({
        name: `B${i}`,
        address: `0:${hex(0xb00 + i)}`,
        percentage: 2,
      })),
      assets: Array.from({ length: 10 }, (_, i) => ({ type: 'jetton', address: `0:${hex(0x700 + i)}` })),
    };
    const res = await generate(large);
    expect(res.status).toBe(503);
    expect(res.body.error?.message).toMatch(/TON compile and sandbox run took longer than 90 ms and was stopped/);
  }, 60_000);

  it('ton: estimate of client FunC over a tiny time limit is a 400 "input too complex"', async () => {
    const engine = await useEngine(new ContractEngine({ ton: { timeoutMs: 30 } }));
    const res = await estimate({ blockchain: 'ton', contractCode: '() recv_internal() impure { }\n' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: expect.stringMatching(/^Input too complex: Compiling and running the FunC code took longer than 30 ms/),
    });
    expect(res.body.error?.details?.[0]?.field).toBe('contractCode');
    expect(engine.ton.workers).toBe(0);
  }, 60_000);

  it('evm: the execution check over a tiny time limit answers 503; the gas measurement of client code a 400', async () => {
    const engine = await useEngine(new ContractEngine({ evm: { timeoutMs: 20 } }));
    const t = ticker();
    const gen = await generate(EVM_PLAN);
    expect(t.stop()).toBeGreaterThan(10);
    expect(gen.status).toBe(503);
    expect(gen.body.error?.message).toMatch(/execution check of the EVM contract took longer than 20 ms/);
    // client code whose constructor spins until the gas cap: stopped, and the caller's code is named as the cause
    const spin =
      '// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;\ncontract Spin {\n    uint256 public n;\n    constructor() { while (true) { n++; } }\n}\n';
    const est = await estimate({ blockchain: 'evm', contractCode: spin });
    expect(est.status).toBe(400);
    expect(est.body.error?.message).toMatch(/^Input too complex: Executing the contract took longer than 20 ms/);
    expect(est.body.error?.details?.[0]?.field).toBe('contractCode');
    // without client code, the same stop is the service's load: 503
    const plain = await estimate({ blockchain: 'evm' });
    expect(plain.status).toBe(503);
    expect(plain.body.error?.code).toBe('SERVICE_BUSY');
    expect(engine.evm.workers).toBe(0);
  }, 60_000);

  it('a full queue answers 503 SERVICE_BUSY with Retry-After, enveloped', async () => {
    const engine = await useEngine(new ContractEngine({ ton: { maxQueue: 0 } }));
    const first = generate(tonPlan(92));
    await until(() => engine.ton.running === 1);
    const second = await generate(tonPlan(93));
    expect(second.status).toBe(503);
    expect(second.body.error?.code).toBe('SERVICE_BUSY');
    expect(second.body.error?.message).toMatch(/busy/);
    expect(Number(second.headers['retry-after'])).toBeGreaterThan(0);
    expect((await first).status).toBe(200);
  }, 60_000);
});

describe('abort', () => {
  it('removes a queued generate and terminates the worker running one (the worker count goes back down)', async () => {
    const engine = await useEngine(new ContractEngine());
    const a = new AbortController();
    const b = new AbortController();
    const stages: GenerateStage[] = [];
    const running = generateContract(
      tonPlan(94) as GenerateInput,
      'acct_test',
      deps(engine, { signal: a.signal, onStage: (s) => stages.push(s) }),
    );
    running.catch(() => undefined);
    const queued = generateContract(tonPlan(95) as GenerateInput, 'acct_test', deps(engine, { signal: b.signal }));
    queued.catch(() => undefined);
    await until(() => engine.ton.running === 1 && engine.ton.queued === 1);
    b.abort(new ApiError('VALIDATION_ERROR', 'queued one cancelled'));
    await expect(queued).rejects.toThrow('queued one cancelled');
    expect(engine.ton.queued).toBe(0);
    expect(engine.ton.workers).toBe(1);
    a.abort(new ApiError('VALIDATION_ERROR', 'running one cancelled'));
    await expect(running).rejects.toThrow('running one cancelled');
    expect(engine.ton.workers).toBe(0);
    expect(engine.ton.stats.aborted).toBe(2);
    expect(engine.ton.stats.completed).toBe(0);
  }, 60_000);
});

describe('onStage', () => {
  it('is called as each stage starts, in order, for every chain (solana has no execute stage)', async () => {
    const engine = await useEngine(new ContractEngine());
    const stagesOf = async (plan: object) => {
      const stages: GenerateStage[] = [];
      await generateContract(plan as GenerateInput, 'acct_test', deps(engine, { onStage: (s) => stages.push(s) }));
      return stages;
    };
    expect(await stagesOf(EVM_PLAN)).toEqual(['validate', 'law', 'compile', 'execute', 'measure']);
    expect(await stagesOf(tonPlan(96))).toEqual(['validate', 'law', 'compile', 'execute', 'measure']);
    expect(await stagesOf(SOLANA_PLAN)).toEqual(['validate', 'law', 'compile', 'measure']);
    // a plan refused by its law stops after 'law'
    const stages: GenerateStage[] = [];
    const refused = generateContract(
      {
        ...EVM_PLAN,
        inheritanceTemplate: 'islamic-mirth',
        beneficiaries: [
          { name: 'W', address: EVM_PLAN.beneficiaries[0]!.address, percentage: 50, relationship: 'wife' },
          { name: 'S', address: EVM_PLAN.beneficiaries[1]!.address, percentage: 50, relationship: 'son' },
        ],
      } as GenerateInput,
      'acct_test',
      deps(engine, { onStage: (s) => stages.push(s) }),
    );
    await expect(refused).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(stages).toEqual(['validate', 'law']);
  }, 120_000);
});

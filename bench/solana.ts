/**
 * Solana generator figures: printing the program from its model is the
 * baseline; parsing with tree-sitter, the full checks (parse + structure +
 * IDL), cold and cached generation and the estimate are given as ratios to it.
 */
import { performance } from 'node:perf_hooks';
import { buildIdl } from '../src/contracts/solana/idl.js';
import {
  buildProgramModel,
  checkAnchorProgram,
  clearSolanaCache,
  estimateSolana,
  generateSolana,
  rustParser,
  SOLANA_FEATURES,
  type SolanaShape,
} from '../src/contracts/solana/index.js';
import { printProgram } from '../src/contracts/solana/model.js';
import type { Plan } from '../src/contracts/plan.js';
import { TEMPLATE_TYPES } from '../src/law/templates.js';
import { fmt, isMain } from './util.js';

const SHAPES: SolanaShape[] = TEMPLATE_TYPES.flatMap((template) =>
  [0, 1, 2, 3, 4, 5, 6, 7].map((i) => ({
    template,
    deadMansSwitch: (i & 1) !== 0,
    multiSig: (i & 2) !== 0,
    splTokens: (i & 4) !== 0,
  })),
);

const KEY = 'So11111111111111111111111111111111111111112';
const KEYS = [
  '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
  'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  'Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB',
];

function planFor(s: SolanaShape): Plan {
  return {
    blockchain: 'solana',
    ownerAddress: KEY,
    inheritanceTemplate: s.template,
    beneficiaries: [
      { name: 'a', address: KEYS[0]!, percentage: 60 },
      { name: 'b', address: KEYS[1]!, percentage: 40 },
    ],
    ...(s.deadMansSwitch ? { deadMansSwitch: { enabled: true, intervalDays: 365, gracePeriodDays: 30 } } : {}),
    ...(s.multiSig ? { guardians: { addresses: [KEYS[2]!], threshold: 1 } } : {}),
    ...(s.splTokens ? { assets: [{ type: 'spl' as const, address: KEYS[1]! }] } : {}),
  };
}

async function perOp(rounds: number, fn: () => unknown | Promise<unknown>): Promise<number> {
  for (let i = 0; i < 3; i++) await fn();
  const t0 = performance.now();
  for (let i = 0; i < rounds; i++) await fn();
  return (performance.now() - t0) / rounds;
}

export async function benchSolana(): Promise<void> {
  const t0 = performance.now();
  await rustParser();
  const init = performance.now() - t0;
  const parser = await rustParser();
  const sources = SHAPES.map((s) => printProgram(buildProgramModel(s)));
  const idls = SHAPES.map((s) => buildIdl(buildProgramModel(s), 'bench'));
  const R = 3;
  let k = 0;
  const print = await perOp(R * SHAPES.length, () => printProgram(buildProgramModel(SHAPES[k++ % SHAPES.length]!)));
  k = 0;
  const parse = await perOp(R * SHAPES.length, () => parser.parse(sources[k++ % SHAPES.length]!)?.delete());
  k = 0;
  const check = await perOp(R * SHAPES.length, () => {
    const i = k++ % SHAPES.length;
    return checkAnchorProgram(sources[i]!, idls[i]);
  });
  k = 0;
  const cold = await perOp(SHAPES.length, () => {
    clearSolanaCache();
    return generateSolana(planFor(SHAPES[k++ % SHAPES.length]!));
  });
  k = 0;
  const warm = await perOp(10 * SHAPES.length, () => generateSolana(planFor(SHAPES[k++ % SHAPES.length]!)));
  const est = await perOp(200, () => estimateSolana({ contractCode: sources[SHAPES.length - 1], beneficiaries: 10 }));
  const lines = sources.map((s) => s.split('\n').length);
  console.log(
    `solana: ${SHAPES.length} shapes, ${Math.min(...lines)}-${Math.max(...lines)} lines of Rust; ${SOLANA_FEATURES.length} features`,
  );
  console.log(`  parser init (once)            ${fmt(init)} ms`);
  console.log(`  baseline: model + print       ${fmt(print, 3)} ms/program`);
  console.log(`  tree-sitter parse             ${fmt(parse, 3)} ms  (${fmt(parse / print, 1)}x baseline)`);
  console.log(`  checkAnchorProgram (+IDL)     ${fmt(check, 3)} ms  (${fmt(check / print, 1)}x baseline)`);
  console.log(`  generateSolana, cold shape    ${fmt(cold, 3)} ms  (${fmt(cold / print, 1)}x baseline)`);
  console.log(
    `  generateSolana, cached shape  ${fmt(warm, 3)} ms  (${fmt(warm / print, 1)}x baseline, ${fmt(cold / warm, 1)}x faster than cold)`,
  );
  console.log(`  estimateSolana (from source)  ${fmt(est, 3)} ms  (${fmt(est / print, 1)}x baseline)`);
}

if (isMain(import.meta.url)) await benchSolana();

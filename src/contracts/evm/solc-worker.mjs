// Task module of SolcPool's worker threads (run by src/core/worker-host.mjs):
// loads solc once (./solc-load.mjs: from a cache of its decoded WebAssembly when it can, or from the compiled module
// an earlier worker shared through the pool) and compiles Solidity sources posted by the main thread. Only
// `@openzeppelin/contracts/...` imports resolve.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { workerData } from 'node:worker_threads';
import { startSolc } from './solc-load.mjs';

const require = createRequire(import.meta.url);
const { solc, compiled, ...loaded } = startSolc(workerData?.shared);
const OZ_PREFIX = '@openzeppelin/contracts/';
const ozRoot = path.dirname(require.resolve('@openzeppelin/contracts/package.json'));
const MAIN = 'Contract.sol';

function findImports(importPath) {
  if (!importPath.startsWith(OZ_PREFIX)) {
    return { error: `import "${importPath}" is not allowed: only ${OZ_PREFIX}... imports resolve` };
  }
  const full = path.resolve(ozRoot, importPath.slice(OZ_PREFIX.length));
  if (!full.startsWith(ozRoot + path.sep) || !full.endsWith('.sol')) {
    return { error: `import "${importPath}" is outside ${OZ_PREFIX}` };
  }
  try {
    return { contents: readFileSync(full, 'utf8') };
  } catch {
    return { error: `import "${importPath}" does not exist in the installed ${OZ_PREFIX}` };
  }
}

function lineStarts(text) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

/** Byte offset (solc reports UTF-8 byte offsets) to 1-based line and column. */
function locate(source, starts, byteOffset) {
  const prefix = Buffer.from(source, 'utf8').subarray(0, byteOffset).toString('utf8');
  const charOffset = prefix.length;
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= charOffset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: charOffset - starts[lo] + 1 };
}

function compile(msg) {
  const { source, settings, contractName, wantAst } = msg;
  const input = {
    language: 'Solidity',
    sources: { [MAIN]: { content: source } },
    settings: {
      optimizer: { enabled: true, runs: settings.optimizerRuns },
      evmVersion: settings.evmVersion,
      metadata: { bytecodeHash: settings.bytecodeHash },
      outputSelection: { [MAIN]: { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'], '': ['ast'] } },
    },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input), { import: findImports }));
  let starts;
  const messages = (out.errors ?? []).map((e) => {
    const m = {
      severity: e.severity === 'error' ? 'error' : e.severity === 'warning' ? 'warning' : 'info',
      message: e.message,
      type: e.type,
      formatted: e.formattedMessage,
    };
    const loc = e.sourceLocation;
    if (loc?.file === MAIN && loc.start >= 0) {
      starts ??= lineStarts(source);
      Object.assign(m, locate(source, starts, loc.start));
    } else if (loc?.file) {
      m.file = loc.file;
    }
    return m;
  });
  if (messages.some((m) => m.severity === 'error')) return { ok: false, messages };
  const contracts = out.contracts?.[MAIN] ?? {};
  const ast = out.sources?.[MAIN]?.ast;
  const defs = (ast?.nodes ?? []).filter((n) => n.nodeType === 'ContractDefinition');
  let chosen;
  if (contractName) {
    chosen = Object.hasOwn(contracts, contractName) ? contractName : undefined;
    if (!chosen) return { ok: false, notFound: contractName, available: Object.keys(contracts), messages };
  } else {
    const deployable = defs.filter(
      (d) => d.contractKind === 'contract' && !d.abstract && contracts[d.name]?.evm?.bytecode?.object,
    );
    chosen = deployable.length > 0 ? deployable[deployable.length - 1].name : undefined;
    if (!chosen) return { ok: false, noContract: true, available: Object.keys(contracts), messages };
  }
  const c = contracts[chosen];
  return {
    ok: true,
    messages,
    contractName: chosen,
    abi: c.abi,
    bytecode: `0x${c.evm.bytecode.object}`,
    deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
    ast: wantAst ? ast : undefined,
  };
}

/**
 * For the workers the pool starts after this one (see worker-host.mjs, which asks only a worker that was handed
 * nothing): solc compiled, and how it was loaded.
 */
export function shared() {
  return compiled ? { compiled, loaded } : undefined;
}

export const tasks = {
  /** The result as JSON text (one string crosses threads faster than the AST as objects). */
  compile: (msg) => {
    let result;
    try {
      result = compile(msg);
    } catch (err) {
      result = { ok: false, crashed: String(err?.message ? err.message : err) };
    }
    return JSON.stringify(result);
  },
  version: () => solc.version(),
  /** How this worker loaded solc: see LoadedSolc in ./solc-load.mjs. */
  loaded: () => loaded,
};

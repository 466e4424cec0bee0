import { Common, type Hardfork, Mainnet } from '@ethereumjs/common';
import { createBlock, type Block } from '@ethereumjs/block';
import { createEVM, type EVM } from '@ethereumjs/evm';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createAccount, createAddressFromString, hexToBytes, bytesToHex, type Address } from '@ethereumjs/util';
import type { Abi, Hex } from 'viem';
// viem's utilities alone: its main entry loads twice the modules (clients, actions, chains), in every thread that runs this.
import { decodeErrorResult, decodeFunctionResult, encodeFunctionData } from 'viem/utils';
import { VM_HARDFORK } from './hardfork.js';

/** Hardfork whose gas rules the figures follow (named in ./hardfork.ts for threads that do not load the VM). */
const FORK = VM_HARDFORK as Hardfork;
/** The per-transaction gas cap of Osaka (EIP-7825). */
export const TX_GAS_LIMIT = 16_777_216n;

export interface TxResult {
  ok: boolean;
  /** Gas the transaction would use on chain: intrinsic + execution − capped refund, at least the EIP-7623 floor. */
  gasUsed: number;
  returnData: Hex;
  /** Decoded custom error name when the call reverted with one of the ABI's errors. */
  revert?: string;
  error?: string;
  createdAddress?: Hex;
  logs: number;
  /** The emitted logs (empty when the call reverted). */
  events: Array<{ address: Hex; topics: Hex[]; data: Hex }>;
}

/**
 * An in-process EVM (ethereumjs, in-memory state) that executes calls as if
 * they were transactions from any address: each call starts with a fresh
 * warm-access set, the sender and target warm, and reports gas the way a
 * transaction receipt would (intrinsic gas and refunds added by hand, since
 * the sender's key is not known and nothing is signed).
 */
export class EvmSandbox {
  private constructor(
    readonly evm: EVM,
    readonly common: Common,
  ) {}

  /** Block timestamp used for the next call (seconds). */
  timestamp = 1_700_000_000n;
  private readonly number = 1n;

  static async create(): Promise<EvmSandbox> {
    jumpCacheInstalled ??= installJumpAnalysisCache();
    await jumpCacheInstalled;
    sharedCommon ??= new Common({ chain: Mainnet, hardfork: FORK });
    const evm = await createEVM({ common: sharedCommon });
    return new EvmSandbox(evm, sharedCommon);
  }

  warp(seconds: bigint | number): void {
    this.timestamp += BigInt(seconds);
  }

  private cachedBlock: Block | undefined;

  private block(): Block {
    if (this.cachedBlock && this.cachedBlock.header.timestamp === this.timestamp) return this.cachedBlock;
    return (this.cachedBlock = createBlock(
      { header: { timestamp: this.timestamp, number: this.number, gasLimit: 60_000_000n, baseFeePerGas: 0n } },
      { common: this.common },
    ));
  }

  async setBalance(address: Hex, wei: bigint): Promise<void> {
    const a = createAddressFromString(address);
    const sm = this.evm.stateManager;
    const acc = (await sm.getAccount(a)) ?? createAccount({});
    acc.balance = wei;
    await sm.putAccount(a, acc);
  }

  async balanceOf(address: Hex): Promise<bigint> {
    const acc = await this.evm.stateManager.getAccount(createAddressFromString(address));
    return acc?.balance ?? 0n;
  }

  async putCode(address: Hex, runtime: Hex): Promise<void> {
    const a = createAddressFromString(address);
    const sm = this.evm.stateManager;
    if (!(await sm.getAccount(a))) await sm.putAccount(a, createAccount({ nonce: 1n }));
    await sm.putCode(a, hexToBytes(runtime));
  }

  async codeSize(address: Hex): Promise<number> {
    return (await this.evm.stateManager.getCode(createAddressFromString(address))).length;
  }

  /** Runs a transaction-like call (`to` undefined: contract creation). */
  async send(from: Hex, to: Hex | undefined, data: Hex, value = 0n, abi?: Abi): Promise<TxResult> {
    const evm = this.evm;
    const caller = createAddressFromString(from);
    const target: Address | undefined = to ? createAddressFromString(to) : undefined;
    const bytes = hexToBytes(data);
    const intrinsic = intrinsicGas(bytes, target === undefined);
    if (value > 0n && (await this.balanceOf(from)) < value) await this.setBalance(from, value);
    await evm.journal.cleanup();
    await evm.journal.checkpoint();
    for (const [addr] of evm.precompiles.entries()) evm.journal.addAlwaysWarmAddress(addr);
    evm.journal.addAlwaysWarmAddress(caller.toString().slice(2));
    if (target) evm.journal.addAlwaysWarmAddress(target.toString().slice(2));
    const block = this.block();
    evm.journal.addAlwaysWarmAddress(block.header.coinbase.toString().slice(2));
    let res;
    try {
      res = await evm.runCall({
        caller,
        origin: caller,
        to: target,
        data: bytes,
        value,
        block,
        gasLimit: TX_GAS_LIMIT - intrinsic.standard,
        gasPrice: 0n,
      });
      await evm.journal.commit();
    } catch (e) {
      await evm.journal.revert();
      throw e;
    } finally {
      evm.journal.cleanJournal();
      evm.stateManager.originalStorageCache.clear();
    }
    const ex = res.execResult;
    const used = intrinsic.standard + ex.executionGasUsed;
    const refund = ex.exceptionError ? 0n : minBig(ex.gasRefund ?? 0n, used / 5n);
    const gasUsed = maxBig(used - refund, intrinsic.floor);
    const returnData = bytesToHex(ex.returnValue) as Hex;
    const events = (ex.logs ?? []).map(([address, topics, data]) => ({
      address: bytesToHex(address) as Hex,
      topics: topics.map((t) => bytesToHex(t) as Hex),
      data: bytesToHex(data) as Hex,
    }));
    const out: TxResult = { ok: !ex.exceptionError, gasUsed: Number(gasUsed), returnData, logs: events.length, events };
    if (ex.exceptionError) {
      out.error = ex.exceptionError.error;
      if (abi && returnData.length >= 10) {
        try {
          out.revert = decodeErrorResult({ abi, data: returnData }).errorName;
        } catch {
          // not one of the ABI's errors
        }
      }
    }
    if (res.createdAddress && out.ok) out.createdAddress = res.createdAddress.toString() as Hex;
    return out;
  }

  /** Calls a contract function as a transaction. */
  async tx(from: Hex, to: Hex, abi: Abi, functionName: string, args: unknown[] = [], value = 0n): Promise<TxResult> {
    const data = encodeFunctionData({ abi, functionName, args } as Parameters<typeof encodeFunctionData>[0]);
    return this.send(from, to, data, value, abi);
  }

  /** Reads a view function (state changes, if any, are discarded). */
  async read<T = unknown>(to: Hex, abi: Abi, functionName: string, args: unknown[] = []): Promise<T> {
    const data = encodeFunctionData({ abi, functionName, args } as Parameters<typeof encodeFunctionData>[0]);
    const evm = this.evm;
    await evm.journal.checkpoint();
    try {
      const res = await evm.runCall({
        to: createAddressFromString(to),
        data: hexToBytes(data),
        block: this.block(),
        gasLimit: TX_GAS_LIMIT,
        isStatic: true,
      });
      if (res.execResult.exceptionError)
        throw new Error(`read ${functionName} reverted: ${res.execResult.exceptionError.error}`);
      return decodeFunctionResult({ abi, functionName, data: bytesToHex(res.execResult.returnValue) } as Parameters<
        typeof decodeFunctionResult
      >[0]) as T;
    } finally {
      await evm.journal.revert();
      evm.journal.cleanJournal();
      evm.stateManager.originalStorageCache.clear();
    }
  }
}

let sharedCommon: Common | undefined;
let jumpCacheInstalled: Promise<void> | undefined;

type JumpAnalysis = (this: { common: object }, code: Uint8Array) => unknown;

/**
 * @ethereumjs/evm analyses a contract's code for valid jump destinations (and
 * decodes every PUSH) at the start of every call frame, though the result
 * depends only on the code and the hardfork rules: for a 12 KB contract called
 * some forty times per generation check, that is a large share of the time.
 * The result (read-only arrays) is memoized per rule set (Common) and code.
 * Should the internal method ever be missing or renamed, nothing is patched and
 * the VM simply runs the analysis itself.
 */
async function installJumpAnalysisCache(): Promise<void> {
  try {
    const cjsEntry = createRequire(import.meta.url).resolve('@ethereumjs/evm');
    const file = path.join(path.dirname(cjsEntry), '..', 'esm', 'interpreter.js');
    const mod = (await import(pathToFileURL(file).href)) as { Interpreter?: { prototype: Record<string, unknown> } };
    const proto = mod.Interpreter?.prototype;
    const original = proto?.['_getValidJumpDestinations'] as JumpAnalysis | undefined;
    if (!proto || typeof original !== 'function' || proto['__svcJumpCache'] === true) return;
    const caches = new WeakMap<object, Map<string, unknown>>();
    const memoized: JumpAnalysis = function (code) {
      let cache = caches.get(this.common);
      if (!cache) caches.set(this.common, (cache = new Map()));
      const key = Buffer.from(code.buffer, code.byteOffset, code.byteLength).toString('latin1');
      let hit = cache.get(key);
      if (hit === undefined) {
        hit = original.call(this, code);
        if (cache.size >= 64) cache.clear();
        cache.set(key, hit);
      }
      return hit;
    };
    proto['_getValidJumpDestinations'] = memoized;
    proto['__svcJumpCache'] = true;
  } catch {
    // Not installed: the VM analyses the code on every call, as it does by default.
  }
}

const minBig = (a: bigint, b: bigint) => (a < b ? a : b);
const maxBig = (a: bigint, b: bigint) => (a > b ? a : b);

/** Intrinsic gas of a transaction (Osaka rules) and the EIP-7623 calldata floor. */
export function intrinsicGas(data: Uint8Array, create: boolean): { standard: bigint; floor: bigint } {
  // Counted as numbers (exact below 2^53), then converted once.
  let zeroCount = 0;
  for (let i = 0; i < data.length; i++) if (data[i] === 0) zeroCount++;
  const zeros = BigInt(zeroCount);
  const nonZeros = BigInt(data.length - zeroCount);
  let standard = 21_000n + zeros * 4n + nonZeros * 16n;
  if (create) standard += 32_000n + 2n * ((BigInt(data.length) + 31n) / 32n);
  const tokens = zeros + nonZeros * 4n;
  return { standard, floor: 21_000n + tokens * 10n };
}

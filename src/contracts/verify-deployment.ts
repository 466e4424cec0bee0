/**
 * Verification of an EVM deployment against its stored contract: the code at the address must be the runtime code
 * the stored creation code produces, and the constructor arguments (read from the creation transaction, or from the
 * contract's public views when no transaction is given) must equal the plan's. Each mismatch is named as a
 * `{field, expected, found}` difference so the owner sees what to fix.
 *
 * The expected runtime code is computed by the chain itself (`eth_call` of the creation data): that fills in the
 * immutables exactly as the real constructor did, and keeps the solc metadata hash, so no offsets are needed.
 */
import { type Abi, type AbiParameter, decodeAbiParameters, getAddress, type Hex } from 'viem';
import type { EvmReader } from '../chains/evm.js';
import { ApiError } from '../core/errors.js';
import type { DeploymentDifference } from './deployments.js';

/** Where an EIP-1967 proxy keeps its implementation (keccak256('eip1967.proxy.implementation') - 1). */
const EIP1967_SLOT = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc';
const EIP1167 = /^0x363d3d373d3d3d363d73([0-9a-f]{40})5af43d82803e903d91602b57fd5bf3$/i;

export interface EvmVerification {
  differences: DeploymentDifference[];
  txHash: string | null;
  blockNumber: number | null;
  deployer: string | null;
}

export interface EvmContract {
  abi: Abi;
  bytecode: Hex;
  deployData: Hex;
}

function ctorInputs(abi: Abi): readonly AbiParameter[] {
  const ctor = abi.find((e) => e.type === 'constructor');
  return ctor && 'inputs' in ctor ? ctor.inputs : [];
}

function argsOf(abi: Abi, bytecode: Hex, data: Hex): readonly unknown[] {
  const inputs = ctorInputs(abi);
  if (inputs.length === 0) return [];
  return decodeAbiParameters(inputs, `0x${data.slice(bytecode.length)}`);
}

function show(v: unknown): string {
  if (typeof v === 'string' && /^0x[0-9a-fA-F]{40}$/.test(v)) return getAddress(v);
  if (typeof v === 'bigint') return v.toString();
  return String(v);
}

/** Field name of a constructor parameter as the owner knows it: `beneficiaries_` → `beneficiaries`. */
const fieldName = (p: AbiParameter, i: number): string => (p.name ?? `arg${i}`).replace(/_+$/, '');

/** Names every element that differs between the plan's arguments and the chain's. */
export function compareArgs(
  inputs: readonly AbiParameter[],
  expected: readonly unknown[],
  found: readonly (unknown | undefined)[],
): DeploymentDifference[] {
  const out: DeploymentDifference[] = [];
  inputs.forEach((p, i) => {
    const field = fieldName(p, i);
    const e = expected[i];
    const f = found[i];
    if (f === undefined) return;
    if (Array.isArray(e) && Array.isArray(f)) {
      if (e.length !== f.length) out.push({ field: `${field}.length`, expected: `${e.length}`, found: `${f.length}` });
      for (let k = 0; k < Math.min(e.length, f.length); k++)
        if (show(e[k]) !== show(f[k])) out.push({ field: `${field}[${k}]`, expected: show(e[k]), found: show(f[k]) });
    } else if (show(e) !== show(f)) out.push({ field, expected: show(e), found: show(f) });
  });
  return out;
}

/** Walks the opcodes (skipping PUSH data) to see whether the code forwards calls with DELEGATECALL. */
function delegates(code: Hex): boolean {
  const bytes = code.slice(2);
  for (let i = 0; i < bytes.length; i += 2) {
    const op = Number.parseInt(bytes.slice(i, i + 2), 16);
    if (op === 0xf4) return true;
    if (op >= 0x60 && op <= 0x7f) i += (op - 0x5f) * 2;
  }
  return false;
}

/** A proxy in front of the real contract, named, or null. */
async function proxyIn(reader: EvmReader, address: Hex, code: Hex, own: Hex): Promise<string | null> {
  const clone = EIP1167.exec(code);
  if (clone) return `an EIP-1167 minimal proxy forwarding to ${getAddress(`0x${clone[1]}`)}`;
  const slot = await reader.getStorageAt(address, EIP1967_SLOT);
  if (slot && BigInt(slot === '0x' ? 0 : slot) !== 0n)
    return `an EIP-1967 proxy whose implementation is ${getAddress(`0x${slot.slice(-40)}`)}`;
  if (delegates(code) && !delegates(own)) return 'a proxy forwarding calls with DELEGATECALL';
  return null;
}

const codeDiff = (found: string): DeploymentDifference => ({
  field: 'code',
  expected: "the stored contract's runtime code",
  found,
});

/** A 400 about the given creation transaction, naming the field. */
const txError = (reason: string) => new ApiError('VALIDATION_ERROR', reason, [{ field: 'txHash', reason }]);

/** The creation transaction, checked to be one that created `address` directly. */
async function creation(reader: EvmReader, address: Hex, txHash: Hex) {
  const tx = await reader.getTransaction(txHash);
  if (!tx) throw txError(`No transaction ${txHash} on chain ${reader.chainId}.`);
  if (tx.to !== null)
    throw txError(
      `Transaction ${txHash} calls ${tx.to}; it is not a contract creation. Deployments through a factory or ` +
        'CREATE2 cannot be verified from their transaction: register without txHash to verify by public state.',
    );
  const receipt = await reader.getTransactionReceipt(txHash);
  if (!receipt && tx.blockNumber == null)
    throw txError(
      `Transaction ${txHash} is not mined yet: register again once it is, or leave txHash out to register the ` +
        'address now (it is checked again when registered again).',
    );
  const created = receipt?.contractAddress ? getAddress(receipt.contractAddress) : null;
  if (created !== getAddress(address))
    throw txError(`Transaction ${txHash} created ${created ?? 'nothing'}, not ${address}.`);
  return tx;
}

/** Reads the constructor arguments back from the contract's views that share their names. */
async function argsFromViews(reader: EvmReader, c: EvmContract, address: Hex): Promise<(unknown | undefined)[]> {
  const inputs = ctorInputs(c.abi);
  const found: (unknown | undefined)[] = inputs.map(() => undefined);
  for (const [i, p] of inputs.entries()) {
    if (found[i] !== undefined) continue;
    const view = c.abi.find(
      (e) =>
        e.type === 'function' && e.name === fieldName(p, i) && e.inputs.length === 0 && e.stateMutability === 'view',
    );
    if (view?.type !== 'function') continue;
    const value = await reader.readContract(address, [view], view.name).catch((err) => {
      if (err instanceof ApiError) throw err;
      return undefined;
    });
    if (value === undefined) continue;
    // A view answering several values (beneficiaries() → addresses, shares) fills the parameters that follow.
    const values = view.outputs.length > 1 ? (value as unknown[]) : [value];
    values.forEach((v, k) => {
      if (i + k < found.length) found[i + k] = v;
    });
  }
  return found;
}

export async function verifyEvmDeployment(
  reader: EvmReader,
  c: EvmContract,
  address: Hex,
  txHash: Hex | null,
): Promise<EvmVerification> {
  await reader.checkChainId();
  const code = await reader.getCode(address);
  const tx = txHash ? await creation(reader, address, txHash) : null;
  const base = {
    txHash,
    blockNumber: tx?.blockNumber != null ? Number(tx.blockNumber) : null,
    deployer: tx?.from ?? null,
  };
  if (code === '0x') return { ...base, differences: [codeDiff('no code at this address')] };
  const plan = argsOf(c.abi, c.bytecode, c.deployData);
  const planned = await reader.simulateCreation(c.deployData, null);
  const proxy = await proxyIn(reader, address, code, planned);
  if (proxy) return { ...base, differences: [codeDiff(proxy)] };
  if (tx) {
    if (!tx.input.toLowerCase().startsWith(c.bytecode.toLowerCase()))
      return { ...base, differences: [codeDiff('a creation transaction with other creation code')] };
    const differences = compareArgs(ctorInputs(c.abi), plan, argsOf(c.abi, c.bytecode, tx.input));
    const runtime = await reader.simulateCreation(tx.input, tx.from);
    if (runtime.toLowerCase() !== code.toLowerCase()) differences.push(codeDiff('other runtime code'));
    return { ...base, differences };
  }
  const differences = compareArgs(ctorInputs(c.abi), plan, await argsFromViews(reader, c, address));
  // Immutables are part of the runtime code, so a differing owner or interval also changes it (at the same length):
  // only a difference the views do not explain, or code of another length, is reported as other code.
  const other = planned.length !== code.length || differences.length === 0;
  if (planned.toLowerCase() !== code.toLowerCase() && other) differences.push(codeDiff('other runtime code'));
  return { ...base, differences };
}

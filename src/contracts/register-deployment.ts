/**
 * Registering, listing and reading deployments of stored contracts. The chain is read before the write (a store
 * transaction must not wait on the network); the bounds are checked again inside the write so two concurrent
 * registrations cannot both pass them.
 */
import type { Abi, Hex } from 'viem';
import { Address } from './ton/address.js';
import { evmReaderFor, networkFamily } from '../chains/readers.js';
import { tonReaderFor } from '../chains/ton-readers.js';
import type { TonNetwork } from '../chains/ton.js';
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import { ApiError } from '../core/errors.js';
import { evmAddressIssue, issueDetail } from '../core/messages/index.js';
import { newId } from '../core/ids.js';
import { recordEvent } from '../events/events.js';
import type { Store, Tx } from '../store/port.js';
import { DEFAULT_WARN_DAYS, DEPLOYMENTS, type DeploymentRecord } from './deployments.js';
import { CONTRACTS, type ContractRecord } from './stored.js';
import { checksumAddress } from './evm/checksum.js';

/**
 * Run inside the transaction that stores a verified deployment, with that transaction: what follows a verified
 * deployment (the plans it watches) changes in the same write. Registered by the watcher's domain, which this one
 * does not import.
 */
export type VerifiedListener = (tx: Tx, deployment: DeploymentRecord, clock: Clock) => Promise<void>;
const verifiedListeners = new Set<VerifiedListener>();

export function onVerifiedDeployment(listener: VerifiedListener): () => void {
  verifiedListeners.add(listener);
  return () => verifiedListeners.delete(listener);
}

/** At most this many deployments per contract: more is a mistake or abuse, never a real estate plan. */
export const MAX_DEPLOYMENTS_PER_CONTRACT = 20;

export interface RegisterInput {
  id: string;
  network: string | number;
  address: string;
  txHash?: string | undefined;
}

const bad = (field: string, reason: string) => new ApiError('VALIDATION_ERROR', reason, [{ field, reason }]);
const notFound = () => new ApiError('NOT_FOUND', 'No generated contract with this id in your account.');

function normalise(input: RegisterInput, chain: ContractRecord['chain']) {
  const network = String(input.network);
  const family = networkFamily(network);
  if (!family) throw bad('network', 'network is an EVM chain id (a number) or ton-mainnet / ton-testnet.');
  if (chain === 'solana')
    throw bad(
      'network',
      "Solana deployments cannot be verified by this service yet; the plan's verification uses the waiting period.",
    );
  if (family !== chain)
    throw bad('network', `This contract was generated for ${chain}; network ${network} is ${family}.`);
  let address = input.address.trim();
  if (family === 'evm') {
    if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw bad('address', 'address is not an EVM address (0x + 40 hex).');
    // Mixed case is an EIP-55 checksum: one that does not hold is a typo, not another spelling of the address.
    const issue = evmAddressIssue(address);
    if (issue) {
      const detail = issueDetail('address', issue);
      throw new ApiError('VALIDATION_ERROR', detail.reason, [detail]);
    }
    address = checksumAddress(address);
  } else address = tonAddress(address, network);
  if (family === 'ton' && input.txHash !== undefined)
    throw bad('txHash', 'A TON deployment is verified by its code and state; leave txHash out.');
  if (input.txHash !== undefined && input.txHash.trim() === '')
    throw bad('txHash', 'txHash, when given, is a transaction hash; leave it out to verify by public state.');
  const txHash = input.txHash?.trim() || null;
  if (txHash !== null && family === 'evm' && !/^0x[0-9a-fA-F]{64}$/.test(txHash))
    throw bad('txHash', 'txHash is a transaction hash (0x + 64 hex).');
  return { network, family, address, txHash };
}

/**
 * A TON address in one form: the user-friendly bounceable form the generator answers, so the same contract written
 * raw or friendly is one deployment (and links to the plans that name it either way).
 */
function tonAddress(text: string, network: string): string {
  const reason = 'address is not a TON address (raw 0:<64 hex> or user-friendly, 48 characters, valid checksum).';
  if (!/^(-1|0):[0-9a-fA-F]{64}$|^[A-Za-z0-9+/_-]{48}$/.test(text)) throw bad('address', reason);
  let parsed: Address;
  try {
    parsed = Address.parse(text);
  } catch {
    throw bad('address', reason);
  }
  // A user-friendly address says whether it is meant for testnet only: such an address on mainnet is a mix-up.
  if (network === 'ton-mainnet' && Address.isFriendly(text) && Address.parseFriendly(text).isTestOnly)
    throw bad('address', 'address is a testnet-only address; register it on ton-testnet.');
  return parsed.toString({ bounceable: true });
}

/**
 * Refuses a second registration of a verified place, or one more than the bound. Answers the contract's own earlier
 * registration of the same place when it was not verified (registered before its transaction was mined, say): that
 * one is checked again and replaced, rather than leaving the address taken by a failed check for good. An unverified
 * registration of the place under another contract is refused, naming it (delete it first).
 */
async function assertRoom(
  tx: Tx,
  ownerId: string,
  contractId: string,
  network: string,
  address: string,
): Promise<DeploymentRecord | undefined> {
  // Through the address's and the contract's indexes, not every deployment of the account: an account may hold
  // thousands, and each registration copied them all. `address` is in the one spelling registration stores. The
  // address's ids are the account's own (the account's view tells them from other accounts' registrations of the
  // same address without copying those), and only those few are read.
  const mine = (d: DeploymentRecord) => d.ownerId === ownerId;
  let same: DeploymentRecord | undefined;
  for (const id of await tx.idsBy(DEPLOYMENTS, 'address', address)) {
    const d = await tx.get<DeploymentRecord>(DEPLOYMENTS, id);
    if (d && mine(d) && d.network === network) same = d;
  }
  if (same && (same.status === 'verified' || same.contractId !== contractId))
    throw new ApiError('CONFLICT', `This deployment is already registered as ${same.id}.`, [
      {
        field: 'address',
        reason:
          same.contractId === contractId
            ? `already registered as ${same.id}`
            : `already registered as ${same.id} for contract ${same.contractId} (${same.status}); delete that registration first`,
      },
    ]);
  if (
    !same &&
    (await tx.findBy<DeploymentRecord>(DEPLOYMENTS, 'contractId', contractId)).filter(mine).length >=
      MAX_DEPLOYMENTS_PER_CONTRACT
  )
    throw new ApiError(
      'CONFLICT',
      `This contract already has ${MAX_DEPLOYMENTS_PER_CONTRACT} registered deployments, the most it may have.`,
    );
  return same;
}

async function readChain(config: Config, c: ContractRecord, network: string, address: string, txHash: string | null) {
  if (c.chain === 'ton') return readTon(config, c, network, address);
  const compiled = c.compiled as { abi: Abi; bytecode: Hex };
  const deployData = (c.deployData ?? (c.compiled as { deployData?: Hex }).deployData) as Hex | undefined;
  if (!deployData) throw bad('id', 'This contract has no creation data to verify against; generate it again.');
  const reader = await evmReaderFor(config, network);
  // Loaded on first use with the reader: viem stays out of a service that never verifies a deployment.
  const { verifyEvmDeployment } = await import('./verify-deployment.js');
  return verifyEvmDeployment(
    reader,
    { abi: compiled.abi, bytecode: compiled.bytecode, deployData },
    address as Hex,
    txHash as Hex | null,
  );
}

async function readTon(config: Config, c: ContractRecord, network: string, address: string) {
  const compiled = c.compiled as { codeHash?: unknown; address?: unknown };
  if (typeof compiled.codeHash !== 'string' || typeof compiled.address !== 'string')
    throw bad('id', 'This contract has no code hash or address to verify against; generate it again.');
  const reader = await tonReaderFor(config, network as TonNetwork);
  // Loaded on first use: @ton/core stays out of a service that never verifies a TON deployment.
  const { verifyTonDeployment } = await import('./verify-ton.js');
  return verifyTonDeployment(
    reader,
    { codeHash: compiled.codeHash, address: compiled.address },
    c.plan,
    Address.parse(address),
  );
}

export async function registerDeployment(
  store: Store,
  config: Config,
  clock: Clock,
  ownerId: string,
  input: RegisterInput,
  /** For a wizard's embed token: its session, which must be the one that generated the contract. */
  embedSession?: { id: string | undefined },
): Promise<DeploymentRecord> {
  const c = await store.get<ContractRecord>(CONTRACTS, input.id);
  if (!c) throw notFound();
  // An embed token reaches only the contract its own wizard session generated: the rest of the account is not there.
  if (embedSession && (!embedSession.id || c.embedSessionId !== embedSession.id)) throw notFound();
  const { network, address, txHash } = normalise(input, c.chain);
  await store.transact((tx) => assertRoom(tx, ownerId, c.id, network, address), { readOnly: true });
  const found = await readChain(config, c, network, address, txHash);
  const now = clock.now().toISOString();
  const verified = found.differences.length === 0;
  const fresh: DeploymentRecord = {
    id: newId('deployment'),
    ownerId,
    contractId: c.id,
    chain: c.chain,
    network,
    address,
    txHash: found.txHash,
    blockNumber: found.blockNumber,
    deployer: found.deployer && c.chain === 'evm' ? checksumAddress(found.deployer) : found.deployer,
    status: verified ? 'verified' : 'unverified',
    differences: found.differences,
    watch: verified
      ? { snapshot: null, warned: [], warnDays: [...DEFAULT_WARN_DAYS], emitted: [], paused: false }
      : null,
    createdAt: now,
    verifiedAt: verified ? now : null,
    updatedAt: now,
  };
  return store.transact(async (tx) => {
    const earlier = await assertRoom(tx, ownerId, c.id, network, address);
    // Checked again: the earlier unverified registration keeps its id and registration time.
    const record = earlier ? { ...fresh, id: earlier.id, createdAt: earlier.createdAt } : fresh;
    await tx.put(DEPLOYMENTS, record);
    await recordOutcome(tx, record, clock);
    if (verified) for (const listener of verifiedListeners) await listener(tx, record, clock);
    return record;
  });
}

async function recordOutcome(tx: Tx, r: DeploymentRecord, clock: Clock): Promise<void> {
  const base = { contractId: r.contractId, deploymentId: r.id, network: r.network, contractAddress: r.address };
  if (r.status === 'unverified') {
    await recordEvent(
      tx,
      { type: 'contract.error', ownerId: r.ownerId, data: { ...base, differences: r.differences } },
      clock,
    );
    return;
  }
  const data = { ...base, transactionHash: r.txHash, blockNumber: r.blockNumber, deployer: r.deployer };
  await recordEvent(tx, { type: 'contract.deployed', ownerId: r.ownerId, data }, clock);
  await recordEvent(tx, { type: 'contract.verified', ownerId: r.ownerId, data }, clock);
}

/**
 * The deployments of a contract, oldest first. A contract deleted from the service keeps its deployments (they stay on
 * chain, and watched): they are listed under its id still; an id with neither is a 404.
 */
export async function listDeployments(store: Store, contractId: string): Promise<DeploymentRecord[]> {
  const all = await store.findBy<DeploymentRecord>(DEPLOYMENTS, 'contractId', contractId);
  if (all.length === 0 && !(await store.get<ContractRecord>(CONTRACTS, contractId))) throw notFound();
  return all.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * Run inside the transaction that deletes a deployment, with the deleted record: what followed it (the memoir plans
 * it watched) is released in the same write. Registered by the watcher's domain, which this one does not import.
 */
export type DeletedListener = (tx: Tx, deployment: DeploymentRecord, clock: Clock) => Promise<number>;
const deletedListeners = new Set<DeletedListener>();

export function onDeletedDeployment(listener: DeletedListener): () => void {
  deletedListeners.add(listener);
  return () => deletedListeners.delete(listener);
}

/**
 * Deletes a registered deployment: the contract stays on chain, but the service no longer reads or watches it there
 * (no more warnings, and a switch firing there opens nothing here). The events already sent stay in the history.
 */
export async function deleteDeployment(
  store: Store,
  contractId: string,
  deploymentId: string,
  clock: Clock,
): Promise<{ deleted: true; id: string; plansUnwatched: number }> {
  return store.transact(async (tx) => {
    const d = await tx.get<DeploymentRecord>(DEPLOYMENTS, deploymentId);
    if (!d || d.contractId !== contractId)
      throw new ApiError('NOT_FOUND', 'No deployment with this id for this contract in your account.');
    await tx.delete(DEPLOYMENTS, d.id);
    let plansUnwatched = 0;
    for (const listener of deletedListeners) plansUnwatched += await listener(tx, d, clock);
    return { deleted: true as const, id: d.id, plansUnwatched };
  });
}

export async function getDeployment(store: Store, id: string): Promise<DeploymentRecord> {
  const r = await store.get<DeploymentRecord>(DEPLOYMENTS, id);
  if (!r) throw new ApiError('NOT_FOUND', 'No deployment with this id in your account.');
  return r;
}

/**
 * Generated contracts kept per account: each successful generation is stored as a `ctr_...` record holding the
 * plan, the chain, the source, the compilation output, the deployment data and the analysis, so the owner can fetch
 * it again (and, later, package and register its deployment) without generating it twice.
 *
 * The collection is account data (declared in src/accounts/tenancy.ts): handlers read it through the caller's
 * account view, so another account's record is simply not there (a 404).
 */
import { z } from 'zod';
import type { Clock } from '../core/clock.js';
import { ApiError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { type OffsetPageMeta, paginateOffset } from '../core/pagination.js';
import type { Store, Tx } from '../store/port.js';
import { DEPLOYMENTS, type DeploymentRecord } from './deployments.js';
import type { Plan } from './plan.js';

export const CONTRACTS = 'contracts';
/** Indexed fields of the collection (the account field, for listing). */
export const CONTRACT_INDEXES: Record<string, string[]> = { [CONTRACTS]: ['ownerId'] };

/** At most this many stored contracts per account: a generation beyond it is refused with a 409. */
export const MAX_CONTRACTS_PER_ACCOUNT = 500;

/** What a generation stores. */
export interface ContractFields {
  ownerId: string;
  chain: 'evm' | 'solana' | 'ton';
  plan: Plan;
  source: string;
  compiled: Record<string, unknown>;
  /** evm: creation data (bytecode + constructor arguments); absent for the other chains. */
  deployData?: string;
  /** The wizard session (embed token) that generated it, if one did: that session may register its deployment. */
  embedSessionId?: string;
  /** The analysis answered with the generation: score, warnings, suggestions. */
  advice: Record<string, unknown>;
}

/** A stored contract as kept in the store. */
export interface ContractRecord extends ContractFields {
  [field: string]: unknown;
  id: string;
  created: string;
}

export const StoredContractSummary = z
  .object({
    id: z.string().describe('Contract id (ctr_...).'),
    chain: z.enum(['evm', 'solana', 'ton']).describe('Chain family.'),
    template: z.string().describe('Inheritance template of the plan.'),
    beneficiaries: z.number().int().describe('Number of beneficiaries in the plan.'),
    created: z.string().describe('When it was generated (ISO 8601).'),
  })
  .describe('A stored contract, in a list.');

export const StoredContract = z
  .object({
    id: z.string().describe('Contract id (ctr_...).'),
    chain: z.enum(['evm', 'solana', 'ton']).describe('Chain family.'),
    plan: z.record(z.string(), z.unknown()).describe('The plan it was generated from, defaults applied.'),
    source: z.string().describe('Source: Solidity (evm), Rust/Anchor lib.rs (solana) or FunC (ton).'),
    compiled: z
      .record(z.string(), z.unknown())
      .describe('Compilation output (evm, ton) or build instructions and workspace (solana), as generated.'),
    deployData: z
      .string()
      .optional()
      .describe('evm: bytecode plus the ABI-encoded constructor arguments for this plan.'),
    advice: z.record(z.string(), z.unknown()).describe('The analysis: security score, warnings and suggestions.'),
    created: z.string().describe('When it was generated (ISO 8601).'),
  })
  .describe('A stored generated contract.');
export type StoredContract = z.infer<typeof StoredContract>;

function tooMany(): ApiError {
  return new ApiError(
    'CONFLICT',
    `This account already keeps ${MAX_CONTRACTS_PER_ACCOUNT} generated contracts, the most it may keep.`,
  );
}

/** Refuses early (before compiling) when the account already keeps the most contracts it may. */
export async function assertContractRoom(store: Store, ownerId: string): Promise<void> {
  const n = await store.transact((tx) => tx.idsBy(CONTRACTS, 'ownerId', ownerId), { readOnly: true });
  if (n.length >= MAX_CONTRACTS_PER_ACCOUNT) throw tooMany();
}

/** Stores a generated contract in `tx` (checking the bound again, inside the write) and answers its id. */
export async function saveContract(tx: Tx, fields: ContractFields, clock: Clock): Promise<string> {
  const ids = await tx.idsBy(CONTRACTS, 'ownerId', fields.ownerId);
  if (ids.length >= MAX_CONTRACTS_PER_ACCOUNT) throw tooMany();
  const record: ContractRecord = { ...fields, id: newId('contract'), created: clock.now().toISOString() };
  if (record.deployData === undefined) delete record.deployData;
  await tx.put(CONTRACTS, record);
  return record.id;
}

function view(r: ContractRecord): StoredContract {
  const out: StoredContract = {
    id: r.id,
    chain: r.chain,
    plan: r.plan as unknown as Record<string, unknown>,
    source: r.source,
    compiled: r.compiled,
    advice: r.advice,
    created: r.created,
  };
  if (r.deployData !== undefined) out.deployData = r.deployData;
  return out;
}

/**
 * A page of the account's stored contracts, oldest first (by id), as list entries. The page is chosen among the
 * account's contract ids and only its contracts are read: a contract record holds its source and compilation output,
 * and copying all of them (up to the bound) for each page took some 14 ms of the event loop at 500.
 */
export async function listContracts(
  store: Store,
  ownerId: string,
  page: number,
  limit: number,
): Promise<{ items: z.infer<typeof StoredContractSummary>[]; pagination: OffsetPageMeta }> {
  return store.transact(
    async (tx) => {
      const ids = (await tx.idsBy(CONTRACTS, 'ownerId', ownerId)).sort();
      const { items, pagination } = paginateOffset(ids, page, limit);
      const out: z.infer<typeof StoredContractSummary>[] = [];
      for (const id of items) {
        const r = await tx.get<ContractRecord>(CONTRACTS, id);
        if (r?.ownerId !== ownerId) continue;
        out.push({
          id: r.id,
          chain: r.chain,
          template: r.plan.inheritanceTemplate ?? '',
          beneficiaries: r.plan.beneficiaries.length,
          created: r.created,
        });
      }
      return { items: out, pagination };
    },
    { readOnly: true },
  );
}

/** One stored contract of the account, or 404 (another account's contract is not found either). */
export async function getStoredContract(store: Store, id: string): Promise<StoredContract> {
  const r = await store.get<ContractRecord>(CONTRACTS, id);
  if (!r) throw new ApiError('NOT_FOUND', 'No generated contract with this id in your account.');
  return view(r);
}

/** Deletes one stored contract of the account (frees room under the per-account bound), or 404. */
/**
 * Deletes the service's copy of a contract. What is deployed of it stays on chain, and its verified EVM deployments
 * stay watched: their record keeps the ABI the watcher reads the switch with, in the same transaction (without it,
 * a switch that fired later went unseen and the heirs' plans linked to it never opened).
 */
export async function deleteStoredContract(store: Store, id: string): Promise<{ id: string; deleted: true }> {
  return store.transact(async (tx) => {
    const contract = await tx.get<ContractRecord>(CONTRACTS, id);
    if (!contract) throw new ApiError('NOT_FOUND', 'No generated contract with this id in your account.');
    const abi = (contract.compiled as { abi?: unknown[] } | undefined)?.abi;
    if (Array.isArray(abi)) {
      for (const d of await tx.findBy<DeploymentRecord>(DEPLOYMENTS, 'contractId', id)) {
        if (d.chain === 'evm' && d.status === 'verified' && !d.abi) await tx.put(DEPLOYMENTS, { ...d, abi });
      }
    }
    await tx.delete(CONTRACTS, id);
    return { id, deleted: true as const };
  });
}

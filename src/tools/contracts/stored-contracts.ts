import { z } from 'zod';
import { offsetPageInput, OffsetPageMetaSchema } from '../../core/pagination.js';
import {
  deleteStoredContract,
  getStoredContract,
  listContracts,
  MAX_CONTRACTS_PER_ACCOUNT,
  StoredContract,
  StoredContractSummary,
} from '../../contracts/stored.js';
import { DELETE, defineTool, READ } from '../define.js';

const ContractId = z
  .string()
  .min(1)
  .max(64)
  .describe('Id of a generated contract (ctr_...), as answered by generate_contract.');

export const listContractsTool = defineTool({
  name: 'list_contracts',
  example: { page: 1, limit: 20 },
  title: 'List generated contracts',
  description:
    "Lists the contracts generate_contract stored for the caller's account (chain, template, number of beneficiaries, " +
    `creation time), oldest first, paged. An account keeps at most ${MAX_CONTRACTS_PER_ACCOUNT} contracts; ` +
    'generating one more answers 409 CONFLICT.',
  domain: 'contracts',
  scope: 'contracts:read',
  bucket: 'default',
  annotations: READ,
  input: z.strictObject({ ...offsetPageInput }).describe('Paging.'),
  output: z
    .object({
      items: z.array(StoredContractSummary).describe("The account's generated contracts, oldest first."),
      pagination: OffsetPageMetaSchema,
    })
    .describe('A page of generated contracts.'),
  rest: { method: 'GET', path: '/contracts', shape: 'list' },
  handler: (input, ctx) => listContracts(ctx.store, ctx.principal.ownerId, input.page, input.limit),
});

export const getContractTool = defineTool({
  name: 'get_contract',
  example: { id: 'ctr_01JD0000000000000000000000' },
  title: 'Read a generated contract',
  description:
    'Answers a contract generate_contract stored: its plan, chain, source, compilation output, deployment data (evm) ' +
    "and analysis. 404 NOT_FOUND for an unknown id or another account's contract.",
  domain: 'contracts',
  scope: 'contracts:read',
  bucket: 'default',
  annotations: READ,
  input: z.strictObject({ id: ContractId }).describe('Which contract.'),
  output: StoredContract,
  rest: { method: 'GET', path: '/contracts/:id', shape: 'data' },
  handler: (input, ctx) => getStoredContract(ctx.store, input.id),
});

export const deleteContractTool = defineTool({
  name: 'delete_contract',
  example: { id: 'ctr_01JD0000000000000000000000' },
  title: 'Delete a generated contract',
  description:
    'Deletes a contract generate_contract stored, which frees room under the per-account bound ' +
    `(${MAX_CONTRACTS_PER_ACCOUNT}). It deletes only the service's copy, never anything deployed on chain; a ` +
    'verified deployment of it stays watched. ' +
    "404 NOT_FOUND for an unknown id or another account's contract.",
  domain: 'contracts',
  scope: 'contracts',
  bucket: 'default',
  annotations: DELETE,
  input: z.strictObject({ id: ContractId }).describe('Which contract.'),
  output: z
    .object({
      id: z.string().describe('The deleted contract id.'),
      deleted: z.literal(true).describe('Always true.'),
    })
    .describe('What was deleted.'),
  rest: { method: 'DELETE', path: '/contracts/:id', shape: 'data' },
  handler: (input, ctx) => deleteStoredContract(ctx.store, input.id),
});

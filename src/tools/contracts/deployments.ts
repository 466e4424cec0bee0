import { z } from 'zod';
import { offsetPageInput, OffsetPageMetaSchema, paginateOffset } from '../../core/pagination.js';
import {
  getDeployment,
  listDeployments,
  MAX_DEPLOYMENTS_PER_CONTRACT,
  registerDeployment,
} from '../../contracts/register-deployment.js';
import { defineTool, OUTBOUND, READ } from '../define.js';

const ContractId = z
  .string()
  .min(1)
  .max(64)
  .describe('Id of a generated contract (ctr_...), as answered by generate_contract.');

const Difference = z
  .object({
    field: z.string().describe('What differs: code, owner, beneficiaries[1], shares[1], intervalDays, ...'),
    expected: z.string().describe('What the stored plan says.'),
    found: z.string().describe('What the chain holds.'),
  })
  .describe('One difference between the chain and the stored contract.');

export const Deployment = z
  .object({
    id: z.string().describe('Deployment id (dep_...).'),
    contractId: z.string().describe('The generated contract it deploys (ctr_...).'),
    chain: z.enum(['evm', 'ton', 'solana']).describe('Chain family.'),
    network: z.string().describe('EVM chain id as a decimal string, or ton-mainnet / ton-testnet.'),
    address: z.string().describe('Address of the deployed contract (checksummed on EVM).'),
    txHash: z.string().nullable().describe('Creation transaction, when given; null otherwise.'),
    blockNumber: z.number().int().nullable().describe('Block of the creation transaction; null without one.'),
    deployer: z.string().nullable().describe('Sender of the creation transaction; null without one.'),
    status: z
      .enum(['verified', 'unverified'])
      .describe('verified: code and arguments equal the stored contract; unverified: see differences.'),
    differences: z.array(Difference).describe('Every difference found; empty when verified.'),
    createdAt: z.string().describe('When it was registered (ISO 8601).'),
    verifiedAt: z.string().nullable().describe('When it was verified (ISO 8601); null when unverified.'),
  })
  .describe('A registered deployment and what the service found on chain.');

export const registerDeploymentTool = defineTool({
  name: 'register_deployment',
  example: {
    id: 'ctr_01JD0000000000000000000000',
    network: 31337,
    address: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  },
  title: 'Register and verify a deployment',
  description:
    'Registers where a generated contract was deployed and verifies it by reading the chain through the ' +
    "operator's endpoint: the code at the address must be the contract's runtime code and the constructor " +
    'arguments (from txHash, or from its public views) must equal the plan. A match is stored verified (sends ' +
    'contract.deployed and contract.verified) and followed by the watcher; a mismatch is stored unverified with ' +
    'each difference named (sends contract.error). 400 for a network without a configured endpoint (names the ' +
    `variable), another chain family or a bad address; 409 for a duplicate or more than ${MAX_DEPLOYMENTS_PER_CONTRACT} ` +
    'deployments per contract; 503 when the chain endpoint does not answer (nothing is stored).',
  domain: 'contracts',
  scope: 'contracts',
  bucket: 'default',
  // It reads a chain through the operator's endpoint: outside the service, and it stores a record.
  annotations: OUTBOUND,
  input: z
    .strictObject({
      id: ContractId,
      network: z
        .union([z.number().int().positive(), z.string().min(1).max(32)])
        .describe('EVM chain id (number), or ton-mainnet / ton-testnet.'),
      address: z.string().min(1).max(100).describe('Address of the deployed contract.'),
      txHash: z
        .string()
        .max(100)
        .optional()
        .describe('Creation transaction (EVM): its input must be the stored creation code plus the arguments.'),
    })
    .describe('Which contract, and where it was deployed.'),
  output: Deployment,
  rest: { method: 'POST', path: '/contracts/:id/deployments', shape: 'data' },
  handler: (input, ctx) => registerDeployment(ctx.store, ctx.config, ctx.clock, ctx.principal.ownerId, input),
});

export const listDeploymentsTool = defineTool({
  name: 'list_deployments',
  example: { id: 'ctr_01JD0000000000000000000000', page: 1, limit: 20 },
  title: "List a contract's deployments",
  description:
    'Lists the deployments registered for one generated contract, oldest first, paged, with their status and ' +
    "differences. 404 NOT_FOUND for an unknown id or another account's contract.",
  domain: 'contracts',
  scope: 'contracts:read',
  bucket: 'default',
  annotations: READ,
  input: z.strictObject({ id: ContractId, ...offsetPageInput }).describe('Which contract, and paging.'),
  output: z
    .object({
      items: z.array(Deployment).describe('The deployments, oldest first.'),
      pagination: OffsetPageMetaSchema,
    })
    .describe('A page of deployments.'),
  rest: { method: 'GET', path: '/contracts/:id/deployments', shape: 'list' },
  handler: async (input, ctx) => paginateOffset(await listDeployments(ctx.store, input.id), input.page, input.limit),
});

export const getDeploymentTool = defineTool({
  name: 'get_deployment',
  example: { id: 'dep_01JD0000000000000000000000' },
  title: 'Read a deployment',
  description:
    "Answers one registered deployment: network, address, status and differences. 404 NOT_FOUND for an unknown id or another account's deployment.",
  domain: 'contracts',
  scope: 'contracts:read',
  bucket: 'default',
  annotations: READ,
  input: z
    .strictObject({ id: z.string().min(1).max(64).describe('Deployment id (dep_...).') })
    .describe('Which deployment.'),
  output: Deployment,
  rest: { method: 'GET', path: '/deployments/:id', shape: 'data' },
  handler: (input, ctx) => getDeployment(ctx.store, input.id),
});

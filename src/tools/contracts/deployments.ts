import { z } from 'zod';
import { offsetPageInput, OffsetPageMetaSchema, paginateOffset } from '../../core/pagination.js';
import {
  deleteDeployment,
  getDeployment,
  listDeployments,
  MAX_DEPLOYMENTS_PER_CONTRACT,
  registerDeployment,
} from '../../contracts/register-deployment.js';
import { DEFAULT_WARN_DAYS, type DeploymentRecord } from '../../contracts/deployments.js';
import { DELETE, defineTool, OUTBOUND, READ } from '../define.js';

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
    watch: z
      .object({
        warnDays: z.array(z.number().int()).describe('Days before the deadline at which deadman.warning is sent.'),
        paused: z.boolean().describe('Whether the owner paused watching (nothing is read or sent meanwhile).'),
        snapshot: z
          .object({
            block: z.number().int().describe('The confirmed block the switch was last read at.'),
            blockTime: z.number().int().describe('Unix seconds of that block.'),
            lastCheckIn: z.number().int().describe('The last check-in the contract counts (unix seconds).'),
            intervalSeconds: z.number().int().describe('The check-in interval the contract holds (seconds).'),
            graceSeconds: z.number().int().describe('The grace period after the deadline (seconds; 0 without one).'),
            triggered: z.boolean().describe('Whether the contract is released (claimable) on chain.'),
            cancelled: z
              .boolean()
              .optional()
              .describe(
                'Whether the owner cancelled the contract (final: never released); absent when read before the watcher read it.',
              ),
            claimed: z
              .record(z.string(), z.string())
              .describe('What each beneficiary has claimed so far (address to decimal string of the smallest unit).'),
            balance: z.string().describe('Native balance held (decimal string of the smallest unit).'),
          })
          .nullable()
          .describe("The switch as the watcher last read it; null before the watcher's first read."),
      })
      .nullable()
      .describe('What the chain watcher follows of a verified deployment; null when it is not watched (unverified).'),
    createdAt: z.string().describe('When it was registered (ISO 8601).'),
    verifiedAt: z.string().nullable().describe('When it was verified (ISO 8601); null when unverified.'),
  })
  .describe('A registered deployment and what the service found on chain.');

/** A deployment as its owner sees it: the watcher's bookkeeping (once-keys) stays inside. */
export function deploymentView(d: DeploymentRecord): z.infer<typeof Deployment> {
  const { watch, ...rest } = d;
  return {
    ...(rest as Omit<z.infer<typeof Deployment>, 'watch'>),
    watch: watch
      ? { warnDays: watch.warnDays ?? [...DEFAULT_WARN_DAYS], paused: watch.paused ?? false, snapshot: watch.snapshot }
      : null,
  };
}

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
    'deployments per contract; 503 when the chain endpoint does not answer (nothing is stored). Registering the ' +
    'same place again checks an unverified registration again (one made before its transaction was mined, say) ' +
    'and keeps its id; a verified one is a duplicate.',
  domain: 'contracts',
  scope: 'contracts',
  // The wizard registers the deployment it made; an embed token reaches only its own session's contract.
  principals: ['key', 'embed'],
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
  rest: { method: 'POST', path: '/contracts/:id/deployments', shape: 'data', extraStatuses: [409] },
  handler: async (input, ctx) =>
    deploymentView(
      await registerDeployment(
        ctx.store,
        ctx.config,
        ctx.clock,
        ctx.principal.ownerId,
        input,
        ctx.principal.kind === 'embed' ? { id: ctx.principal.embedSessionId } : undefined,
      ),
    ),
});

export const listDeploymentsTool = defineTool({
  name: 'list_deployments',
  example: { id: 'ctr_01JD0000000000000000000000', page: 1, limit: 20 },
  title: "List a contract's deployments",
  description:
    'Lists the deployments registered for one generated contract, oldest first, paged, with their status and ' +
    "differences (a deleted contract's too: they stay on chain). " +
    "404 NOT_FOUND for an unknown id or another account's contract.",
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
  handler: async (input, ctx) =>
    paginateOffset((await listDeployments(ctx.store, input.id)).map(deploymentView), input.page, input.limit),
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
  handler: async (input, ctx) => deploymentView(await getDeployment(ctx.store, input.id)),
});

export const deleteDeploymentTool = defineTool({
  name: 'delete_deployment',
  example: { id: 'ctr_01JD0000000000000000000000', deploymentId: 'dep_01JD0000000000000000000000' },
  title: 'Delete a registered deployment',
  description:
    'Deletes one registered deployment of a contract (a wrong network or address, a test deployment): the contract ' +
    'stays on chain, but the service no longer reads or watches it (no more warnings; a switch firing there opens ' +
    'nothing here). Memoir plans it watched are watched no more: reports and their waiting period apply to them ' +
    'again (plansUnwatched). Events already sent stay in the history. 404 NOT_FOUND for an unknown id or another ' +
    "account's deployment. To stop the warnings only, set warnDays to [] with update_deployment_watch instead (a " +
    'paused watch reads nothing, not even the trigger that opens the memoir plans it watches).',
  domain: 'contracts',
  scope: 'contracts',
  bucket: 'default',
  annotations: DELETE,
  input: z
    .strictObject({
      id: ContractId,
      deploymentId: z.string().min(1).max(64).describe('Id of its deployment (dep_...).'),
    })
    .describe('Which deployment.'),
  output: z
    .object({
      deleted: z.literal(true).describe('Always true.'),
      id: z.string().describe('The deleted deployment (dep_...).'),
      plansUnwatched: z
        .number()
        .int()
        .describe('Memoir plans this deployment watched, now followed by reports and their waiting period again.'),
    })
    .describe('What was deleted.'),
  rest: { method: 'DELETE', path: '/contracts/:id/deployments/:deploymentId', shape: 'data' },
  handler: (input, ctx) => deleteDeployment(ctx.store, input.id, input.deploymentId, ctx.clock),
});

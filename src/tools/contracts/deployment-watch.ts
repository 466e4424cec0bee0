import { z } from 'zod';
import { updateDeploymentWatch } from '../../contracts/deployment-watch.js';
import { WARN_DAYS_LIMITS } from '../../contracts/deployments.js';
import { defineTool, WRITE_IDEMPOTENT } from '../define.js';
import { Deployment, deploymentView } from './deployments.js';

const { count, min, max } = WARN_DAYS_LIMITS;

export const updateDeploymentWatchTool = defineTool({
  name: 'update_deployment_watch',
  example: { id: 'ctr_01JD0000000000000000000000', deploymentId: 'dep_01JD0000000000000000000000', warnDays: [30, 7] },
  title: "Set how a deployment's switch is watched",
  description:
    'Changes what the chain watcher does for one verified deployment: the lead times before the deadline at which ' +
    `deadman.warning is sent (warnDays: ${min} to ${max} days, at most ${count}, each once; [] sends none, but a ` +
    "guardians' proposed early release is still announced) and whether watching is paused (nothing is read or sent " +
    'while paused, so a switch firing then opens the memoir plans the deployment watches only once resumed; ' +
    'resuming reads the current state and sends only what was not sent). Takes effect at the next confirmed block. ' +
    '400 for a bad lead time; 404 ' +
    "NOT_FOUND for an unknown id or another account's deployment; 409 for an unverified deployment (not watched).",
  domain: 'contracts',
  scope: 'contracts',
  bucket: 'default',
  annotations: WRITE_IDEMPOTENT,
  input: z
    .strictObject({
      id: z.string().min(1).max(64).describe('Id of the generated contract (ctr_...).'),
      deploymentId: z.string().min(1).max(64).describe('Id of its deployment (dep_...).'),
      warnDays: z
        .array(z.number().int().min(min).max(max).describe('Days before the deadline.'))
        .max(count)
        .optional()
        .describe(`Lead times of deadman.warning, in days before the deadline (default [30, 7]).`),
      paused: z.boolean().optional().describe('Pause (true) or resume (false) watching this deployment.'),
    })
    .describe('Which deployment, and the settings to change (the others stay).'),
  output: Deployment,
  rest: { method: 'PATCH', path: '/contracts/:id/deployments/:deploymentId', shape: 'data', extraStatuses: [409] },
  handler: async (input, ctx) =>
    deploymentView(
      await updateDeploymentWatch(
        ctx.store,
        input.id,
        input.deploymentId,
        { warnDays: input.warnDays, paused: input.paused },
        ctx.clock,
      ),
    ),
});

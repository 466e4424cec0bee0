import { z } from 'zod';
import { getSetup, setSetup } from '../../memoir/memoir.js';
import { defineTool, READ, SESSION_ONLY, WRITE_IDEMPOTENT } from '../define.js';
import { AgentNameInput, memoirPath } from './schemas.js';

const SetupOutput = z
  .object({
    configured: z.boolean().describe('Whether the agent has been named.'),
    agentName: z.string().nullable().describe("The agent's name, or null before setup."),
    setupAt: z.string().nullable().describe('When the agent was first named (ISO 8601), or null.'),
  })
  .describe('Setup status.');

export const getMemoirSetupTool = defineTool({
  name: 'get_memoir_setup',
  example: {},
  title: 'Memoir setup status',
  description: "Whether the signed-in user's memoir agent has been set up, and its name. Session (REST) only.",
  domain: 'memoir',
  ...SESSION_ONLY,
  annotations: READ,
  input: z.strictObject({}).describe('No input.'),
  output: SetupOutput,
  rest: { method: 'GET', shape: 'data', ...memoirPath('/setup') },
  handler: (_input, ctx) => getSetup(ctx.store, ctx.principal.ownerId),
});

export const setMemoirSetupTool = defineTool({
  name: 'set_memoir_setup',
  example: { agentName: 'Grandpa Antonio' },
  title: 'Name the memoir agent',
  description: 'Sets or changes the name the memoir agent goes by. Needs the X-CSRF-Token header. Session (REST) only.',
  domain: 'memoir',
  ...SESSION_ONLY,
  annotations: WRITE_IDEMPOTENT,
  input: z.strictObject({ agentName: AgentNameInput }).describe('The name.'),
  output: SetupOutput,
  rest: { method: 'POST', shape: 'data', ...memoirPath('/setup') },
  handler: (input, ctx) => setSetup(ctx.store, ctx.principal.ownerId, input.agentName, ctx.clock),
});

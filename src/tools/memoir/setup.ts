import { z } from 'zod';
import { getSetup, setSetup } from '../../memoir/memoir.js';
import { MEMOIR_LIMITS } from '../../memoir/records.js';
import { defineTool, READ, SESSION_ONLY, WRITE_IDEMPOTENT } from '../define.js';
import { AgentNameInput, memoirPath } from './schemas.js';

const SetupOutput = z
  .object({
    configured: z.boolean().describe('Whether the agent has been named.'),
    agentName: z.string().nullable().describe("The agent's name, or null before setup."),
    personName: z
      .string()
      .nullable()
      .describe(
        "The person whose memoir it is, as their book is titled, or null (the book then takes the account's name).",
      ),
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
  example: { agentName: 'Grandpa Antonio', personName: 'Antonio Ricci' },
  title: 'Name the memoir agent',
  description:
    'Sets or changes the name the memoir agent goes by and, optionally, the name of the person whose memoir it is (the title of their book; ' +
    'null clears it, leaving it out keeps it). Needs the X-CSRF-Token header. Session (REST) only.',
  domain: 'memoir',
  ...SESSION_ONLY,
  annotations: WRITE_IDEMPOTENT,
  input: z
    .strictObject({
      agentName: AgentNameInput,
      personName: z
        .string()
        .min(1)
        .max(MEMOIR_LIMITS.agentName)
        .nullable()
        .optional()
        .describe(
          `The person's own name, 1 to ${MEMOIR_LIMITS.agentName} characters, for their book's title; null clears it.`,
        ),
    })
    .describe('The names.'),
  output: SetupOutput,
  rest: { method: 'POST', shape: 'data', ...memoirPath('/setup') },
  handler: (input, ctx) => setSetup(ctx.store, ctx.principal.ownerId, input.agentName, ctx.clock, input.personName),
});

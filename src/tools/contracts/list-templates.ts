import { z } from 'zod';
import { TEMPLATES, TEMPLATE_TYPES } from '../../contracts/templates.js';
import { defineTool } from '../define.js';

export const TemplateSchema = z
  .object({
    type: z.enum(TEMPLATE_TYPES).describe('Identifier to pass as `inheritanceTemplate` when generating a contract.'),
    name: z.string().describe('Human-readable name.'),
    description: z.string().describe('When to use the template and what the service checks for it.'),
  })
  .describe('An inheritance template (spec 2.2).');

export const listTemplates = defineTool({
  name: 'list_templates',
  example: {},
  title: 'List inheritance templates',
  description:
    'Lists the inheritance templates (common law, civil law, Islamic mirath, Islamic wasiyyah, custom) with what each means ' +
    'for the shares of a plan. Use the `type` as `inheritanceTemplate` when generating a contract.',
  domain: 'contracts',
  scope: 'contracts:read',
  // The contract wizard's token may call it too (src/embed/).
  principals: ['key', 'embed'],
  bucket: 'default',
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.strictObject({}).describe('No input.'),
  output: z
    .object({ templates: z.array(TemplateSchema).describe('Every supported template.') })
    .describe('The templates.'),
  rest: { method: 'GET', path: '/contracts/templates', shape: 'top-level' },
  // The output check hands callers a fresh copy, so the constants are returned as they are.
  handler: () => ({ templates: [...TEMPLATES] }),
});

import { z } from 'zod';
import { cataloguePageInput, OffsetPageMetaSchema, paginateOffset } from '../../core/pagination.js';
import { TEMPLATES, TEMPLATE_TYPES } from '../../law/templates.js';
import { defineTool, READ } from '../define.js';

export const TemplateSchema = z
  .object({
    type: z.enum(TEMPLATE_TYPES).describe('Identifier to pass as `inheritanceTemplate` when generating a contract.'),
    name: z.string().describe('Human-readable name.'),
    description: z.string().describe('When to use the template and what the service checks for it.'),
  })
  .describe('An inheritance template.');

export const listTemplates = defineTool({
  name: 'list_templates',
  example: {},
  title: 'List inheritance templates',
  description:
    'Lists the inheritance templates (common law, civil law, Islamic mirath, Islamic wasiyyah, custom) with what each means ' +
    'for the shares of a plan. Use the `type` as `inheritanceTemplate` when generating a contract.',
  domain: 'contracts',
  scope: 'contracts:read',
  principals: ['key', 'embed'],
  bucket: 'default',
  annotations: READ,
  input: z.strictObject({ ...cataloguePageInput }).describe('Paging (every template by default).'),
  output: z
    .object({
      templates: z.array(TemplateSchema).describe('The supported templates (of this page).'),
      pagination: OffsetPageMetaSchema,
    })
    .describe('The templates.'),
  // At the top level beside `success`, as the catalogue has always been answered; the pagination goes to meta.
  rest: { method: 'GET', path: '/contracts/templates', shape: 'top-level', metaFields: ['pagination'] },
  // The output check hands callers a fresh copy, so the constants are returned as they are.
  handler: (input) => {
    const page = paginateOffset(TEMPLATES, input.page, input.limit);
    return { templates: page.items, pagination: page.pagination };
  },
});

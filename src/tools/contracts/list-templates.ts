import { z } from 'zod';
import {
  cataloguePageInput,
  OffsetPageMetaSchema,
  paginateOffset,
  type OffsetPageMeta,
} from '../../core/pagination.js';
import { TEMPLATES, TEMPLATE_TYPES, type InheritanceTemplate } from '../../law/templates.js';
import { constantOutput } from '../constant.js';
import { defineTool, READ } from '../define.js';

/** Pages kept, by page and limit: the whole catalogue (the default) and whatever else is asked, up to a bound. */
const pages = new Map<string, { templates: InheritanceTemplate[]; pagination: OffsetPageMeta }>();
const MAX_KEPT_PAGES = 256;

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
  // Each page is made once and given as a constant output (../constant.ts): checked and serialised once.
  handler: (input) => {
    const id = `${input.page}:${input.limit}`;
    let answer = pages.get(id);
    if (!answer) {
      const page = paginateOffset(TEMPLATES, input.page, input.limit);
      answer = constantOutput({ templates: page.items, pagination: page.pagination });
      if (pages.size < MAX_KEPT_PAGES) pages.set(id, answer);
    }
    return answer;
  },
});

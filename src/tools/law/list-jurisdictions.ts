import { z } from 'zod';
import { offsetPageInput, OffsetPageMetaSchema, paginateOffset } from '../../core/pagination.js';
import { JurisdictionSummarySchema, LEGAL_SYSTEMS, REGIONS, summarizeJurisdiction } from '../../law/jurisdictions.js';
import { defineTool, READ } from '../define.js';

export const listJurisdictions = defineTool({
  name: 'list_jurisdictions',
  example: { region: 'europe', forcedHeirship: true, page: 1, limit: 5 },
  title: 'List supported jurisdictions',
  description:
    'Lists the jurisdictions svc knows (US states, UK nations, EU members and the Succession Regulation, Canadian provinces, Australian ' +
    'states, Singapore, the UAE with DIFC and ADGM, and major Islamic-law countries), filtered by region, legal system or forced heirship.',
  domain: 'inheritance',
  scope: 'contracts:read',
  principals: ['key', 'embed'],
  bucket: 'default',
  annotations: READ,
  input: z
    .strictObject({
      region: z.enum(REGIONS).optional().describe('Only this world region.'),
      legalSystem: z.enum(LEGAL_SYSTEMS).optional().describe('Only this legal tradition.'),
      forcedHeirship: z
        .boolean()
        .optional()
        .describe('Only jurisdictions with (true) or without (false) forced heirship.'),
      ...offsetPageInput,
    })
    .describe('Filters and paging.'),
  output: z
    .object({
      items: z.array(JurisdictionSummarySchema).describe('Jurisdictions on this page, by id.'),
      pagination: OffsetPageMetaSchema,
    })
    .describe('A page of jurisdictions.'),
  rest: { method: 'GET', path: '/jurisdictions', shape: 'list', aliases: ['/api/jurisdictions'] },
  handler: (input, ctx) =>
    paginateOffset(
      ctx.jurisdictions
        .list({ region: input.region, legalSystem: input.legalSystem, forcedHeirship: input.forcedHeirship })
        .map(summarizeJurisdiction),
      input.page,
      input.limit,
    ),
});

import { z } from 'zod';
import { defineTool, READ } from '../define.js';

export const SearchHitSchema = z
  .object({
    slug: z.string().describe('Page identifier; read it whole with get_doc or the resource svc://docs/{slug}.'),
    docTitle: z.string().describe('Title of the page.'),
    heading: z.string().describe('Heading of the matching section.'),
    snippet: z.string().describe('Text around the first match.'),
    link: z.string().describe('REST path of the page, with the section anchor.'),
    resource: z.string().describe('MCP resource URI of the page.'),
    score: z.number().describe('Relevance (higher is better).'),
  })
  .describe('A matching documentation section.');

export const searchDocs = defineTool({
  name: 'search_docs',
  example: { q: 'rotate a key', limit: 3 },
  title: 'Search the documentation',
  description:
    "Searches svc's own documentation (quick start, authentication, every tool, errors, limits, pagination, webhooks, templates, " +
    "jurisdictions, fara'id) and returns the best sections first, with a snippet and a link.",
  domain: 'docs',
  scope: 'contracts:read',
  bucket: 'default',
  annotations: READ,
  input: z
    .strictObject({
      q: z.string().trim().min(1).max(200).describe('The question or keywords, e.g. "how do I rotate a key".'),
      limit: z.number().int().min(1).max(20).default(5).describe('How many sections to return, 1 to 20.'),
    })
    .describe('A search.'),
  output: z
    .object({ results: z.array(SearchHitSchema).describe('Matching sections, best first.') })
    .describe('Search results.'),
  rest: { method: 'GET', path: '/docs/search', shape: 'data' },
  handler: (input, ctx) => ({ results: ctx.docs.search(input.q, input.limit) }),
});

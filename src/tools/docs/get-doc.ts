import { z } from 'zod';
import { ApiError } from '../../core/errors.js';
import { defineTool, READ } from '../define.js';

export const getDoc = defineTool({
  name: 'get_doc',
  example: { slug: 'authentication' },
  title: 'Read a documentation page',
  description: 'Returns one page of the documentation as Markdown, with its sections. Find slugs with search_docs.',
  domain: 'docs',
  scope: 'contracts:read',
  bucket: 'default',
  annotations: READ,
  input: z
    .strictObject({ slug: z.string().min(1).max(100).describe('Page identifier, e.g. "authentication".') })
    .describe('Which page.'),
  output: z
    .object({
      slug: z.string().describe('Page identifier.'),
      title: z.string().describe('Page title.'),
      markdown: z.string().describe('The page, as Markdown.'),
      sections: z
        .array(
          z
            .object({
              heading: z.string().describe('Section heading.'),
              anchor: z.string().describe('Anchor of the section.'),
            })
            .describe('A section.'),
        )
        .describe('The sections of the page.'),
    })
    .describe('A documentation page.'),
  rest: { method: 'GET', path: '/docs/:slug', shape: 'data' },
  handler: (input, ctx) => {
    const page = ctx.docs.pages.get(input.slug);
    if (!page) {
      const known = [...ctx.docs.pages.keys()].filter((s) => !s.startsWith('tool-')).join(', ');
      throw new ApiError('NOT_FOUND', `No documentation page "${input.slug}"`, [
        { field: 'slug', reason: `known pages: ${known}` },
      ]);
    }
    return {
      slug: page.slug,
      title: page.title,
      markdown: page.markdown,
      sections: page.sections.map((s) => ({ heading: s.heading, anchor: s.anchor })),
    };
  },
});

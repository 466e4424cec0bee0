import { Readable } from 'node:stream';
import { z } from 'zod';
import { ACCOUNTS, type AccountRecord } from '../../accounts/records.js';
import { bookPdfStream } from '../../memoir/book-pdf.js';
import { type BookOptions, bookMarkdown, EXPORT_FORMATS, memoirBook } from '../../memoir/export.js';
import type { Store } from '../../store/port.js';
import {
  defineTool,
  type FileAnswer,
  type OpenApiFragment,
  READ,
  type RestDocs,
  SESSION_ONLY,
  type ToolContext,
} from '../define.js';
import { ShareId } from './heirs.js';
import { memoirPath } from './schemas.js';
import { granted } from './shared.js';

/**
 * The book as a file download. The PDF is a stream drawn as it is sent: any refusal comes before, in the envelope; a
 * failure while drawing destroys the stream and so cuts the download short (never a complete-looking broken file), and
 * a client going away destroys it too, which stops the drawing.
 */
function bookFile(output: Record<string, unknown>): FileAnswer {
  const out = output as { contentBase64?: string; stream?: Readable; contentType: string; fileName: string };
  return {
    contentType: out.contentType,
    headers: { 'Content-Disposition': `attachment; filename="${out.fileName}"`, 'Cache-Control': 'no-store' },
    body: out.stream ?? Buffer.from(out.contentBase64 ?? '', 'base64'),
  };
}

/** The OpenAPI parts of a book download: the format parameter (after `parameters`) and the file answer. */
function bookDocs(parameters: OpenApiFragment[], description: string): RestDocs {
  return {
    parameters: [
      ...parameters,
      {
        in: 'query',
        name: 'format',
        required: false,
        description: '"md" (Markdown, the default) or "pdf".',
        schema: { type: 'string', enum: ['md', 'pdf'], default: 'md' },
        example: 'md',
      },
    ],
    success: {
      description,
      headers: {
        'Content-Disposition': {
          description: 'attachment; filename="memoir-<YYYY-MM-DD>.md" (or .pdf).',
          schema: { type: 'string', maxLength: 100 },
        },
        'Cache-Control': {
          description: 'no-store: the book holds personal data.',
          schema: { type: 'string', enum: ['no-store'] },
        },
      },
      content: {
        'text/markdown; charset=utf-8': {
          schema: {
            type: 'string',
            description:
              'Markdown: the contents, then chapters by time of life and by theme, with photo captions and recording transcripts.',
          },
        },
        'application/pdf': {
          schema: {
            type: 'string',
            format: 'binary',
            description:
              'PDF: a title page, the contents with page numbers, and the same chapters, with the photos drawn inline (scaled down).',
          },
        },
      },
    },
  };
}

export const exportMemoirTool = defineTool({
  name: 'export_memoir',
  example: { format: 'md' },
  title: 'The memoir as a book',
  description:
    "The memoir as a book, titled with the person's name (set_memoir_setup personName, else the account's name): a title page, the contents, " +
    'then chapters by time of life (entries dated by when they happened, by decade) and by theme (undated entries and questionnaire answers), ' +
    'photos inline with their captions and recordings with their transcripts; no record ids and no upload dates. The PDF draws every script with ' +
    'bundled Noto fonts. Answered as a file download (Content-Disposition: attachment); the PDF is streamed. Session (REST) only.',
  domain: 'memoir',
  ...SESSION_ONLY,
  annotations: READ,
  input: z
    .strictObject({ format: z.enum(EXPORT_FORMATS).default('md').describe('"md" (Markdown) or "pdf".') })
    .describe('The format.'),
  output: z
    .object({
      contentBase64: z.string().optional().describe('The Markdown file (format "md").'),
      stream: z
        .custom<Readable>((v) => v instanceof Readable, 'a readable stream')
        .optional()
        .describe(
          'The PDF (format "pdf"), produced as it is read: the route sends it as the body; it is never serialised.',
        ),
      contentType: z.enum(['text/markdown; charset=utf-8', 'application/pdf']).describe('Its media type.'),
      fileName: z.string().describe('A file name for it.'),
    })
    .describe('The book.'),
  rest: {
    method: 'GET',
    shape: 'data',
    ...memoirPath('/export'),
    file: bookFile,
    docs: bookDocs([], 'The book, as a file download.'),
  },
  handler: async (input, ctx) => {
    const account = await ctx.store.get<AccountRecord>(ACCOUNTS, ctx.principal.ownerId);
    return bookAnswer(ctx.store, ctx.principal.ownerId, input.format, ctx, { fallbackName: account?.name });
  },
});

/** The book of one account's memoir in the format asked for (the PDF as a stream drawn as it is read). */
async function bookAnswer(
  store: Store,
  ownerId: string,
  format: (typeof EXPORT_FORMATS)[number],
  ctx: ToolContext,
  opts: BookOptions,
) {
  const book = await memoirBook(store, ownerId, ctx.config.dataDir, ctx.clock.now(), opts);
  const date = book.generatedAt.slice(0, 10);
  if (format === 'pdf') {
    return {
      stream: await bookPdfStream(book),
      contentType: 'application/pdf' as const,
      fileName: `memoir-${date}.pdf`,
    };
  }
  return {
    contentBase64: Buffer.from(bookMarkdown(book), 'utf8').toString('base64'),
    contentType: 'text/markdown; charset=utf-8' as const,
    fileName: `memoir-${date}.md`,
  };
}

/** The same book of a memoir whose share the signed-in user holds (heirs' access), while the share is open. */
export const exportSharedMemoirTool = defineTool({
  name: 'export_shared_memoir',
  example: { shareId: 'shr_01JD000000000000000000000B', format: 'md' },
  title: 'A shared memoir as a book',
  description:
    'The memoir of a share you hold, as a book (as export_memoir gives its owner, less what the owner kept private), while the share is open: 404 for a share you do not hold, ' +
    '403 SHARE_NOT_AVAILABLE while it is not open. Answered as a file download; the PDF is streamed. Session (REST) only.',
  domain: 'memoir',
  ...SESSION_ONLY,
  grant: 'read',
  annotations: READ,
  input: z
    .strictObject({
      shareId: ShareId,
      format: exportMemoirTool.input.shape.format,
    })
    .describe('The share and format.'),
  output: exportMemoirTool.output,
  rest: {
    method: 'GET',
    shape: 'data',
    ...memoirPath('/shared/:shareId/export'),
    extraStatuses: [404],
    file: bookFile,
    docs: bookDocs(
      [
        {
          in: 'path',
          name: 'shareId',
          required: true,
          description: 'A share you hold (shr_...), open now.',
          schema: { type: 'string', pattern: '^shr_[0-9A-HJKMNP-TV-Z]{26}$', minLength: 30, maxLength: 30 },
          example: 'shr_01JD000000000000000000000B',
        },
      ],
      'The shared memoir as a book, as a file download.',
    ),
  },
  handler: (input, ctx) =>
    bookAnswer(granted(ctx).store, granted(ctx).grantorId, input.format, ctx, { forHeirs: true }),
});

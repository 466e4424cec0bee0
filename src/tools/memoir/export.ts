import { Readable } from 'node:stream';
import { z } from 'zod';
import { bookMarkdown, bookPdfStream, EXPORT_FORMATS, memoirBook } from '../../memoir/export.js';
import type { Store } from '../../store/port.js';
import { defineTool, type ToolContext } from '../define.js';
import { ShareId } from './heirs.js';
import { memoirPath, READ, SESSION_ONLY } from './schemas.js';
import { granted } from './shared.js';

/**
 * Served by src/http/memoir-upload.ts as a file (text/markdown or application/pdf, as an attachment); not in TOOLS:
 * the PDF comes back as a stream that the route sends as the body (it is drawn as the client reads it).
 */
export const exportMemoirTool = defineTool({
  name: 'export_memoir',
  example: { format: 'md' },
  title: 'The memoir as a book',
  description:
    'The memoir as a book: journal entries grouped by theme and questionnaire answers by category, each with its date, and the photos ' +
    '(Markdown lists them by media id; the PDF embeds them, scaled down, and draws every script with bundled Noto fonts). ' +
    'Answered as a file download (Content-Disposition: attachment); the PDF is streamed. Session (REST) only.',
  ...SESSION_ONLY,
  annotations: READ,
  input: z.strictObject({ format: z.enum(EXPORT_FORMATS).default('md').describe('"md" (Markdown) or "pdf".') }).describe('The format.'),
  output: z
    .object({
      contentBase64: z.string().optional().describe('The Markdown file (format "md").'),
      stream: z
        .custom<Readable>((v) => v instanceof Readable, 'a readable stream')
        .optional()
        .describe('The PDF (format "pdf"), produced as it is read: the route sends it as the body; it is never serialised.'),
      contentType: z.enum(['text/markdown; charset=utf-8', 'application/pdf']).describe('Its media type.'),
      fileName: z.string().describe('A file name for it.'),
    })
    .describe('The book.'),
  rest: { method: 'GET', shape: 'data', ...memoirPath('/export') },
  handler: (input, ctx) => bookAnswer(ctx.store, ctx.principal.ownerId, input.format, ctx),
});

/** The book of one account's memoir in the format asked for (the PDF as a stream drawn as it is read). */
async function bookAnswer(store: Store, ownerId: string, format: (typeof EXPORT_FORMATS)[number], ctx: ToolContext) {
  const book = await memoirBook(store, ownerId, ctx.config.dataDir, ctx.clock.now());
  const date = book.generatedAt.slice(0, 10);
  if (format === 'pdf') {
    return { stream: await bookPdfStream(book), contentType: 'application/pdf' as const, fileName: `memoir-${date}.pdf` };
  }
  return { contentBase64: Buffer.from(bookMarkdown(book), 'utf8').toString('base64'), contentType: 'text/markdown; charset=utf-8' as const, fileName: `memoir-${date}.md` };
}

/** The same book of a memoir whose share the signed-in user holds (heirs' access), while the share is open. */
export const exportSharedMemoirTool = defineTool({
  name: 'export_shared_memoir',
  example: { shareId: 'shr_01JD000000000000000000000B', format: 'md' },
  title: 'A shared memoir as a book',
  description:
    'The memoir of a share you hold, as a book (the same as export_memoir gives its owner), while the share is open: 404 for a share you do not hold, ' +
    '403 SHARE_NOT_AVAILABLE while it is not open. Answered as a file download; the PDF is streamed. Session (REST) only.',
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
  rest: { method: 'GET', shape: 'data', ...memoirPath('/shared/:shareId/export') },
  handler: (input, ctx) => bookAnswer(granted(ctx).store, granted(ctx).grantorId, input.format, ctx),
});

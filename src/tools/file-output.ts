import { Readable } from 'node:stream';
import { z } from 'zod';

/**
 * The output of a tool answered as a file download (a RestMapping `file` route): the bytes as a stream the route
 * sends as the body, never serialised, with the media type, a file name and the size. `streamText` describes the
 * stream for the reader of the schema.
 */
export function fileDownloadOutput(streamText: string) {
  return z
    .object({
      stream: z.custom<Readable>((v) => v instanceof Readable, 'a readable stream').describe(streamText),
      contentType: z.string().describe('Its media type.'),
      fileName: z.string().describe('A file name for it.'),
      size: z.number().int().describe('Bytes.'),
    })
    .describe('The file.');
}

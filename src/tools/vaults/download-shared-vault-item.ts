import { Readable } from 'node:stream';
import { z } from 'zod';
import { fileDownloadOutput } from '../file-output.js';
import { readSharedItem } from '../../vaults/shared.js';
import { VAULT_LIMITS } from '../../vaults/vaults.js';
import { defineTool, type FileAnswer, READ } from '../define.js';
import { EXAMPLE_ITEM, EXAMPLE_SHARE, ItemId, ShareId } from './common.js';
import { granted, HEIR, HEIR_NOTE } from './shared.js';

const CHUNK = 64 * 1024;

/** A Content-Disposition for a file name of any script: an ASCII fallback and the UTF-8 name (RFC 6266). */
function disposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

function itemFile(output: Record<string, unknown>): FileAnswer {
  const out = output as { stream: Readable; contentType: string; fileName: string; size: number };
  return {
    contentType: out.contentType,
    headers: {
      'Content-Disposition': disposition(out.fileName),
      'Content-Length': out.size,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    },
    body: out.stream,
  };
}

export const downloadSharedVaultItemTool = defineTool({
  ...HEIR,
  mcp: false,
  name: 'download_shared_vault_item',
  title: 'Download a vault item left for you',
  description:
    'A vault item left for you as a file download, with the media type it was stored with (a letter as text/plain; a sealed item exactly as its owner encrypted it). ' +
    `Each download is recorded for the owner (vault.accessed). 404 for an item not open to you. REST only (MCP clients use get_shared_vault_item). ${HEIR_NOTE}`,
  annotations: READ,
  example: { shareId: EXAMPLE_SHARE, itemId: EXAMPLE_ITEM },
  input: z.strictObject({ shareId: ShareId, itemId: ItemId }).describe('The share and item.'),
  output: fileDownloadOutput('The content, sent as the body as it is read; never serialised.'),
  rest: {
    method: 'GET',
    path: '/vaults/shared/:shareId/items/:itemId/download',
    shape: 'data',
    extraStatuses: [404],
    file: itemFile,
    docs: {
      parameters: [
        {
          in: 'path',
          name: 'shareId',
          required: true,
          description: 'A share you hold (shr_...), open now.',
          schema: { type: 'string', pattern: '^shr_[0-9A-HJKMNP-TV-Z]{26}$', minLength: 30, maxLength: 30 },
          example: EXAMPLE_SHARE,
        },
        {
          in: 'path',
          name: 'itemId',
          required: true,
          description: 'The item (vit_...).',
          schema: { type: 'string', pattern: '^vit_[0-9A-HJKMNP-TV-Z]{26}$', minLength: 30, maxLength: 30 },
          example: EXAMPLE_ITEM,
        },
      ],
      success: {
        description: 'The item as a file, with the media type it was stored with.',
        headers: {
          'Content-Disposition': {
            description: 'attachment, with the file name (ASCII fallback and UTF-8).',
            schema: { type: 'string', maxLength: 1000 },
          },
          'Cache-Control': {
            description: 'no-store: the file is personal.',
            schema: { type: 'string', enum: ['no-store'] },
          },
        },
        content: {
          'text/plain; charset=utf-8': {
            schema: {
              type: 'string',
              maxLength: VAULT_LIMITS.text * 4,
              description: 'A letter or instructions (a text item), in UTF-8.',
            },
          },
          'application/pgp-encrypted': {
            schema: {
              type: 'string',
              format: 'binary',
              maxLength: VAULT_LIMITS.fileBytes,
              description: 'A sealed OpenPGP item, exactly as its owner encrypted it (open it with gpg --decrypt).',
            },
          },
          'application/octet-stream': {
            schema: {
              type: 'string',
              format: 'binary',
              maxLength: VAULT_LIMITS.fileBytes,
              description: 'A sealed age item (open it with age --decrypt), or a file of that type.',
            },
          },
          '*/*': {
            schema: {
              type: 'string',
              format: 'binary',
              maxLength: VAULT_LIMITS.fileBytes,
              description: 'A file, with the media type its owner gave it.',
            },
          },
        },
      },
    },
  },
  handler: async (input, ctx) => {
    const { item, content } = await readSharedItem(granted(ctx), ctx.keyring, ctx.clock.now(), input.itemId, {
      accountId: ctx.principal.ownerId,
      via: 'download',
    });
    const chunks = function* () {
      for (let at = 0; at < content.length; at += CHUNK) yield content.subarray(at, at + CHUNK);
    };
    return {
      stream: Readable.from(chunks(), { objectMode: false }),
      contentType: item.contentType,
      fileName: item.fileName ?? `${item.title.replace(/[^\p{L}\p{N} ._-]/gu, '_').slice(0, 100)}.txt`,
      size: item.size,
    };
  },
});

import { z } from 'zod';
import { fileDownloadOutput } from '../file-output.js';
import { openItem } from '../../vaults/vaults.js';
import { defineTool, READ } from '../define.js';
import {
  downloadOf,
  EXAMPLE_ITEM,
  EXAMPLE_VAULT,
  ItemId,
  ITEM_FILE_SUCCESS,
  itemFile,
  OWNER,
  VaultId,
  vaultDeps,
} from './common.js';

export const downloadVaultItemTool = defineTool({
  ...OWNER,
  scope: 'vaults:read',
  mcp: false,
  name: 'download_vault_item',
  title: 'Download a vault item',
  description:
    'One item of your vault as a file, streamed as it is decrypted, with the media type and file name it was stored with (a sealed item exactly as it was sealed). ' +
    'The way to read back a file too large for get_vault_item. 404 for a vault or item not in your account; 500 if the stored file was altered ' +
    '(nothing of it is sent). REST only. Keys need scope `vaults:read`.',
  annotations: READ,
  example: { vaultId: EXAMPLE_VAULT, itemId: EXAMPLE_ITEM },
  input: z.strictObject({ vaultId: VaultId, itemId: ItemId }).describe('The vault and item.'),
  output: fileDownloadOutput('The content, sent as the body as it is decrypted; never serialised.'),
  rest: {
    method: 'GET',
    path: '/vaults/:vaultId/files/:itemId',
    shape: 'data',
    extraStatuses: [404],
    file: itemFile,
    docs: {
      parameters: [
        {
          in: 'path',
          name: 'vaultId',
          required: true,
          description: 'The vault (vlt_...).',
          schema: { type: 'string', pattern: '^vlt_[0-9A-HJKMNP-TV-Z]{26}$', minLength: 30, maxLength: 30 },
          example: EXAMPLE_VAULT,
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
      success: ITEM_FILE_SUCCESS,
    },
  },
  handler: async (input, ctx) => {
    const { item, stream } = await openItem(vaultDeps(ctx), input.vaultId, input.itemId);
    return downloadOf(item, stream);
  },
});

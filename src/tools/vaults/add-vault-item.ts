import { z } from 'zod';
import { addItem, VAULT_LIMITS } from '../../vaults/vaults.js';
import { defineTool, WRITE } from '../define.js';
import {
  Base64,
  EXAMPLE_HEIR,
  EXAMPLE_VAULT,
  Heirs,
  ItemSummarySchema,
  OWNER,
  SealedFormatSchema,
  Text,
  Title,
  VaultId,
  vaultDeps,
} from './common.js';

const FileName = z.string().min(1).max(VAULT_LIMITS.fileName).describe('The file name heirs download it as.');

export const addVaultItemTool = defineTool({
  ...OWNER,
  scope: 'vaults',
  name: 'add_vault_item',
  title: 'Add an item to a vault',
  description:
    'Adds a letter or instructions (`text`), a file of any type (`file`), or a file the owner encrypted beforehand (`sealed`: age or OpenPGP, opened by the heir ' +
    'with the passphrase the owner gives them outside svc; svc never sees its content), for the heirs named by their addresses. Give exactly one of text, file and sealed. ' +
    `Files are at most ${VAULT_LIMITS.fileBytes} bytes here (larger ones: upload_vault_item over REST) and count in the account's storage quota (413 QUOTA_EXCEEDED). Everything is encrypted at rest. ` +
    `Once the vault is linked, heirs must be heirs of the plan (400). At most ${VAULT_LIMITS.itemsPerVault} items (409). Sends vault.updated. Keys need scope \`vaults\`.`,
  annotations: WRITE,
  example: {
    vaultId: EXAMPLE_VAULT,
    title: 'To Ana',
    text: 'Dear Ana, the deeds are in the blue folder.',
    heirs: [EXAMPLE_HEIR],
  },
  input: z
    .strictObject({
      vaultId: VaultId,
      title: Title,
      heirs: Heirs,
      text: Text.optional(),
      file: z
        .strictObject({
          contentBase64: Base64,
          contentType: z.string().min(3).max(127).describe('Its media type, e.g. application/pdf; kept for downloads.'),
          fileName: FileName,
        })
        .optional()
        .describe('A file svc encrypts.'),
      sealed: z
        .strictObject({
          contentBase64: Base64,
          format: SealedFormatSchema,
          fileName: FileName.optional(),
        })
        .optional()
        .describe('A file the owner encrypted (docs: vaults); stored and released byte for byte.'),
    })
    .describe('The item: a title, its heirs, and one of text, file and sealed.'),
  output: ItemSummarySchema,
  rest: { method: 'POST', path: '/vaults/:vaultId/items', shape: 'data', status: 201, extraStatuses: [409, 413] },
  handler: (input, ctx) => addItem(vaultDeps(ctx), input.vaultId, input),
});

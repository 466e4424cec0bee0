import { z } from 'zod';
import { quotaExceeded, releaseStorage, reserveStorage, shrinkReservation } from '../../accounts/quota.js';
import type { Principal } from '../../accounts/principal.js';
import { accountStore } from '../../accounts/tenancy.js';
import { ApiError } from '../../core/errors.js';
import { newId } from '../../core/ids.js';
import { DEFAULT_VAULT_UPLOAD_BYTES, discardStaged, newStagingId, stageEncrypted } from '../../vaults/files.js';
import { addUploadedItem, uploadTarget } from '../../vaults/upload.js';
import { looksSealed, notSealed, SEALED_FORMATS, type SealedFormat, VAULT_LIMITS } from '../../vaults/vaults.js';
import { defineTool, type ReceivedForm, type Services, WRITE } from '../define.js';
import {
  EXAMPLE_HEIR,
  EXAMPLE_ITEM,
  EXAMPLE_VAULT,
  Heirs,
  ItemId,
  ItemSummarySchema,
  OWNER,
  SealedFormatSchema,
  Title,
  VaultId,
  vaultDeps,
} from './common.js';

const uploadLimit = (services: Pick<Services, 'config'>) =>
  services.config.vaultUploadBytes ?? DEFAULT_VAULT_UPLOAD_BYTES;

const FIELDS = new Set(['title', 'heirs', 'contentType', 'format']);

/**
 * Reads an upload form. Before any byte of the file: the vault must be the caller's (404) with room for an item, and
 * room in the account's storage quota is reserved (the request's length bounds the file). The file is then
 * encrypted as it streams into the staging area. The staged file and the reservation are given back if anything
 * fails, here or later in the tool.
 */
async function readUpload(form: ReceivedForm, services: Services, principal: Principal) {
  const store = accountStore(services.store, principal.ownerId);
  const vaultId = form.params.vaultId ?? '';
  if (!VaultId.safeParse(vaultId).success)
    throw ApiError.validation('Invalid vault id', [{ field: 'vaultId', reason: 'a vault id (vlt_...)' }]);
  const { key } = await uploadTarget({ store, keyring: services.keyring }, vaultId);
  const limit = uploadLimit(services);
  const quota = { defaultLimit: services.config.storageQuotaBytes, now: services.clock.now() };
  const stagingId = newStagingId();
  const itemId = newId('vaultItem');
  let staged = false;
  let reserved = false;
  const giveBack = async () => {
    if (staged) await discardStaged(services.config.dataDir, stagingId);
    staged = false;
    // If the store cannot be reached now, the reservation lapses by itself.
    if (reserved)
      await releaseStorage(store, principal.ownerId, stagingId, quota).catch((err: unknown) =>
        services.log.warn({ err: (err as Error).name }, "could not release a vault upload's storage reservation"),
      );
    reserved = false;
  };
  try {
    const declared = form.declaredLength;
    // The declared length bounds the file but is not its size: it counts the form's boundaries and fields too. So it
    // only caps the reservation, which is what is left when that is less, and a file that fits the room left exactly
    // is stored; one past it is refused as it streams, at the first byte over.
    const { bytes: room, before } = await reserveStorage(
      store,
      principal.ownerId,
      stagingId,
      { bytes: Math.min(declared ?? limit, limit), atLeast: 1 },
      quota,
    );
    reserved = true;
    const fields: Record<string, string[]> = {};
    let fileName: string | null = null;
    let size: number | undefined;
    let head: Buffer = Buffer.alloc(0);
    for await (const part of form.parts) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file' || size !== undefined) {
          part.file.resume();
          throw ApiError.validation('Exactly one file, in the field "file".', [
            { field: part.fieldname, reason: 'unexpected file field' },
          ]);
        }
        fileName = part.filename || null;
        staged = true;
        size = await stageEncrypted(
          services.config.dataDir,
          part.file,
          key,
          { vaultId, itemId },
          {
            stagingId,
            limit,
            cap: { bytes: room, refuse: (n) => quotaExceeded(before, n) },
            onHead: (bytes) => {
              head = bytes;
            },
          },
        );
      } else {
        (fields[part.fieldname] ??= []).push(part.value);
      }
    }
    if (size === undefined) throw ApiError.validation('No file was sent.', [{ field: 'file', reason: 'required' }]);
    // The room the file did not take is free for other uploads at once.
    if (size < room) await shrinkReservation(store, principal.ownerId, stagingId, size, quota);
    const unknown = Object.keys(fields).filter((f) => !FIELDS.has(f));
    const repeated = ['title', 'contentType', 'format'].filter((f) => (fields[f]?.length ?? 0) > 1);
    if (unknown.length || repeated.length)
      throw ApiError.validation('Unknown or repeated form fields.', [
        ...unknown.map((field) => ({ field, reason: 'unknown field' })),
        ...repeated.map((field) => ({ field, reason: 'give it once' })),
      ]);
    // A sealed file must begin as its format does (the field may come after the file in the form).
    const format = fields.format?.[0];
    if (format !== undefined && (SEALED_FORMATS as readonly string[]).includes(format))
      if (!looksSealed(format as SealedFormat, head)) throw notSealed(format as SealedFormat, 'file');
    const input = {
      vaultId,
      itemId,
      stagingId,
      title: fields.title?.[0] ?? '',
      heirs: fields.heirs ?? [],
      format: fields.format?.[0] ?? null,
      contentType: fields.contentType?.[0] ?? null,
      fileName,
      size,
    };
    return {
      input,
      settle: async (done: boolean) => {
        // A recorded item owns its file and its room; a refused one gives both back.
        if (done) staged = reserved = false;
        else await giveBack();
      },
    };
  } catch (err) {
    await giveBack();
    throw err;
  }
}

const formSchema = {
  type: 'object',
  properties: {
    file: {
      type: 'string',
      format: 'binary',
      maxLength: DEFAULT_VAULT_UPLOAD_BYTES,
      description:
        'The file (one), with its file name: at most SVC_VAULT_MAX_FILE bytes (default 25 MiB). Encrypted as it arrives; never stored readable.',
    },
    title: { type: 'string', minLength: 1, maxLength: VAULT_LIMITS.title, description: 'The title.' },
    heirs: {
      type: 'array',
      items: { type: 'string', minLength: 1, maxLength: VAULT_LIMITS.address, description: 'An address.' },
      minItems: 1,
      maxItems: VAULT_LIMITS.heirsPerItem,
      description: 'Who the item is for: one `heirs` field per beneficiary address.',
    },
    contentType: {
      type: 'string',
      minLength: 3,
      maxLength: 127,
      description: 'The media type heirs download it with (default application/octet-stream); not for sealed files.',
    },
    format: {
      type: 'string',
      enum: [...SEALED_FORMATS],
      description: 'Only for a file the owner encrypted beforehand: `age` or `openpgp` (the item is then sealed).',
    },
  },
  required: ['file', 'title', 'heirs'],
  additionalProperties: false,
  description: 'The upload form.',
};

export const uploadVaultItemTool = defineTool({
  ...OWNER,
  scope: 'vaults',
  mcp: false,
  name: 'upload_vault_item',
  title: 'Upload a file to a vault',
  description:
    'multipart/form-data with `file` (any file, or with `format` a file the owner encrypted beforehand: age or OpenPGP), `title`, one `heirs` field per ' +
    'beneficiary address, and optionally `contentType`. For files too large for add_vault_item: up to SVC_VAULT_MAX_FILE bytes (default 25 MiB; 413 past it). ' +
    'The file is encrypted in chunks as it streams in and is never held whole in memory; it counts in the storage quota (413 QUOTA_EXCEEDED, checked ' +
    'before anything is stored). A refused upload leaves nothing stored. 404 for a vault not in your account. Sends vault.updated. ' +
    'REST only (MCP clients use add_vault_item). Keys need scope `vaults`; sessions send the X-CSRF-Token header.',
  annotations: WRITE,
  // The input as the route makes it from the form; clients send the form (rest.docs shows it).
  example: {
    vaultId: EXAMPLE_VAULT,
    itemId: EXAMPLE_ITEM,
    stagingId: '0123456789abcdef0123456789abcdef',
    title: 'House deeds',
    heirs: [EXAMPLE_HEIR],
    format: null,
    contentType: 'application/pdf',
    fileName: 'deeds.pdf',
    size: 2_400_000,
  },
  input: z
    .strictObject({
      vaultId: VaultId,
      itemId: ItemId,
      stagingId: z
        .string()
        .regex(/^[0-9a-f]{32}$/)
        .describe('The staged, encrypted upload.'),
      title: Title,
      heirs: Heirs,
      format: SealedFormatSchema.nullable().describe('For a sealed file, its format; null for a file svc encrypts.'),
      contentType: z.string().min(3).max(127).nullable().describe('Its media type, or null for the default.'),
      fileName: z.string().max(VAULT_LIMITS.fileName).nullable().describe('The file name it was sent with.'),
      size: z.number().int().min(1).describe('Bytes of the file as sent.'),
    })
    .describe('A staged upload and its form fields.'),
  output: ItemSummarySchema,
  rest: {
    method: 'POST',
    path: '/vaults/:vaultId/items/upload',
    shape: 'data',
    status: 201,
    extraStatuses: [409, 415],
    multipart: {
      limits: (config) => ({
        fileSize: config.vaultUploadBytes ?? DEFAULT_VAULT_UPLOAD_BYTES,
        files: 1,
        fields: VAULT_LIMITS.heirsPerItem + 3,
        fieldSize: 1024,
        parts: VAULT_LIMITS.heirsPerItem + 4,
      }),
      read: readUpload,
    },
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
      ],
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: formSchema,
            // A file's bytes cannot be shown in JSON: the example stands for them (send the file itself).
            example: { file: '<the bytes of deeds.pdf>', title: 'House deeds', heirs: [EXAMPLE_HEIR] },
            encoding: { file: { contentType: '*/*' }, heirs: { style: 'form', explode: true } },
          },
        },
      },
      success: {
        description: 'Success envelope.',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              properties: {
                success: { type: 'boolean', enum: [true], description: 'Always true on success.' },
                data: { $ref: '#/components/schemas/VaultItem' },
                meta: { $ref: '#/components/schemas/Meta' },
              },
              required: ['success', 'data', 'meta'],
              additionalProperties: false,
              description: 'The new item, without its content.',
            },
          },
        },
      },
    },
  },
  handler: (input, ctx) =>
    addUploadedItem({ ...vaultDeps(ctx), dataDir: ctx.config.dataDir }, { ...input, fileName: input.fileName }),
});

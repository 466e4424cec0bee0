/** Schemas and helpers the vault tools share. */
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { DEFAULT_VAULT_UPLOAD_BYTES } from '../../vaults/files.js';
import { SEALED_FORMATS, VAULT_LIMITS, type VaultDeps } from '../../vaults/vaults.js';
import type { FileAnswer, ToolContext } from '../define.js';

/** The owner's tools: a session, or a key with scope `vaults` (`vaults:read` for reads). */
export const OWNER = { domain: 'vaults', principals: ['session', 'key'], bucket: 'default' } as const;

export const EXAMPLE_VAULT = 'vlt_01JD0000000000000000000000';
export const EXAMPLE_ITEM = 'vit_01JD0000000000000000000000';
export const EXAMPLE_SHARE = 'shr_01JD000000000000000000000B';
export const EXAMPLE_HEIR = '0x2222222222222222222222222222222222222222';

export const VaultId = z
  .string()
  .regex(/^vlt_[0-9A-HJKMNP-TV-Z]{26}$/)
  .describe('Vault id (vlt_...).');
export const ItemId = z
  .string()
  .regex(/^vit_[0-9A-HJKMNP-TV-Z]{26}$/)
  .describe('Vault item id (vit_...).');
export const ShareId = z
  .string()
  .regex(/^shr_[0-9A-HJKMNP-TV-Z]{26}$/)
  .describe('A share you hold (shr_...), claimed with claim_memoir_share.');
export const PlanId = z
  .string()
  .regex(/^mhp_[0-9A-HJKMNP-TV-Z]{26}$/)
  .describe('Linked plan id (mhp_..., from link_memoir_plan).');

export const Title = z
  .string()
  .min(1)
  .max(VAULT_LIMITS.title)
  .describe(`Title, 1 to ${VAULT_LIMITS.title} characters.`);
export const Heirs = z
  .array(z.string().min(1).max(VAULT_LIMITS.address).describe("A beneficiary's address, as in the plan."))
  .min(1)
  .max(VAULT_LIMITS.heirsPerItem)
  .describe(
    `Who the item is for: beneficiary addresses of the linked plan (1 to ${VAULT_LIMITS.heirsPerItem}). Checked against the plan once the vault is linked.`,
  );
export const Text = z
  .string()
  .min(1)
  .max(VAULT_LIMITS.text)
  .describe(`A letter or instructions, 1 to ${VAULT_LIMITS.text} characters.`);
export const Base64 = z
  .string()
  .min(1)
  .max(Math.ceil(VAULT_LIMITS.fileBytes / 3) * 4 + 8)
  .describe(`The bytes, base64 (at most ${VAULT_LIMITS.fileBytes} bytes once decoded).`);

export const ItemKindSchema = z
  .enum(['text', 'file', 'sealed'])
  .describe('`text` (svc encrypts it), `file` (any file, svc encrypts it), `sealed` (encrypted by the owner).');
export const SealedFormatSchema = z
  .enum(SEALED_FORMATS)
  .describe('How a sealed item was encrypted: `age` (age -p, a passphrase) or `openpgp` (gpg --symmetric).');

export const ItemSummarySchema = z
  .object({
    id: ItemId,
    vaultId: VaultId,
    kind: ItemKindSchema,
    format: z
      .string()
      .nullable()
      .describe('For sealed items, their format (`age` or `openpgp`); null for text and files.'),
    title: z.string().describe('Title.'),
    fileName: z.string().nullable().describe('File name of a file or sealed item; null for text.'),
    heirs: z.array(z.string().describe('An address.')).describe('Beneficiary addresses the item is for.'),
    contentType: z.string().describe('Media type of the content, kept for downloads.'),
    size: z.number().int().describe('Bytes of the content (a text in UTF-8).'),
    createdAt: z.string().describe('When it was added (ISO 8601).'),
    updatedAt: z.string().describe('When it last changed (ISO 8601).'),
  })
  .describe('A vault item, without its content.');

export const ItemContentFields = {
  text: z.string().nullable().describe('The text of a text item; null for files.'),
  contentBase64: z
    .string()
    .nullable()
    .describe(
      `The bytes of a file or sealed item, base64; null for text, and for an uploaded file over ${VAULT_LIMITS.fileBytes} bytes (download it over REST).`,
    ),
};

export const AccessEntrySchema = z
  .object({
    itemId: ItemId,
    heir: z.string().describe('The heir as the plan names them.'),
    heirAddress: z.string().describe("The heir's address."),
    shareId: z.string().describe('The share they read through.'),
    via: z.enum(['read', 'download']).describe('Read in JSON, or downloaded as a file.'),
    at: z.string().describe('When (ISO 8601).'),
  })
  .describe('One read of an item by an heir.');

const VaultBase = {
  id: VaultId,
  name: z.string().describe('Name.'),
  planId: z.string().nullable().describe('The linked plan (mhp_...), or null.'),
  planState: z
    .string()
    .nullable()
    .describe(
      "The linked plan's state (`armed`, `verifying` or `triggered`), or null when none is linked (or it was unlinked from the memoir).",
    ),
  released: z
    .boolean()
    .describe("Whether the plan has released the items to their heirs (its switch's trigger is confirmed)."),
  itemCount: z.number().int().describe('Items in the vault.'),
  createdAt: z.string().describe('When it was created (ISO 8601).'),
  updatedAt: z.string().describe('When it last changed (ISO 8601).'),
};

export const VaultSummarySchema = z.object(VaultBase).describe('A vault.');

export const VaultSchema = z
  .object({
    ...VaultBase,
    items: z.array(ItemSummarySchema).describe('Its items, oldest first, without content.'),
    accessLog: z
      .array(AccessEntrySchema)
      .nullable()
      .describe("Once released: the heirs' reads, newest first (at most 500); null before release."),
  })
  .describe('A vault with its items.');

/** The owner's operations' dependencies from a tool's context. */
export function vaultDeps(ctx: ToolContext): VaultDeps {
  return {
    store: ctx.store,
    ownerId: ctx.principal.ownerId,
    keyring: ctx.keyring,
    clock: ctx.clock,
    quotaBytes: ctx.config.storageQuotaBytes,
    dataDir: ctx.config.dataDir,
  };
}

/** A Content-Disposition for a file name of any script: an ASCII fallback and the UTF-8 name (RFC 6266). */
function disposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** The output of a download tool: the stream, with the item's media type, file name and size. */
export function downloadOf(
  item: { contentType: string; fileName: string | null; title: string; size: number },
  stream: Readable,
) {
  return {
    stream,
    contentType: item.contentType,
    fileName: item.fileName ?? `${item.title.replace(/[^\p{L}\p{N} ._-]/gu, '_').slice(0, 100)}.txt`,
    size: item.size,
  };
}

/** The REST answer of a download tool: the item's bytes as they are decrypted, never stored or cached. */
export function itemFile(output: Record<string, unknown>): FileAnswer {
  const out = output as ReturnType<typeof downloadOf>;
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

/** The largest file a download answers, as documented: uploads up to the default SVC_VAULT_MAX_FILE. */
const LARGEST_FILE = DEFAULT_VAULT_UPLOAD_BYTES;

/** The OpenAPI success answer of the download tools: the item's bytes with the media type it was stored with. */
export const ITEM_FILE_SUCCESS = {
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
        maxLength: LARGEST_FILE,
        description:
          'A sealed OpenPGP item, exactly as its owner encrypted it (open it with gpg --decrypt); at most 700 KiB sent in JSON, or SVC_VAULT_MAX_FILE uploaded.',
      },
    },
    'application/octet-stream': {
      schema: {
        type: 'string',
        format: 'binary',
        maxLength: LARGEST_FILE,
        description: 'A sealed age item (open it with age --decrypt), or a file of that type; sizes as for every file.',
      },
    },
    '*/*': {
      schema: {
        type: 'string',
        format: 'binary',
        maxLength: LARGEST_FILE,
        description:
          'A file, with the media type its owner gave it: at most 700 KiB sent in JSON, or SVC_VAULT_MAX_FILE (default 25 MiB) uploaded.',
      },
    },
  },
};

/**
 * Vault items uploaded as files: the vault is checked (and its data key opened) before any byte of the upload is
 * read, the file is encrypted as it streams into the staging area (src/vaults/files.ts), and the item is then
 * recorded in one transaction with the settlement of the upload's storage reservation. Whatever fails on the way
 * leaves no file and no record.
 */
import { rm } from 'node:fs/promises';
import { ApiError } from '../core/errors.js';
import type { Store } from '../store/port.js';
import { settleReservation } from '../accounts/quota.js';
import { aad, type DataKey, openDataKey } from './crypto.js';
import { itemFilePath, keepStaged } from './files.js';
import {
  type ItemMeta,
  type SealedFormat,
  VAULT_ITEMS,
  VAULT_LIMITS,
  VAULTS,
  type VaultItemRecord,
} from './records.js';
import {
  CONTENT_TYPE,
  checkHeirs,
  cleanFileName,
  cleanText,
  event,
  itemSummary,
  linkedPlan,
  SEALED_TYPES,
  type VaultDeps,
  vaultIn,
} from './vaults.js';

/**
 * Before an upload is read: the vault of the caller's account (404 for any other) with room for one more item
 * (409), and its data key to encrypt the file with.
 */
export async function uploadTarget(
  deps: Pick<VaultDeps, 'store' | 'keyring'>,
  vaultId: string,
): Promise<{ key: DataKey }> {
  const vault = await vaultIn(deps.store, vaultId);
  if ((await deps.store.findBy(VAULT_ITEMS, 'vaultId', vaultId)).length >= VAULT_LIMITS.itemsPerVault)
    throw new ApiError('CONFLICT', `A vault holds at most ${VAULT_LIMITS.itemsPerVault} items.`);
  return { key: openDataKey(deps.keyring, vault.id, vault.wrappedKey) };
}

/** An upload staged and encrypted for item `itemId`, with the form's fields. */
export interface UploadedItem {
  vaultId: string;
  itemId: string;
  stagingId: string;
  title: string;
  heirs: string[];
  /** Set for a sealed item (a file the owner encrypted), null for a file svc encrypts. */
  format: SealedFormat | null;
  /** A file's media type (a sealed item's comes from its format). */
  contentType: string | null;
  fileName: string | null;
  /** Bytes of the file as sent. */
  size: number;
}

/** Records a staged upload as an item: its file moves under the account, or is removed if recording fails. */
export async function addUploadedItem(deps: VaultDeps & { store: Store; dataDir: string }, input: UploadedItem) {
  const title = cleanText(input.title, 'title', VAULT_LIMITS.title);
  const sealed = input.format !== null ? SEALED_TYPES[input.format] : undefined;
  const contentType = sealed ? sealed.contentType : (input.contentType ?? 'application/octet-stream').toLowerCase();
  if (!CONTENT_TYPE.test(contentType))
    throw ApiError.validation('Invalid content type', [
      { field: 'contentType', reason: 'a media type such as application/pdf' },
    ]);
  const fileName =
    input.fileName !== null ? cleanFileName(input.fileName, 'file') : sealed ? `sealed.${sealed.ext}` : null;
  if (fileName === null)
    throw ApiError.validation('The file needs a name', [{ field: 'file', reason: 'send the file with a file name' }]);
  const now = deps.clock.now();
  const nowIso = now.toISOString();
  const { vaultId, itemId: id } = input;
  // The id is made when the upload is read, never taken from a client; checked all the same before a file moves.
  if (await deps.store.get(VAULT_ITEMS, id)) throw new ApiError('CONFLICT', 'This upload was recorded already.');
  const file = await keepStaged(deps.dataDir, input.stagingId, deps.ownerId, id);
  try {
    return await deps.store.transact(async (tx) => {
      const vault = await vaultIn(tx, vaultId);
      const details = checkHeirs(input.heirs, await linkedPlan(tx, vault));
      if (details.length) throw ApiError.validation('Invalid heirs', details);
      if ((await tx.findBy(VAULT_ITEMS, 'vaultId', vaultId)).length >= VAULT_LIMITS.itemsPerVault)
        throw new ApiError('CONFLICT', `A vault holds at most ${VAULT_LIMITS.itemsPerVault} items.`);
      const key = openDataKey(deps.keyring, vault.id, vault.wrappedKey);
      // The reservation made before the upload was read becomes the item, in the same write.
      await settleReservation(tx, deps.ownerId, input.stagingId, input.size, { defaultLimit: deps.quotaBytes, now });
      const record: VaultItemRecord = {
        id,
        ownerId: deps.ownerId,
        vaultId,
        kind: sealed ? 'sealed' : 'file',
        format: input.format,
        heirs: input.heirs.map((h) => h.trim()),
        meta: key.encrypt(JSON.stringify({ title, fileName } satisfies ItemMeta), aad.itemMeta(vaultId, id)),
        content: '',
        file,
        contentType,
        size: input.size,
        storedBytes: input.size,
        createdAt: nowIso,
        updatedAt: nowIso,
      };
      await tx.put(VAULT_ITEMS, record);
      await tx.put(VAULTS, { ...vault, updatedAt: nowIso });
      await event(tx, deps, 'vault.updated', { vaultId, itemId: id, change: 'item.added' });
      return itemSummary(key, record);
    });
  } catch (err) {
    await rm(itemFilePath(deps.dataDir, deps.ownerId, file), { force: true });
    throw err;
  }
}

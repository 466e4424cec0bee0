/**
 * The records of vaults: a vault per purpose (letters, documents, instructions), its items, and the log of heirs'
 * reads. Every record belongs to one account (`ownerId`). What the owner wrote is never stored readable: a vault's
 * name and each item's title, file name and content are encrypted with the vault's data key (src/vaults/crypto.ts),
 * and the data key is kept only wrapped by the service's master key, so a master-key rotation re-wraps it (the
 * declaration below) without touching the items.
 */
import { declareSealedFields } from '../core/keyring.js';
import { declareGrantLog } from '../accounts/grants.js';
import { declareStoredBytes } from '../accounts/quota.js';
import { declareTenantCollection } from '../accounts/tenancy.js';

export const VAULTS = 'vaults';
export const VAULT_ITEMS = 'vault_items';
export const VAULT_ACCESS = 'vault_access';

declareTenantCollection(VAULTS);
declareTenantCollection(VAULT_ITEMS);
declareTenantCollection(VAULT_ACCESS);
declareSealedFields(VAULTS, [], { wrappedKeys: ['wrappedKey'] });
// File and sealed items count in the account's storage quota, like memoir media.
declareStoredBytes(VAULT_ITEMS, 'storedBytes');
// Heirs' reads are written into the owner's account through the grant they read with.
declareGrantLog(VAULT_ACCESS);

export const VAULT_INDEXES: Record<string, string[]> = {
  [VAULTS]: ['ownerId', 'planId'],
  [VAULT_ITEMS]: ['ownerId', 'vaultId'],
  [VAULT_ACCESS]: ['ownerId', 'vaultId'],
};

export const VAULT_LIMITS = {
  vaultsPerAccount: 50,
  itemsPerVault: 200,
  name: 120,
  title: 200,
  /** Characters of a text item. */
  text: 100_000,
  /**
   * Bytes of a file or sealed item sent in a JSON body (base64), before encoding; also the largest uploaded file
   * whose bytes a JSON answer carries (larger ones are downloaded). Uploads are bounded by config.vaultUploadBytes.
   */
  fileBytes: 700 * 1024,
  fileName: 255,
  heirsPerItem: 20,
  address: 128,
  /** Entries of the access log shown to the owner (newest first). */
  accessLog: 500,
} as const;

/** `text`: a letter or instructions svc encrypts; `file`: any file svc encrypts; `sealed`: bytes the owner encrypted. */
export type ItemKind = 'text' | 'file' | 'sealed';

/** Formats of sealed items: how the heir opens them (docs-index/vaults.md). svc never reads them. */
export const SEALED_FORMATS = ['age', 'openpgp'] as const;
export type SealedFormat = (typeof SEALED_FORMATS)[number];

export interface VaultRecord {
  [field: string]: unknown;
  /** `vlt_<ulid>`. */
  id: string;
  ownerId: string;
  /** The name, encrypted with the data key. */
  name: string;
  /** The vault's data key (32 bytes), wrapped by the master key (`svcenc1...`). */
  wrappedKey: string;
  /** The linked inheritance plan (`mhp_...`), or null. */
  planId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What an item's `meta` holds once opened. */
export interface ItemMeta {
  title: string;
  fileName: string | null;
}

export interface VaultItemRecord {
  [field: string]: unknown;
  /** `vit_<ulid>`. */
  id: string;
  ownerId: string;
  vaultId: string;
  kind: ItemKind;
  /** Sealed formats only: how the owner encrypted it. */
  format: SealedFormat | null;
  /** Beneficiary addresses it is for, as given (compared in each chain's canonical form). */
  heirs: string[];
  /** ItemMeta as JSON, encrypted with the data key. */
  meta: string;
  /** The content (UTF-8 text or the file's bytes), encrypted with the data key; empty when it is in `file`. */
  content: string;
  /**
   * An uploaded file's name under the data directory (`vault-files/<ownerId>/<file>`), encrypted in chunks with a key
   * derived from the data key (src/vaults/stream.ts); null or absent when the content is in the record.
   */
  file?: string | null;
  /** Media type of the content, kept for the heir's download. */
  contentType: string;
  /** Bytes of the content before encryption. */
  size: number;
  /** Bytes counted in the storage quota: the size of file and sealed items, 0 for text. */
  storedBytes: number;
  createdAt: string;
  updatedAt: string;
}

export interface VaultAccessRecord {
  [field: string]: unknown;
  /** `vac_<ulid>`. */
  id: string;
  ownerId: string;
  vaultId: string;
  itemId: string;
  /** The share read through (set by the grant). */
  grantId: string;
  /** The heir as the plan names them. */
  heir: string;
  heirAddress: string;
  /** The account that read. */
  readerAccountId: string;
  /** `read` (the item in JSON) or `download` (the file). */
  via: 'read' | 'download';
  at: string;
}

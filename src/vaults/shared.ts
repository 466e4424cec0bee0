/**
 * The heirs' side of vaults: what the holder of an open share of a plan sees of the vaults linked to it, and each
 * read recorded in the owner's account. The rules of release are in src/vaults/vaults.ts (planReleased).
 */
import type { Readable } from 'node:stream';
import { ApiError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import type { Keyring } from '../core/keyring.js';
import type { GrantedAccess } from '../accounts/grants.js';
import { canonicalAddress } from '../contracts/validate.js';
import { type HeirPlanRecord, MEMOIR_HEIR_PLANS } from '../memoir/heir-plans.js';
import { aad, openDataKey } from './crypto.js';
import {
  VAULT_ACCESS,
  VAULT_ITEMS,
  VAULTS,
  type VaultAccessRecord,
  type VaultItemRecord,
  type VaultRecord,
} from './records.js';
import { itemBody } from './files.js';
import { contentFields, itemSummary, openMeta, planReleased, SHARED_VAULT_COLLECTIONS } from './vaults.js';

interface HeirScope {
  plan: HeirPlanRecord;
  heir: { name: string; address: string };
  vaults: VaultRecord[];
}

/**
 * What the holder of an open share may see of vaults: nothing unless a vault is linked to the share's plan and the
 * plan has released it; then the vaults linked to the plan and the heir the share is for.
 */
async function heirScope(g: GrantedAccess, now: Date): Promise<HeirScope | undefined> {
  if (!SHARED_VAULT_COLLECTIONS.every((c) => g.grant.collections.includes(c)) || !g.grant.sourceId) return undefined;
  const plan = await g.store.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, g.grant.sourceId);
  if (!plan || !planReleased(plan, now)) return undefined;
  const heir = plan.heirs.find((h) => h.shareId === g.grant.id);
  if (!heir) return undefined;
  const vaults = await g.store.findBy<VaultRecord>(VAULTS, 'planId', plan.id);
  return { plan, heir, vaults };
}

const isFor = (scope: HeirScope, item: VaultItemRecord) => {
  const me = canonicalAddress(scope.plan.blockchain, scope.heir.address);
  return item.heirs.some((a) => canonicalAddress(scope.plan.blockchain, a) === me);
};

/** The items of released vaults meant for the share's heir (empty before release: nothing shows a vault exists). */
export async function sharedItems(g: GrantedAccess, keyring: Keyring, now: Date) {
  const scope = await heirScope(g, now);
  if (!scope) return [];
  const out = [];
  for (const v of [...scope.vaults].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    const key = openDataKey(keyring, v.id, v.wrappedKey);
    const vaultName = key.decrypt(v.name, aad.vaultName(v.id)).toString('utf8');
    const items = (await g.store.findBy<VaultItemRecord>(VAULT_ITEMS, 'vaultId', v.id)).filter((i) => isFor(scope, i));
    for (const i of items.sort((a, b) => (a.id < b.id ? -1 : 1)))
      out.push({ ...itemSummary(key, i), vaultName, heirs: undefined });
  }
  return out.map(({ heirs: _h, ...rest }) => rest);
}

/** Who reads, and how: `read` gives the content fields of the JSON answer, `download` a stream of the content. */
export interface SharedReader<V extends 'read' | 'download'> {
  accountId: string;
  via: V;
  /** The data directory, where uploaded files live. */
  dataDir: string;
}

type SharedContent<V> = V extends 'read' ? { fields: Awaited<ReturnType<typeof contentFields>> } : { stream: Readable };

/**
 * One item for the share's heir, with its content, and the read recorded in the owner's account (`vault.accessed`
 * and the access log) once the content has opened. 404 for an item that is not released to this heir, exactly as
 * for one that does not exist.
 */
export async function readSharedItem<V extends 'read' | 'download'>(
  g: GrantedAccess,
  keyring: Keyring,
  now: Date,
  itemId: string,
  reader: SharedReader<V>,
) {
  const scope = await heirScope(g, now);
  const item = scope ? await g.store.get<VaultItemRecord>(VAULT_ITEMS, itemId) : undefined;
  const vault = item ? scope!.vaults.find((v) => v.id === item.vaultId) : undefined;
  if (!scope || !item || !vault || !isFor(scope, item))
    throw new ApiError('NOT_FOUND', 'No item with this id is open to you.');
  const key = openDataKey(keyring, vault.id, vault.wrappedKey);
  const content = (
    reader.via === 'read'
      ? { fields: await contentFields(reader.dataDir, key, item) }
      : { stream: await itemBody(reader.dataDir, key, item).open() }
  ) as SharedContent<V>;
  const meta = openMeta(key, item);
  const at = now.toISOString();
  const access: VaultAccessRecord = {
    id: newId('vaultAccess'),
    ownerId: g.grantorId,
    vaultId: vault.id,
    itemId: item.id,
    grantId: g.grant.id,
    heir: scope.heir.name,
    heirAddress: scope.heir.address,
    readerAccountId: reader.accountId,
    via: reader.via,
    at,
  };
  // Who (the share, its heir and the reading account), which item and when; never the item's title or content.
  await g.logUse(VAULT_ACCESS, access, {
    type: 'vault.accessed',
    data: {
      vaultId: vault.id,
      itemId: item.id,
      planId: scope.plan.id,
      shareId: g.grant.id,
      readerAccountId: reader.accountId,
      via: reader.via,
      at,
    },
  });
  const { heirs: _heirs, ...summary } = itemSummary(key, item);
  return {
    item: { ...summary, vaultName: key.decrypt(vault.name, aad.vaultName(vault.id)).toString('utf8') },
    meta,
    ...content,
  };
}

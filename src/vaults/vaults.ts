/**
 * Vaults: letters, documents and instructions an owner leaves for their heirs, each item for the heirs it names.
 *
 * The owner's operations run through the owner's account view of the store. Everything the owner wrote is encrypted
 * with the vault's data key before it is stored (src/vaults/crypto.ts); `sealed` items arrive already encrypted by
 * the owner (with a passphrase the owner gives the heir outside svc) and svc encrypts those bytes once more, without
 * ever reading them.
 *
 * Release: a vault is linked to an inheritance plan of the account (the plan linked for heirs' access to the memoir,
 * `mhp_...`), and its items open through that plan's shares, the same grants heirs claim for the memoir. An item is
 * readable by the holder of a share when the share is open (the wrapper checks: claimed, not revoked, not expired,
 * past its opening time), the plan has been released (its verification completed, or the chain reported the trigger
 * of a plan watched on chain) and the item names the share's heir. A reported trigger alone opens nothing. Before
 * release an heir sees nothing of any vault, not even that one exists; each read is logged in the owner's account
 * (`vault.accessed`), and the owner sees that log once the vault is released.
 */
import { hasUnsafeNameChars } from '../core/names.js';
import type { Clock } from '../core/clock.js';
import { ApiError, type ErrorDetail } from '../core/errors.js';
import { newId } from '../core/ids.js';
import type { Keyring } from '../core/keyring.js';
import type { Doc, Store, Tx } from '../store/port.js';
import { GRANTS, type GrantRecord } from '../accounts/grants.js';
import { settleReservation } from '../accounts/quota.js';
import { recordEvent } from '../events/events.js';
import { canonicalAddress } from '../contracts/validate.js';
import { type HeirPlanRecord, MEMOIR_HEIR_PLANS, sharesOf, waitingOver } from '../memoir/heir-plans.js';
import { aad, type DataKey, newDataKey, openDataKey } from './crypto.js';
import { itemBody, removeItemFiles } from './files.js';
import {
  type ItemKind,
  type ItemMeta,
  type SealedFormat,
  VAULT_ACCESS,
  VAULT_ITEMS,
  VAULT_LIMITS,
  VAULTS,
  type VaultAccessRecord,
  type VaultItemRecord,
  type VaultRecord,
} from './records.js';

export * from './records.js';

/** What the owner's operations need: the owner's account view, the keyring, the clock and the storage quota. */
export interface VaultDeps {
  store: Store;
  ownerId: string;
  keyring: Keyring;
  clock: Clock;
  /** The server's default storage quota (config.storageQuotaBytes). */
  quotaBytes?: number | undefined;
  /** The data directory, where uploaded files live (config.dataDir). */
  dataDir?: string | undefined;
}

/** Collections a plan's shares cover once a vault is linked to it: the vaults, their items, and the plan itself. */
export const SHARED_VAULT_COLLECTIONS = [VAULTS, VAULT_ITEMS, MEMOIR_HEIR_PLANS];

const vaultNotFound = () => new ApiError('NOT_FOUND', 'No vault with this id in your account.');
const itemNotFound = () => new ApiError('NOT_FOUND', 'No item with this id in this vault.');

export function cleanText(raw: string, field: string, max: number): string {
  const text = raw.normalize('NFC').replace(/\s+/g, ' ').trim();
  if (!text || text.length > max || hasUnsafeNameChars(text))
    throw ApiError.validation(`Invalid ${field}`, [
      { field, reason: `visible text of 1 to ${max} characters, without control characters` },
    ]);
  return text;
}

export function cleanFileName(raw: string, field: string): string {
  const name = raw.normalize('NFC').trim();
  // A path separator or a quote anywhere, or only dots ("." and ".."), besides the characters no name may hold.
  if (!name || name.length > VAULT_LIMITS.fileName || hasUnsafeNameChars(name) || /[/\\"]|^\.+$/.test(name))
    throw ApiError.validation('Invalid file name', [
      { field, reason: 'a plain file name: no path separators, quotes, control or bidirectional characters' },
    ]);
  return name;
}

export const CONTENT_TYPE =
  /^[a-z0-9][a-z0-9!#$&^_.+-]{0,62}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,62}(; ?[a-z0-9_-]+=[a-z0-9_.-]+)?$/i;

function decodeBase64(raw: string, field: string): Buffer {
  const s = raw.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s) || s.length % 4 !== 0)
    throw ApiError.validation('Invalid base64', [
      { field, reason: 'standard base64 (A-Z, a-z, 0-9, +, /, = padding)' },
    ]);
  const bytes = Buffer.from(s, 'base64');
  if (bytes.length === 0) throw ApiError.validation('Empty file', [{ field, reason: 'at least one byte' }]);
  if (bytes.length > VAULT_LIMITS.fileBytes)
    throw ApiError.validation('File too large', [{ field, reason: `at most ${VAULT_LIMITS.fileBytes} bytes` }]);
  return bytes;
}

// --- heirs ------------------------------------------------------------------------------------------------------

/** The heirs of an item, checked: distinct, and when the vault is linked, beneficiaries the plan gives access to. */
export function checkHeirs(heirs: readonly string[], plan: HeirPlanRecord | undefined, field = 'heirs'): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const seen = new Set<string>();
  const known = plan ? new Set(plan.heirs.map((h) => canonicalAddress(plan.blockchain, h.address))) : undefined;
  heirs.forEach((a, i) => {
    const key = plan ? canonicalAddress(plan.blockchain, a.trim()) : a.trim().toLowerCase();
    if (!a.trim()) details.push({ field: `${field}.${i}`, reason: 'an address' });
    else if (seen.has(key)) details.push({ field: `${field}.${i}`, reason: 'named twice' });
    else if (known && !known.has(key))
      details.push({ field: `${field}.${i}`, reason: 'not an heir of the linked plan (a beneficiary given access)' });
    seen.add(key);
  });
  return details;
}

export async function linkedPlan(tx: Pick<Tx, 'get'>, vault: VaultRecord): Promise<HeirPlanRecord | undefined> {
  return vault.planId ? tx.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, vault.planId) : undefined;
}

/**
 * Whether a plan has released what is linked to it: heirs' access is on and the switch's trigger is confirmed (the
 * verification after a reported trigger completed, or its waiting period is over and nothing stopped it; a plan
 * watched on chain reaches `triggered` from the chain). A trigger merely reported is not enough.
 */
export function planReleased(plan: HeirPlanRecord | undefined, now: Date): boolean {
  if (!plan?.heirAccess.enabled) return false;
  return plan.state === 'triggered' || waitingOver(plan, now.toISOString());
}

// --- views ------------------------------------------------------------------------------------------------------

export function openMeta(key: DataKey, item: VaultItemRecord): ItemMeta {
  return JSON.parse(key.decrypt(item.meta, aad.itemMeta(item.vaultId, item.id)).toString('utf8')) as ItemMeta;
}

export function itemSummary(key: DataKey, item: VaultItemRecord) {
  const meta = openMeta(key, item);
  return {
    id: item.id,
    vaultId: item.vaultId,
    kind: item.kind,
    format: item.format,
    title: meta.title,
    fileName: meta.fileName,
    heirs: item.heirs,
    contentType: item.contentType,
    size: item.size,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}

/**
 * The content fields of an item in JSON: the text of a text item, the bytes (base64) of a file or sealed item, or
 * null for an uploaded file larger than a JSON body carries (it is downloaded as a file).
 */
export async function contentFields(dataDir: string | undefined, key: DataKey, item: VaultItemRecord) {
  if (item.kind !== 'text' && item.size > VAULT_LIMITS.fileBytes) return { text: null, contentBase64: null };
  const content = await itemBody(dataDir, key, item).bytes();
  return {
    text: item.kind === 'text' ? content.toString('utf8') : null,
    contentBase64: item.kind === 'text' ? null : content.toString('base64'),
  };
}

function accessView(a: VaultAccessRecord) {
  return { itemId: a.itemId, heir: a.heir, heirAddress: a.heirAddress, shareId: a.grantId, via: a.via, at: a.at };
}

export async function vaultIn(tx: Pick<Tx, 'get'>, id: string): Promise<VaultRecord> {
  const v = await tx.get<VaultRecord>(VAULTS, id);
  if (!v) throw vaultNotFound();
  return v;
}

export async function itemIn(tx: Pick<Tx, 'get'>, vaultId: string, itemId: string): Promise<VaultItemRecord> {
  const item = await tx.get<VaultItemRecord>(VAULT_ITEMS, itemId);
  if (!item || item.vaultId !== vaultId) throw itemNotFound();
  return item;
}

async function vaultParts(deps: VaultDeps, tx: Pick<Tx, 'get' | 'findBy'>, v: VaultRecord) {
  const key = openDataKey(deps.keyring, v.id, v.wrappedKey);
  const items = await tx.findBy<VaultItemRecord>(VAULT_ITEMS, 'vaultId', v.id);
  const plan = await linkedPlan(tx, v);
  const now = deps.clock.now();
  const released = planReleased(plan, now);
  const base = {
    id: v.id,
    name: key.decrypt(v.name, aad.vaultName(v.id)).toString('utf8'),
    planId: v.planId,
    // A plan unlinked from the memoir since: the vault is as good as unlinked.
    planState: plan ? plan.state : null,
    released,
    itemCount: items.length,
    createdAt: v.createdAt,
    updatedAt: v.updatedAt,
  };
  return { key, items, released, base };
}

async function vaultSummary(deps: VaultDeps, tx: Pick<Tx, 'get' | 'findBy'>, v: VaultRecord) {
  return (await vaultParts(deps, tx, v)).base;
}

async function vaultView(deps: VaultDeps, tx: Pick<Tx, 'get' | 'findBy'>, v: VaultRecord) {
  const { key, items, released, base } = await vaultParts(deps, tx, v);
  const log = released
    ? (await tx.findBy<VaultAccessRecord>(VAULT_ACCESS, 'vaultId', v.id))
        .sort((a, b) => (a.id < b.id ? 1 : -1))
        .slice(0, VAULT_LIMITS.accessLog)
        .map(accessView)
    : null;
  return {
    ...base,
    items: [...items].sort((a, b) => (a.id < b.id ? -1 : 1)).map((i) => itemSummary(key, i)),
    accessLog: log,
  };
}

export const event = (tx: Tx, deps: VaultDeps, type: string, data: Record<string, unknown>) =>
  recordEvent(tx, { type, ownerId: deps.ownerId, data }, deps.clock);

// --- the owner's operations -------------------------------------------------------------------------------------

export async function createVault(deps: VaultDeps, input: { name: string }) {
  const name = cleanText(input.name, 'name', VAULT_LIMITS.name);
  const nowIso = deps.clock.now().toISOString();
  const id = newId('vault');
  const { key, wrapped } = newDataKey(deps.keyring, id);
  const record: VaultRecord = {
    id,
    ownerId: deps.ownerId,
    name: key.encrypt(name, aad.vaultName(id)),
    wrappedKey: wrapped,
    planId: null,
    createdAt: nowIso,
    updatedAt: nowIso,
  };
  return deps.store.transact(async (tx) => {
    if ((await tx.idsBy(VAULTS, 'ownerId', deps.ownerId)).length >= VAULT_LIMITS.vaultsPerAccount)
      throw new ApiError('CONFLICT', `An account keeps at most ${VAULT_LIMITS.vaultsPerAccount} vaults.`);
    await tx.put(VAULTS, record);
    await event(tx, deps, 'vault.created', { vaultId: id });
    return vaultView(deps, tx, record);
  });
}

export async function listVaults(deps: VaultDeps) {
  const vaults = await deps.store.findBy<VaultRecord>(VAULTS, 'ownerId', deps.ownerId);
  const out = [];
  for (const v of [...vaults].sort((a, b) => (a.id < b.id ? 1 : -1))) out.push(await vaultSummary(deps, deps.store, v));
  return out;
}

export async function getVault(deps: VaultDeps, id: string) {
  return vaultView(deps, deps.store, await vaultIn(deps.store, id));
}

export async function deleteVault(deps: VaultDeps, id: string) {
  const items = await deps.store.transact(async (tx) => {
    await vaultIn(tx, id);
    const items = await tx.findBy<VaultItemRecord>(VAULT_ITEMS, 'vaultId', id);
    for (const i of items) await tx.delete(VAULT_ITEMS, i.id);
    for (const a of await tx.findBy<Doc>(VAULT_ACCESS, 'vaultId', id)) await tx.delete(VAULT_ACCESS, a.id);
    await tx.delete(VAULTS, id);
    await event(tx, deps, 'vault.deleted', { vaultId: id, itemsDeleted: items.length });
    return items;
  });
  // Once the records are gone: a crash before this leaves encrypted files nothing refers to, never a record without its file.
  await removeItemFiles(deps.dataDir, items);
  return { deleted: true as const, itemsDeleted: items.length };
}

export interface NewItem {
  title: string;
  heirs: string[];
  text?: string | undefined;
  file?: { contentBase64: string; contentType: string; fileName: string } | undefined;
  sealed?: { contentBase64: string; format: SealedFormat; fileName?: string | undefined } | undefined;
}

export const SEALED_TYPES: Record<SealedFormat, { contentType: string; ext: string }> = {
  age: { contentType: 'application/octet-stream', ext: 'age' },
  openpgp: { contentType: 'application/pgp-encrypted', ext: 'gpg' },
};

/**
 * Whether `head` (a file's first bytes) begins as a file of the sealed `format` does, binary or ASCII-armoured: an
 * age file with its version line (`age-encryption.org/v1`), an OpenPGP message with a key or passphrase packet (tag 1
 * or 3, or a marker packet, 10). svc never reads further: it cannot tell whether the heir will open it, only refuse
 * what no age or gpg program would (a plain file sent as sealed was accepted, and the heir found it unopenable).
 */
export function looksSealed(format: SealedFormat, head: Buffer): boolean {
  const text = head.subarray(0, 64).toString('latin1').trimStart();
  if (format === 'age')
    return text.startsWith('age-encryption.org/v1\n') || text.startsWith('-----BEGIN AGE ENCRYPTED FILE-----');
  if (text.startsWith('-----BEGIN PGP MESSAGE-----')) return true;
  const first = head[0];
  if (first === undefined || (first & 0x80) === 0) return false;
  // New packet format: the tag in the low six bits; the old one: bits 5 to 2.
  const tag = first & 0x40 ? first & 0x3f : (first >> 2) & 0x0f;
  return tag === 1 || tag === 3 || tag === 10;
}

/** A 400 for a sealed item whose bytes are not of its format. */
export function notSealed(format: SealedFormat, field: string): ApiError {
  const how =
    format === 'age'
      ? 'an age file begins with "age-encryption.org/v1" or "-----BEGIN AGE ENCRYPTED FILE-----": seal it with age first'
      : 'an OpenPGP message begins with a key or passphrase packet, or "-----BEGIN PGP MESSAGE-----": seal it with gpg first';
  return ApiError.validation(`This is not an ${format === 'age' ? 'age' : 'OpenPGP'} encrypted file`, [
    { field, reason: how },
  ]);
}

/** The kind, content, media type and file name of a new item (exactly one of text, file, sealed). */
function itemContent(input: NewItem): {
  kind: ItemKind;
  content: Buffer;
  contentType: string;
  fileName: string | null;
  format: SealedFormat | null;
} {
  const given = (['text', 'file', 'sealed'] as const).filter((k) => input[k] !== undefined);
  if (given.length !== 1)
    throw ApiError.validation('An item is a text, a file or a sealed file', [
      { field: given[1] ?? 'text', reason: 'give exactly one of text, file and sealed' },
    ]);
  if (input.text !== undefined) {
    if (!input.text.trim()) throw ApiError.validation('Empty text', [{ field: 'text', reason: 'some text' }]);
    return {
      kind: 'text',
      content: Buffer.from(input.text.normalize('NFC'), 'utf8'),
      contentType: 'text/plain; charset=utf-8',
      fileName: null,
      format: null,
    };
  }
  if (input.file) {
    if (!CONTENT_TYPE.test(input.file.contentType))
      throw ApiError.validation('Invalid content type', [
        { field: 'file.contentType', reason: 'a media type such as application/pdf' },
      ]);
    return {
      kind: 'file',
      content: decodeBase64(input.file.contentBase64, 'file.contentBase64'),
      contentType: input.file.contentType.toLowerCase(),
      fileName: cleanFileName(input.file.fileName, 'file.fileName'),
      format: null,
    };
  }
  const sealed = input.sealed!;
  const type = SEALED_TYPES[sealed.format];
  const content = decodeBase64(sealed.contentBase64, 'sealed.contentBase64');
  if (!looksSealed(sealed.format, content)) throw notSealed(sealed.format, 'sealed.contentBase64');
  return {
    kind: 'sealed',
    content,
    contentType: type.contentType,
    fileName: sealed.fileName !== undefined ? cleanFileName(sealed.fileName, 'sealed.fileName') : `sealed.${type.ext}`,
    format: sealed.format,
  };
}

export async function addItem(deps: VaultDeps, vaultId: string, input: NewItem) {
  const title = cleanText(input.title, 'title', VAULT_LIMITS.title);
  const c = itemContent(input);
  const now = deps.clock.now();
  const nowIso = now.toISOString();
  const id = newId('vaultItem');
  return deps.store.transact(async (tx) => {
    const vault = await vaultIn(tx, vaultId);
    const details = checkHeirs(input.heirs, await linkedPlan(tx, vault));
    if (details.length) throw ApiError.validation('Invalid heirs', details);
    if ((await tx.findBy(VAULT_ITEMS, 'vaultId', vaultId)).length >= VAULT_LIMITS.itemsPerVault)
      throw new ApiError('CONFLICT', `A vault holds at most ${VAULT_LIMITS.itemsPerVault} items.`);
    const key = openDataKey(deps.keyring, vault.id, vault.wrappedKey);
    const stored = c.kind === 'text' ? 0 : c.content.length;
    // The quota is checked in the same write as the item, so concurrent uploads cannot jointly pass it.
    if (stored > 0) await settleReservation(tx, deps.ownerId, id, stored, { defaultLimit: deps.quotaBytes, now });
    const record: VaultItemRecord = {
      id,
      ownerId: deps.ownerId,
      vaultId,
      kind: c.kind,
      format: c.format,
      heirs: input.heirs.map((h) => h.trim()),
      meta: key.encrypt(JSON.stringify({ title, fileName: c.fileName } satisfies ItemMeta), aad.itemMeta(vaultId, id)),
      content: key.encrypt(c.content, aad.itemContent(vaultId, id)),
      file: null,
      contentType: c.contentType,
      size: c.content.length,
      storedBytes: stored,
      createdAt: nowIso,
      updatedAt: nowIso,
    };
    await tx.put(VAULT_ITEMS, record);
    await tx.put(VAULTS, { ...vault, updatedAt: nowIso });
    await event(tx, deps, 'vault.updated', { vaultId, itemId: id, change: 'item.added' });
    return itemSummary(key, record);
  });
}

export async function getItem(deps: VaultDeps, vaultId: string, itemId: string) {
  const vault = await vaultIn(deps.store, vaultId);
  const item = await itemIn(deps.store, vaultId, itemId);
  const key = openDataKey(deps.keyring, vault.id, vault.wrappedKey);
  return { ...itemSummary(key, item), ...(await contentFields(deps.dataDir, key, item)) };
}

/** An item of the owner's vault as a file: its name, media type and a stream of its content. */
export async function openItem(deps: VaultDeps, vaultId: string, itemId: string) {
  const vault = await vaultIn(deps.store, vaultId);
  const item = await itemIn(deps.store, vaultId, itemId);
  const key = openDataKey(deps.keyring, vault.id, vault.wrappedKey);
  return { item: itemSummary(key, item), stream: await itemBody(deps.dataDir, key, item).open() };
}

export async function updateItem(
  deps: VaultDeps,
  vaultId: string,
  itemId: string,
  patch: { title?: string | undefined; text?: string | undefined; heirs?: string[] | undefined },
) {
  const title = patch.title !== undefined ? cleanText(patch.title, 'title', VAULT_LIMITS.title) : undefined;
  const nowIso = deps.clock.now().toISOString();
  return deps.store.transact(async (tx) => {
    const vault = await vaultIn(tx, vaultId);
    const item = await itemIn(tx, vaultId, itemId);
    if (patch.text !== undefined && item.kind !== 'text')
      throw ApiError.validation('Only a text item has text', [
        { field: 'text', reason: `this item is a ${item.kind} item: delete it and add a new one` },
      ]);
    if (patch.text !== undefined && !patch.text.trim())
      throw ApiError.validation('Empty text', [{ field: 'text', reason: 'some text' }]);
    if (patch.heirs !== undefined) {
      const details = checkHeirs(patch.heirs, await linkedPlan(tx, vault));
      if (details.length) throw ApiError.validation('Invalid heirs', details);
    }
    const key = openDataKey(deps.keyring, vault.id, vault.wrappedKey);
    const meta = openMeta(key, item);
    const next: VaultItemRecord = { ...item, updatedAt: nowIso };
    if (title !== undefined)
      next.meta = key.encrypt(JSON.stringify({ ...meta, title } satisfies ItemMeta), aad.itemMeta(vaultId, itemId));
    if (patch.text !== undefined) {
      const content = Buffer.from(patch.text.normalize('NFC'), 'utf8');
      next.content = key.encrypt(content, aad.itemContent(vaultId, itemId));
      next.size = content.length;
    }
    if (patch.heirs !== undefined) next.heirs = patch.heirs.map((h) => h.trim());
    await tx.put(VAULT_ITEMS, next);
    await tx.put(VAULTS, { ...vault, updatedAt: nowIso });
    await event(tx, deps, 'vault.updated', { vaultId, itemId, change: 'item.updated' });
    return itemSummary(key, next);
  });
}

export async function deleteItem(deps: VaultDeps, vaultId: string, itemId: string) {
  const nowIso = deps.clock.now().toISOString();
  const item = await deps.store.transact(async (tx) => {
    const vault = await vaultIn(tx, vaultId);
    const found = await itemIn(tx, vaultId, itemId);
    await tx.delete(VAULT_ITEMS, itemId);
    await tx.put(VAULTS, { ...vault, updatedAt: nowIso });
    await event(tx, deps, 'vault.updated', { vaultId, itemId, change: 'item.deleted' });
    return found;
  });
  await removeItemFiles(deps.dataDir, [item]);
  return { deleted: true as const };
}

/**
 * Links the vault to a plan of the account (or unlinks it with null). The plan's shares then also cover the vault
 * collections, so that heirs holding them can be shown their items once the plan releases them. Every item's heirs
 * must be heirs of the plan.
 */
export async function linkVaultPlan(deps: VaultDeps, vaultId: string, planId: string | null) {
  const nowIso = deps.clock.now().toISOString();
  return deps.store.transact(async (tx) => {
    const vault = await vaultIn(tx, vaultId);
    if (planId !== null) {
      const plan = await tx.get<HeirPlanRecord>(MEMOIR_HEIR_PLANS, planId);
      if (!plan) throw new ApiError('NOT_FOUND', 'No linked plan with this id in your account.');
      const items = await tx.findBy<VaultItemRecord>(VAULT_ITEMS, 'vaultId', vaultId);
      const details = items.flatMap((i) => checkHeirs(i.heirs, plan, `items.${i.id}.heirs`));
      if (details.length) throw ApiError.validation('Some items name heirs the plan does not have', details);
      for (const g of await sharesOf(tx, deps.ownerId, planId)) {
        if (g.revokedAt || SHARED_VAULT_COLLECTIONS.every((c) => g.collections.includes(c))) continue;
        const collections = [...new Set([...g.collections, ...SHARED_VAULT_COLLECTIONS])];
        await tx.put<GrantRecord>(GRANTS, { ...g, collections, updatedAt: nowIso });
      }
    }
    const next: VaultRecord = { ...vault, planId, updatedAt: nowIso };
    await tx.put(VAULTS, next);
    await event(tx, deps, 'vault.updated', { vaultId, planId, change: planId ? 'plan.linked' : 'plan.unlinked' });
    return vaultView(deps, tx, next);
  });
}

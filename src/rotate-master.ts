/**
 * `svc secrets rotate-master`: re-seals every stored secret under a new master key, in one store transaction, and
 * puts the new key where the service reads it.
 *
 * - The key comes from a file (SVC_MASTER_KEY_FILE, or the data directory's `master.key`): a new key is written to
 *   `<file>.next` first, the store is re-sealed, then `.next` replaces the file. A crash between the two leaves the
 *   store under the next key and `.next` in place: the next start (or run of this command) finishes the swap.
 * - `--new-key-file PATH`: the new key is read from PATH (or generated into it, mode 0600 when missing); the
 *   configured key is left alone and the operator points SVC_MASTER_KEY_FILE (or SVC_MASTER_KEY) at the new one.
 *   Required when the key comes from SVC_MASTER_KEY.
 *
 * The service must be stopped: the embedded store refuses a second process (the data directory is locked); with
 * PostgreSQL stop every instance first, since an instance still running with the old key can no longer open the
 * secrets. Afterwards the old key opens nothing.
 */
import { existsSync } from 'node:fs';
import { rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { loadConfiguredMasterKey, openStore } from './app.js';
import type { Config } from './core/config.js';
import {
  DEFAULT_KEY_FILE,
  MasterKeyError,
  NEXT_KEY_SUFFIX,
  generateMasterKey,
  keyIdOf,
  readKeyFileIfAny,
  writeKeyFile,
} from './core/keyring.js';
import type { Logger } from './core/log.js';
import { StoreLockedError, type Store } from './store/port.js';
import { attachKeyring, rotateStoreKey } from './store/master-key.js';

/** A rotation that cannot be done as asked (the message says what to do instead). */
export class RotationError extends Error {
  override name = 'RotationError';
}

export async function rotateMasterKey(
  config: Config,
  opts: { newKeyFile?: string | undefined; log: Logger; now?: () => Date },
): Promise<string> {
  const now = opts.now ?? (() => new Date());
  if (!config.masterKey && !existsSync(path.join(config.dataDir, DEFAULT_KEY_FILE)) && !config.databaseUrl) {
    throw new RotationError(
      `no master key yet in ${config.dataDir} (it is created at the first start): nothing to rotate`,
    );
  }
  const loaded = await loadConfiguredMasterKey(config, opts.log);
  const target = opts.newKeyFile !== undefined ? path.resolve(opts.newKeyFile) : undefined;
  if (target === undefined && loaded.file === undefined) {
    throw new RotationError(
      'the master key comes from SVC_MASTER_KEY: pass --new-key-file PATH (the new key is written there, or read from it when it exists)',
    );
  }
  let store: Store;
  try {
    store = await openStore(config);
  } catch (err) {
    if (err instanceof StoreLockedError)
      throw new RotationError(`${err.message}; stop the service before rotating the master key`);
    throw err;
  }
  let oldId: string;
  let newId: string;
  let records: number;
  const next = loaded.file !== undefined ? loaded.file + NEXT_KEY_SUFFIX : undefined;
  try {
    // Checks the current key against the store (and finishes an interrupted rotation, which may change it).
    const { key: current } = await attachKeyring(store, loaded, now());
    let fresh: Buffer;
    if (target !== undefined) {
      fresh = (await readKeyFileIfAny(target)) ?? generateMasterKey();
      if (!existsSync(target)) await writeKeyFile(target, fresh);
    } else {
      // A leftover `.next` the store is not under (attachKeyring adopts one it is under): a rotation that failed
      // before its commit. Replaced by a new one.
      if (existsSync(next!)) await unlink(next!);
      fresh = generateMasterKey();
      await writeKeyFile(next!, fresh);
    }
    if (keyIdOf(fresh) === keyIdOf(current)) throw new MasterKeyError('the new master key is the current one');
    records = await rotateStoreKey(store, current, fresh, now());
    oldId = keyIdOf(current);
    newId = keyIdOf(fresh);
  } finally {
    await store.close();
  }
  if (target === undefined) {
    await rename(next!, loaded.file!);
    return `Re-sealed ${records} record(s) from master key ${oldId} to ${newId}; ${loaded.file} now holds the new key. The old key opens nothing any more.\n`;
  }
  return (
    `Re-sealed ${records} record(s) from master key ${oldId} to ${newId}. The new key is in ${target}: ` +
    `start the service with SVC_MASTER_KEY_FILE=${target} (the old key opens nothing any more).\n`
  );
}

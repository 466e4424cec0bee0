/**
 * Vault files on disk: uploads encrypted as they stream in (src/vaults/stream.ts) into a staging file, moved under
 * the account's directory once the item is recorded, and read back decrypting as they stream out. Directories are
 * 0700 and files 0600; nothing readable is ever written, not even in staging. Items added in a JSON body keep their
 * content in the record instead (`file` null); both are read through `itemBody`.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline, Readable } from 'node:stream';
import { pipeline as pipelineAsync } from 'node:stream/promises';
import { ApiError } from '../core/errors.js';
import { aad, type DataKey } from './crypto.js';
import type { VaultItemRecord } from './records.js';
import { decryptStream, encryptStream, TamperedFileError } from './stream.js';

/** The largest vault upload unless configured (SVC_VAULT_MAX_FILE). */
export const DEFAULT_VAULT_UPLOAD_BYTES = 25 * 1024 * 1024;

const STAGING_ID = /^[0-9a-f]{32}$/;
const SAFE_ID = /^[A-Za-z0-9_-]+$/;

export const vaultFilesDir = (dataDir: string) => path.join(dataDir, 'vault-files');
export const vaultStagingDir = (dataDir: string) => path.join(vaultFilesDir(dataDir), '.staging');
export const newStagingId = () => randomBytes(16).toString('hex');

/** Where an item's file lives. Both ids come from the service (the principal, a generated id), never from input. */
export function itemFilePath(dataDir: string, ownerId: string, file: string): string {
  if (!SAFE_ID.test(ownerId) || !/^[A-Za-z0-9_-]+\.svcvf$/.test(file)) throw new Error('unexpected vault file name');
  return path.join(vaultFilesDir(dataDir), ownerId, file);
}

export const stagedPath = (dataDir: string, stagingId: string) => {
  if (!STAGING_ID.test(stagingId)) throw new Error('unexpected staging id');
  return path.join(vaultStagingDir(dataDir), stagingId);
};

export interface StageOptions {
  stagingId: string;
  /** The configured largest upload (413 past it). */
  limit: number;
  /** The room reserved in the storage quota, and the error past it. */
  cap?: { bytes: number; refuse: (size: number) => ApiError };
  /** Given the file's first bytes (up to HEAD_BYTES) once they are read: a sealed item's format is checked on them. */
  onHead?: (head: Buffer) => void;
}

/** How much of a file's start `onHead` is given. */
export const HEAD_BYTES = 64;

/**
 * Streams an upload through the item's encryption into a staging file, counting the plaintext: past the limit or
 * the reserved room it is refused (413) and the staging file removed; an empty file is refused (400). Resolves the
 * plaintext's size. Memory holds at most a chunk and what the parser hands over at once.
 */
export async function stageEncrypted(
  dataDir: string,
  source: Readable,
  key: DataKey,
  ids: { vaultId: string; itemId: string },
  opts: StageOptions,
): Promise<number> {
  await mkdir(vaultStagingDir(dataDir), { recursive: true, mode: 0o700 });
  const file = stagedPath(dataDir, opts.stagingId);
  let size = 0;
  const tooLarge = () =>
    new ApiError('PAYLOAD_TOO_LARGE', `A vault file may be at most ${opts.limit} bytes.`, [
      { field: 'file', reason: `larger than ${opts.limit} bytes` },
    ]);
  const head: Buffer[] = [];
  let headBytes = 0;
  async function* counted(): AsyncGenerator<Buffer> {
    for await (const chunk of source as AsyncIterable<Buffer>) {
      if (headBytes < HEAD_BYTES) {
        head.push(chunk.subarray(0, HEAD_BYTES - headBytes));
        headBytes += Math.min(chunk.length, HEAD_BYTES - headBytes);
      }
      size += chunk.length;
      if (size > opts.limit) throw tooLarge();
      if (opts.cap && size > opts.cap.bytes) throw opts.cap.refuse(size);
      yield chunk;
    }
  }
  const out = createWriteStream(file, { mode: 0o600, flags: 'wx' });
  // The file opens asynchronously: the removal below waits for the stream to close, or a late open would create it
  // again after the removal.
  const closed = new Promise<void>((resolve) => out.once('close', () => resolve()));
  try {
    await pipelineAsync(counted(), encryptStream(key, aad.itemContent(ids.vaultId, ids.itemId)), out);
    // @fastify/multipart marks a file cut at its own limit as truncated.
    if ((source as Readable & { truncated?: boolean }).truncated) throw tooLarge();
    if (size === 0) throw ApiError.validation('Empty file', [{ field: 'file', reason: 'at least one byte' }]);
    opts.onHead?.(Buffer.concat(head));
  } catch (err) {
    source.resume();
    if (!out.closed) await closed;
    await rm(file, { force: true });
    throw err;
  }
  return size;
}

export async function discardStaged(dataDir: string, stagingId: string): Promise<void> {
  if (STAGING_ID.test(stagingId)) await rm(stagedPath(dataDir, stagingId), { force: true });
}

/** Moves a staged file to its item's place; resolves the stored file name. */
export async function keepStaged(dataDir: string, stagingId: string, ownerId: string, itemId: string) {
  const name = `${itemId}.svcvf`;
  const target = itemFilePath(dataDir, ownerId, name);
  await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
  await rename(stagedPath(dataDir, stagingId), target);
  return name;
}

/** Removes the files of items deleted from the store (a file already gone is no error). */
export async function removeItemFiles(dataDir: string | undefined, items: readonly VaultItemRecord[]): Promise<void> {
  for (const i of items) {
    if (i.file && dataDir) await rm(itemFilePath(dataDir, i.ownerId, i.file), { force: true });
  }
}

const damaged = () =>
  new ApiError('INTERNAL_ERROR', "This item's stored file is damaged or was altered: it does not open.");

/** An item's content, opened on demand: whole in memory (small items) or as a decrypting stream. */
export interface ItemBody {
  size: number;
  /** Whether the content is in a file (uploaded) rather than in the record. */
  inFile: boolean;
  /** The whole content; for records and files alike. */
  bytes(): Promise<Buffer>;
  /**
   * The content as a stream. A file is read twice: once to check every chunk (a damaged file is refused before
   * anything is sent), then decrypting as it is sent; a file altered between the two fails at the altered chunk.
   */
  open(): Promise<Readable>;
}

const CHUNK = 64 * 1024;

export function itemBody(dataDir: string | undefined, key: DataKey, item: VaultItemRecord): ItemBody {
  const label = aad.itemContent(item.vaultId, item.id);
  if (!item.file) {
    const bytes = () => key.decrypt(item.content, label);
    return {
      size: item.size,
      inFile: false,
      bytes: async () => bytes(),
      open: async () => {
        const content = bytes();
        return Readable.from(
          (function* () {
            for (let at = 0; at < content.length; at += CHUNK) yield content.subarray(at, at + CHUNK);
          })(),
          { objectMode: false },
        );
      },
    };
  }
  if (!dataDir) throw new Error('a vault file needs the data directory');
  const file = itemFilePath(dataDir, item.ownerId, item.file);
  // Chained so that each end tears down the other: a read error fails the decryption, and a reader that stops (a
  // client gone mid-download) closes the file, which `pipe` would leave open, paused, for as long as the process
  // lives (holding the disk space of an item deleted meanwhile).
  const decrypted = (): Readable => pipeline(createReadStream(file), decryptStream(key, label), () => {});
  const drain = async (keep: Buffer[] | undefined) => {
    try {
      for await (const chunk of decrypted()) keep?.push(chunk as Buffer);
    } catch (err) {
      if (err instanceof TamperedFileError || (err as NodeJS.ErrnoException).code === 'ENOENT') throw damaged();
      throw err;
    }
  };
  return {
    size: item.size,
    inFile: true,
    bytes: async () => {
      const parts: Buffer[] = [];
      await drain(parts);
      return Buffer.concat(parts);
    },
    open: async () => {
      await drain(undefined);
      return decrypted();
    },
  };
}

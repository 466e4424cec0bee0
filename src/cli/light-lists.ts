// The early answers to the first lists of `svc mcp` (docs/architecture.md, "The first lists of svc mcp"), loaded by
// ./light.ts once `initialize` is answered: the manifest, the light key check and the data file's reader. The build
// bundles it with what it imports into one file (scripts/bundle-light.mjs).
import { readFileSync } from 'node:fs';
import type { Config } from '../core/config.js';
import { KEY_COLLECTIONS, lightAdmit } from '../access/light-key.js';
import { decodeManifest, type EarlyLists, type Manifest, manifestLists } from '../mcp/manifest.js';
import { peekLowdb } from '../store/lowdb/peek.js';

/**
 * From the build-time manifest (`manifestUrl`: none there when run from the sources), for the verdict of
 * the light key check on the configured key, read from the data file without opening the store. None when there is no
 * manifest (run from the sources), or when the answer depends on more than that file: PostgreSQL (SVC_DATABASE_URL)
 * or a rate limiter shared with other instances (SVC_REDIS_URL), whose counts this process cannot know; a data
 * directory another process holds (the store would not open) leaves lists to the server.
 */
export async function firstLists(config: Config, manifestUrl: URL): Promise<EarlyLists | undefined> {
  if (config.databaseUrl !== undefined || config.redisUrl !== undefined) return undefined;
  // Read at once: an asynchronous read's steps each wait for a turn of the event loop, which the program's loading
  // keeps busy (it took 1.5 ms longer); from the page cache this takes a fraction of a millisecond.
  let manifest: Manifest<Buffer> | undefined;
  try {
    manifest = decodeManifest(readFileSync(manifestUrl));
  } catch {
    return undefined;
  }
  if (!manifest) return undefined;
  const records = peekLowdb(config.dataDir, KEY_COLLECTIONS);
  const verdict = records.then((r) =>
    r === 'locked' ? undefined : lightAdmit(r, config.apiKey, '127.0.0.1', new Date()),
  );
  await verdict.catch(() => undefined);
  return manifestLists(manifest, verdict);
}

/**
 * The text of the lowdb store's data files in a data directory: the snapshot (svc.json) and the journal of the
 * changes since (svc.journal, when there is one). A value that must not be kept on disk must be in neither.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export async function storeFiles(dataDir: string): Promise<string> {
  let out = '';
  for (const name of ['svc.json', 'svc.journal']) {
    out += await readFile(path.join(dataDir, name), 'utf8').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return '';
      throw err;
    });
  }
  return out;
}

import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openLowdbStore } from '../../src/store/index.js';
import { describeStoreContract } from './contract.js';

describeStoreContract('lowdb', async (indexes) => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'svc-store-contract-'));
  const store = await openLowdbStore({ dataDir, indexes });
  return {
    store,
    async cleanup() {
      await store.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
});

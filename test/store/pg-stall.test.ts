/**
 * A PostgreSQL server that stops answering (every process paused with SIGSTOP, as in a network partition without a
 * reset): statements time out, the request rejects with StoreUnavailableError instead of hanging, and the store
 * works again once the server answers.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../src/store/port.js';
import { openPostgresStore } from '../../src/store/postgres/index.js';
import { startOwnPostgres, type OwnEngine } from '../support/engines.js';

let own: OwnEngine;

/** The server and its backends: the postmaster started by the test support and its children (by pid, nothing else). */
function serverPids(): number[] {
  const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(own.pid)], { encoding: 'utf8' })
    .split('\n')
    .map((l) => Number(l.trim()))
    .filter((n) => n > 0);
  return [own.pid, ...children];
}

function signalAll(sig: NodeJS.Signals): void {
  for (const pid of serverPids()) {
    try {
      process.kill(pid, sig);
    } catch {
      // exited meanwhile
    }
  }
}

beforeAll(async () => {
  own = await startOwnPostgres();
}, 90_000);

afterAll(async () => {
  if (own) signalAll('SIGCONT');
  await own?.stop();
});

describe('a stalled PostgreSQL', () => {
  it('fails statements with StoreUnavailableError after the query timeout, writes nothing, and recovers', async () => {
    const store = await openPostgresStore({
      url: own.url,
      indexes: { items: [] },
      queryTimeoutMs: 1000,
      queueTimeoutMs: 2000,
      connectTimeoutMs: 1000,
    });
    try {
      await store.put('items', { id: 'before', n: 1 });
      signalAll('SIGSTOP');
      let resumed = false;
      try {
        await expect(
          store.transact(async (tx) => {
            await tx.put('items', { id: 'stalled', n: 2 });
            await tx.put('items', { id: 'stalled-2', n: 3 });
          }),
        ).rejects.toThrow(StoreUnavailableError);
        await expect(store.get('items', 'before')).rejects.toThrow(StoreUnavailableError);
      } finally {
        signalAll('SIGCONT');
        resumed = true;
      }
      expect(resumed).toBe(true);
      // Answers again by itself, and nothing of the failed transaction was written.
      let back = false;
      for (let i = 0; i < 50 && !back; i++) {
        back = await store.get('items', 'before').then(
          () => true,
          () => false,
        );
        if (!back) await new Promise((r) => setTimeout(r, 100));
      }
      expect(back).toBe(true);
      expect(await store.get('items', 'stalled')).toBeUndefined();
      expect(await store.get('items', 'stalled-2')).toBeUndefined();
      await store.put('items', { id: 'after', n: 4 });
      expect(await store.count('items')).toBe(2);
    } finally {
      await store.close();
    }
  }, 60_000);
});

/**
 * Crash test: 1000 events queued for a local HTTPS receiver; the dispatcher
 * process is SIGKILLed after about 300 deliveries arrived, then restarted.
 * Every event id must arrive at least once; only deliveries in flight at the
 * kill may arrive twice.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { DELIVERIES, recordEvent, type DeliveryRecord } from '../../src/events/events.js';
import { openLowdbStore } from '../../src/store/index.js';
import { WEBHOOK_INDEXES, createWebhook } from '../../src/webhooks/index.js';
import { deps, hasOpenssl, makeCert, startReceiver } from './helpers.js';

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'dispatcher-child.ts');
const EVENTS = 1000;
const KILL_AFTER = 300;
// The child's maxConcurrent is 32 and claims run 8 ahead (default): at most 256 deliveries are claimed and unconfirmed.
const MAX_IN_FLIGHT = 256;

function startChild(
  dataDir: string,
  caFile: string,
): { child: ChildProcess; ready: Promise<void>; output: () => string; exited: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dataDir, caFile], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const ready = new Promise<void>((resolve, reject) => {
    const check = () => (out.includes('ready') ? resolve() : undefined);
    child.stdout!.on('data', check);
    child.on('exit', (code) => reject(new Error(`child exited early (${code}): ${err}`)));
  });
  ready.catch(() => undefined);
  // 'close', not 'exit': only then has all of the child's output been read.
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, ready, output: () => out, exited };
}

const until = async (cond: () => boolean, ms: number, what: string) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe.skipIf(!hasOpenssl())('webhook delivery survives SIGKILL', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'svc-wh-crash-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('delivers every event at least once across a kill and restart', { timeout: 120_000 }, async () => {
    const tls = makeCert();
    const caFile = path.join(dir, 'ca.pem');
    writeFileSync(caFile, tls.cert);
    const dataDir = path.join(dir, 'data');

    const arrivals = new Map<string, number>();
    let total = 0;
    let onArrival: () => void = () => undefined;
    const receiver = await startReceiver(tls, (req) => {
      const id = (JSON.parse(req.body) as { id: string }).id;
      arrivals.set(id, (arrivals.get(id) ?? 0) + 1);
      total++;
      onArrival();
      return 200;
    });

    // Queue 1000 events (and their deliveries) durably, then hand the store to the child.
    const expected: string[] = [];
    {
      const store = await openLowdbStore({ dataDir, indexes: WEBHOOK_INDEXES });
      await createWebhook(deps(store, systemClock), 'own_crash', { url: receiver.url(), events: ['*'] });
      for (let b = 0; b < EVENTS / 100; b++) {
        const ids = await store.transact(async (tx) => {
          const out: string[] = [];
          for (let i = 0; i < 100; i++)
            out.push(
              (
                await recordEvent(
                  tx,
                  { type: 'contract.generated', ownerId: 'own_crash', data: { n: b * 100 + i } },
                  systemClock,
                )
              ).id,
            );
          return out;
        });
        expected.push(...ids);
      }
      await store.close();
    }

    // First run: killed after ~300 arrivals.
    const first = startChild(dataDir, caFile);
    await first.ready;
    onArrival = () => {
      if (total >= KILL_AFTER && first.child.exitCode === null && !first.child.killed) first.child.kill('SIGKILL');
    };
    await first.exited;
    const atKill = total;
    expect(atKill).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(arrivals.size).toBeLessThan(EVENTS);

    // Second run: picks up every delivery not confirmed.
    onArrival = () => undefined;
    const second = startChild(dataDir, caFile);
    await second.ready;
    await until(() => arrivals.size === EVENTS, 90_000, 'every event to arrive');
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    const stats = JSON.parse(second.output().split('stats ')[1]!) as { recovered: number };
    await receiver.close();

    const duplicates = total - EVENTS;
    process.stderr.write(
      `[webhooks crash] ${EVENTS} events, killed after ${atKill} arrivals; after restart ${arrivals.size} distinct ids, ${total} requests, ` +
        `${duplicates} duplicates, ${stats.recovered} leases recovered\n`,
    );
    for (const id of expected) expect(arrivals.get(id) ?? 0, id).toBeGreaterThanOrEqual(1);
    // Only deliveries in flight at the kill (claimed, not confirmed) may repeat.
    expect(duplicates).toBeLessThanOrEqual(stats.recovered);
    expect(stats.recovered).toBeLessThanOrEqual(MAX_IN_FLIGHT);
    for (const [, n] of arrivals) expect(n).toBeLessThanOrEqual(2);

    const store = await openLowdbStore({ dataDir, indexes: WEBHOOK_INDEXES });
    try {
      const ds = await store.all<DeliveryRecord>(DELIVERIES);
      expect(ds).toHaveLength(EVENTS);
      expect(ds.filter((d) => d.state !== 'succeeded')).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

/**
 * Vault files: a file uploaded to `svc serve` (its own process) as multipart/form-data and downloaded back, for
 * 25 MiB and 200 MiB. Printed: the time each way and the server's peak resident memory (VmHWM) before and after.
 * The client makes and hashes the body as it streams, 1 MiB at a time, so only the server's memory is measured. A
 * peak that does not grow with the file shows it is never held whole. Baseline: the same server's peak before.
 *
 *   npx tsx bench/vaults.ts [MiB ...]
 */
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { closeServices } from '../src/app.js';
import { startTestServer, tmpDir } from '../test/helpers.js';
import { startServe } from '../test/support/cli.js';
import { fmt, isMain } from './util.js';

const procMiB = (pid: number, field: 'VmRSS' | 'VmHWM') =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

async function once(mib: number): Promise<void> {
  const { dir, cleanup } = await tmpDir('svc-bench-vault-');
  // The key is made in the store before the server takes the data directory.
  const setup = await startTestServer({ config: { dataDir: dir }, listen: false });
  const key = await setup.key({ tier: 'public', scopes: ['vaults'], ownerId: await setup.account() });
  await setup.app.close();
  await closeServices(setup.services);
  const size = mib * 1024 * 1024;
  const served = await startServe(dir, {
    SVC_DEV: '1',
    // The contract engines would warm in the background meanwhile (200 to 300 MiB of compilers loading in their
    // workers), and count in the server's peak as if the file had taken it.
    SVC_WARM_ENGINES: '0',
    SVC_VAULT_MAX_FILE: String(size),
    SVC_STORAGE_QUOTA_BYTES: String(4 * size),
  });
  const pid = served.child.pid!;
  try {
    const auth = { authorization: `Bearer ${key}` };
    const vault = (await (
      await fetch(`${served.url}/api/v1/vaults`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'bench' }),
      })
    ).json()) as { data: { id: string } };
    const boundary = 'svc-bench-boundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nbench\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="heirs"\r\n\r\n0x${'2'.repeat(40)}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const sent = createHash('sha256');
    async function* body() {
      yield head;
      for (let at = 0; at < size; at += 1024 * 1024) {
        const chunk = randomBytes(Math.min(1024 * 1024, size - at));
        sent.update(chunk);
        yield chunk;
      }
      yield tail;
    }
    const peakBefore = procMiB(pid, 'VmHWM');
    let t = performance.now();
    const up = await fetch(`${served.url}/api/v1/vaults/${vault.data.id}/items/upload`, {
      method: 'POST',
      headers: {
        ...auth,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(head.length + size + tail.length),
      },
      body: body() as unknown as BodyInit,
      duplex: 'half',
    } as RequestInit);
    const item = (await up.json()) as { data: { id: string } };
    if (up.status !== 201) throw new Error(`upload answered ${up.status}`);
    const upMs = performance.now() - t;
    const peakUp = procMiB(pid, 'VmHWM');
    t = performance.now();
    const res = await fetch(`${served.url}/api/v1/vaults/${vault.data.id}/files/${item.data.id}`, { headers: auth });
    const got = createHash('sha256');
    for await (const c of res.body as unknown as AsyncIterable<Uint8Array>) got.update(c);
    const downMs = performance.now() - t;
    if (got.digest('hex') !== sent.digest('hex')) throw new Error('the download differs from the upload');
    console.log(
      `vault file ${mib} MiB: upload ${fmt(upMs, 0)} ms (${fmt(mib / (upMs / 1000), 1)} MiB/s), download ${fmt(downMs, 0)} ms ` +
        `(${fmt(mib / (downMs / 1000), 1)} MiB/s, the file read twice: checked, then sent); server peak memory ` +
        `${fmt(peakBefore, 0)} MiB before, ${fmt(peakUp, 0)} after the upload, ${fmt(procMiB(pid, 'VmHWM'), 0)} after the download`,
    );
  } finally {
    served.child.kill('SIGTERM');
    await served.exited;
    await cleanup();
  }
}

export async function benchVaults(sizes: string[] = []): Promise<void> {
  for (const mib of sizes.length ? sizes.map(Number) : [25, 200]) await once(mib);
}

if (isMain(import.meta.url)) await benchVaults(process.argv.slice(2));

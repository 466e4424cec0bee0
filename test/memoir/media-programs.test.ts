import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/core/config.js';
import { runAsQueueCaller } from '../../src/core/fair-queue.js';
import { configureMediaPrograms, mediaPrograms, run } from '../../src/memoir/exec.js';
import { photoForModel } from '../../src/memoir/photo-description.js';
import { startTestServer, tmpDir, type TestServer } from '../helpers.js';
import { until } from '../support/loop.js';
import { registerUser, sessionHeaders, type TestSession } from '../support/session.js';
import { grant, requireProgram } from './support.js';

// The memoir's programs (festival, ffmpeg, pocketsphinx) take a place each while they run: one place here, so that
// the order in which accounts are served shows.

let server: TestServer;
let work: { dir: string; cleanup: () => Promise<void> };

beforeAll(async () => {
  await requireProgram('text2wave', 'festival festvox-us-slt-hts');
  await requireProgram('ffmpeg', 'ffmpeg');
  server = await startTestServer({ config: { mediaConcurrency: 1 } });
  work = await tmpDir('svc-media-programs-');
}, 60_000);
afterAll(async () => {
  await server?.close();
  await work?.cleanup();
  configureMediaPrograms(undefined, undefined);
});

describe('the memoir programs and photos', () => {
  it('are sized by SVC_MEDIA_CONCURRENCY, a positive whole number (default: one per core)', () => {
    expect(mediaPrograms.size).toBe(1);
    expect(loadConfig({}, {}).mediaConcurrency).toBeUndefined();
    expect(loadConfig({}, { SVC_MEDIA_CONCURRENCY: '3' }).mediaConcurrency).toBe(3);
    for (const bad of ['0', '-1', '1.5', 'many'])
      expect(() => loadConfig({}, { SVC_MEDIA_CONCURRENCY: bad }), bad).toThrow(/SVC_MEDIA_CONCURRENCY/);
  });

  it('run one at a time with one place, and serve another account before the rest of a first one', async () => {
    const lock = path.join(work.dir, 'lock');
    const overlaps = path.join(work.dir, 'overlaps');
    // A second program running beside the first finds the lock taken and says so.
    const script = `mkdir "${lock}" 2>/dev/null || echo overlap >> "${overlaps}"; sleep 0.2; rmdir "${lock}" 2>/dev/null; true`;
    const order: string[] = [];
    const job = (account: string, label: string) =>
      runAsQueueCaller({ account, weight: 1 }, () => run('sh', ['-c', script])).then(() => void order.push(label));
    const a = ['a1', 'a2', 'a3', 'a4'].map((label) => job('acct_A', label));
    await until(() => mediaPrograms.queued === 3);
    const b = job('acct_B', 'b');
    await Promise.all([...a, b]);
    expect(existsSync(overlaps)).toBe(false);
    expect(order).toEqual(['a1', 'b', 'a2', 'a3', 'a4']);
  });

  it('give photo scaling a place too: one at a time, another account before the rest of a first one', async () => {
    const sharp = (await import('sharp')).default;
    const photo = path.join(work.dir, 'photo.png');
    await sharp({ create: { width: 1600, height: 1200, channels: 3, background: '#3366aa' } })
      .png()
      .toFile(photo);
    // A program holds the one place while the photos queue behind it.
    const lock = path.join(work.dir, 'hold');
    const held = runAsQueueCaller({ account: 'acct_C', weight: 1 }, () =>
      run('sh', ['-c', `touch "${lock}"; sleep 0.3`]),
    );
    await until(() => existsSync(lock));
    const order: string[] = [];
    const scale = (account: string, label: string) =>
      runAsQueueCaller({ account, weight: 1 }, () => photoForModel(photo)).then((jpeg) => {
        expect(jpeg.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
        order.push(label);
      });
    const a = ['a1', 'a2', 'a3'].map((label) => scale('acct_A', label));
    await until(() => mediaPrograms.queued === 3);
    const b = scale('acct_B', 'b');
    await until(() => mediaPrograms.queued === 4);
    await Promise.all([held, ...a, b]);
    // B waits for at most one of A's (the two tie once the place frees); A's keep their order.
    expect(order.indexOf('b')).toBeLessThanOrEqual(1);
    expect(order.filter((l) => l !== 'b')).toEqual(['a1', 'a2', 'a3']);
  });

  it("answers one account's speech before the last of another's three sent before it", async () => {
    const users: TestSession[] = [await registerUser(server.app), await registerUser(server.app)];
    for (const u of users) await grant(server, u.accountId, 200);
    const [a, b] = users as [TestSession, TestSession];
    const answered: string[] = [];
    const speak = (who: TestSession, label: string) =>
      server.app
        .inject({
          method: 'POST',
          url: '/api/v1/svcloom/voice/synthesize',
          headers: sessionHeaders(who, { csrf: true }),
          payload: { text: `apple trees, ${label}` },
        })
        .then((res) => {
          expect(res.statusCode, res.body).toBe(200);
          answered.push(label);
        });
    const fromA = ['a1', 'a2', 'a3'].map((label) => speak(a, label));
    await until(() => mediaPrograms.queued >= 2);
    const fromB = speak(b, 'b');
    await Promise.all([...fromA, fromB]);
    // First come, first served would answer b last: its programs would wait behind all of A's.
    expect(answered.indexOf('b')).toBeLessThan(answered.indexOf('a3'));
  }, 120_000);
});

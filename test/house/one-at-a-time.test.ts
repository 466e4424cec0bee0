import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tmpDir } from '../helpers.js';
import { spreadOut } from '../sequencer.js';
import { exclusiveLockDir, runsAlone, takeExclusive } from '../support/exclusive.js';

// The suite's files that need PostgreSQL or Redis to themselves run beside the process group's other files, one at a
// time (test/support/exclusive.ts, vitest.config.ts): the lock that makes them wait, and the order that spreads them.

let tmp: Awaited<ReturnType<typeof tmpDir>>;
beforeAll(async () => {
  tmp = await tmpDir('svc-one-at-a-time-');
});
afterAll(() => tmp.cleanup());

/** Resolves after a few of the lock's polls (50 ms each): long enough for a free lock to have been taken. */
const afterSomePolls = () => new Promise((r) => setTimeout(r, 300));

describe('the lock', () => {
  it('makes a second taker wait until the first gives it back, then lets it in', async () => {
    const dir = path.join(tmp.dir, 'lock-a');
    const releaseFirst = await takeExclusive(dir);
    const order: string[] = [];
    const second = takeExclusive(dir).then((release) => {
      order.push('second in');
      return release;
    });
    await afterSomePolls();
    order.push('first out');
    releaseFirst();
    const releaseSecond = await second;
    expect(order).toEqual(['first out', 'second in']);
    releaseSecond();
    expect(existsSync(dir)).toBe(false);
  });

  it('is taken over from a holder that died', async () => {
    const dir = path.join(tmp.dir, 'lock-b');
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'pid'), String(dead));
    const release = await takeExclusive(dir);
    release();
  });

  it('is taken over when its maker died before writing its pid, not while the maker may still write it', async () => {
    const dir = path.join(tmp.dir, 'lock-c');
    mkdirSync(dir);
    let taken = false;
    const waiting = takeExclusive(dir).then((release) => {
      taken = true;
      return release;
    });
    await afterSomePolls();
    expect(taken).toBe(false);
    const old = new Date(Date.now() - 60_000);
    utimesSync(dir, old, old);
    (await waiting)();
    expect(taken).toBe(true);
  });

  it('lives in the run build directory when there is one', () => {
    const build = process.env.SVC_BUILD_DIR;
    if (build) expect(path.dirname(exclusiveLockDir())).toBe(build);
    else expect(exclusiveLockDir()).toMatch(/svc-test-one-at-a-time$/);
  });
});

describe('the files and their order', () => {
  it('names the PostgreSQL and Redis files, and no other', () => {
    expect(runsAlone('test/store/pg-contract.test.ts')).toBe(true);
    // as vitest names them: absolute paths
    expect(runsAlone(path.join(import.meta.dirname, '..', 'store', 'pg.test.ts'))).toBe(true);
    expect(runsAlone(path.join(import.meta.dirname, '..', 'store', 'durability.test.ts'))).toBe(false);
    expect(runsAlone('test/scale/instances.test.ts')).toBe(true);
    expect(runsAlone('test/keys/redis-limiter.test.ts')).toBe(true);
    expect(runsAlone('test/scale/outbox.test.ts')).toBe(false);
    expect(runsAlone('test/store/durability.test.ts')).toBe(false);
  });

  it('keeps the long files first and puts the lone ones between the others, each file once', () => {
    const files = ['L1', 'L2', 'a', 'b', 'c', 'd', 'e', 'f', 'X1', 'X2', 'X3'];
    const out = spreadOut(
      files,
      (f) => f.startsWith('X'),
      (f) => f.startsWith('L'),
    );
    expect([...out].sort()).toEqual([...files].sort());
    expect(out.slice(0, 2)).toEqual(['L1', 'L2']);
    expect(out).toEqual(['L1', 'L2', 'a', 'b', 'X1', 'c', 'd', 'X2', 'e', 'f', 'X3']);
    // never two lone files one after the other while others are left to put between them
    for (let i = 1; i < out.length; i++) expect(out[i]!.startsWith('X') && out[i - 1]!.startsWith('X')).toBe(false);
  });

  it('leaves a group without lone files as it is, and puts lone ones last when there is nothing to spread them in', () => {
    expect(
      spreadOut(
        ['b', 'a'],
        () => false,
        () => false,
      ),
    ).toEqual(['b', 'a']);
    expect(
      spreadOut(
        ['X1', 'L', 'X2'],
        (f) => f.startsWith('X'),
        (f) => f === 'L',
      ),
    ).toEqual(['L', 'X1', 'X2']);
  });
});

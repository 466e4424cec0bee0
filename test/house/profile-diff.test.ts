/**
 * scripts/profile-diff.ts, the comparison of two CPU profiles per unit of work that the performance notes in
 * docs/architecture.md come from: checked on small profiles made here, whose answers are known.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  busyPerUnit,
  compare,
  type CpuProfile,
  labelOf,
  mainThreadProfile,
  timesByLabel,
} from '../../scripts/profile-diff.js';

const frame = (functionName: string, url = '', lineNumber = 0) => ({ functionName, url, lineNumber });

/**
 * (root) -> handle (the service's compiled code) -> send (a package) -> (writev, native);
 *        -> handle -> handle (recursion) ;  (idle) ; (garbage collector)
 */
function profile(): CpuProfile {
  return {
    nodes: [
      { id: 1, callFrame: frame('(root)'), children: [2, 6, 7] },
      { id: 2, callFrame: frame('handle', 'file:///srv/svc/dist/http/app.js', 9), children: [3, 5] },
      { id: 3, callFrame: frame('send', 'file:///srv/svc/node_modules/undici/lib/client.js', 99), children: [4] },
      { id: 4, callFrame: frame('writev') },
      { id: 5, callFrame: frame('handle', 'file:///srv/svc/dist/http/app.js', 9) },
      { id: 6, callFrame: frame('(idle)') },
      { id: 7, callFrame: frame('(garbage collector)') },
    ],
    samples: [2, 3, 4, 4, 5, 6, 7, 2],
    timeDeltas: [100, 200, 300, 300, 50, 5000, 40, 100],
  };
}

describe('profile-diff', () => {
  it('names frames by function and script, from the package or the compiled tree on', () => {
    expect(labelOf(frame('handle', 'file:///srv/svc/dist/http/app.js', 9), 'function')).toBe(
      'handle dist/http/app.js:10',
    );
    expect(labelOf(frame('send', 'file:///srv/svc/node_modules/undici/lib/client.js', 99), 'file')).toBe(
      'undici/lib/client.js',
    );
    expect(labelOf(frame('writev'), 'function')).toBe('(writev)');
    expect(labelOf(frame('(idle)'), 'function')).toBe('(idle)');
    expect(labelOf(frame(''), 'file')).toBe('(anonymous)');
  });

  it("counts a function's own time, and with --inclusive everything under it once, recursion included", () => {
    const self = timesByLabel(profile(), 'function', false);
    expect(Object.fromEntries(self)).toEqual({
      'handle dist/http/app.js:10': 250,
      'send undici/lib/client.js:100': 200,
      '(writev)': 600,
      '(idle)': 5000,
      '(garbage collector)': 40,
    });
    const inclusive = timesByLabel(profile(), 'function', true);
    // handle's samples (200 + 50 in the inner call) and those of what it called (200 + 600), each counted once.
    expect(inclusive.get('handle dist/http/app.js:10')).toBe(1050);
    expect(inclusive.get('send undici/lib/client.js:100')).toBe(800);
    expect(inclusive.get('(root)')).toBe(6090);
  });

  it('sums per script with --by=file', () => {
    const byFile = timesByLabel(profile(), 'file', false);
    expect(byFile.get('dist/http/app.js')).toBe(250);
    expect(byFile.get('undici/lib/client.js')).toBe(200);
  });

  it('compares per unit of work, the largest difference first, and leaves idle time out of the busy total', () => {
    const a = new Map([
      ['x', 1000],
      ['y', 4000],
      ['(idle)', 9000],
    ]);
    const b = new Map([
      ['x', 3000],
      ['z', 500],
      ['(idle)', 1000],
    ]);
    const rows = compare(a, 1000, b, 500);
    expect(rows.map((r) => [r.label, r.a, r.b])).toEqual([
      ['(idle)', 9, 2],
      ['x', 1, 6],
      ['y', 4, 0],
      ['z', 0, 1],
    ]);
    expect(busyPerUnit(a, 1000)).toBe(5);
    expect(busyPerUnit(b, 500)).toBe(7);
  });

  describe('reading a folder of profiles', () => {
    let dir: string;
    beforeEach(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 'svc-profile-diff-'));
    });
    afterEach(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it("takes the main thread's profile with the most samples, never a worker's", async () => {
      const small = { ...profile(), samples: [2], timeDeltas: [1] };
      const worker = { ...profile(), samples: [2, 2, 2, 2, 2, 2, 2, 2, 2, 2], timeDeltas: Array(10).fill(1) };
      await writeFile(path.join(dir, 'CPU.20261129.170000.100.0.001.cpuprofile'), JSON.stringify(small));
      await writeFile(path.join(dir, 'CPU.20261129.170000.200.0.001.cpuprofile'), JSON.stringify(profile()));
      await writeFile(path.join(dir, 'CPU.20261129.170000.200.1.002.cpuprofile'), JSON.stringify(worker));
      expect(mainThreadProfile(dir).samples).toEqual(profile().samples);
    });

    it('says so when the folder holds no main-thread profile', async () => {
      await writeFile(path.join(dir, 'CPU.20261129.170000.200.1.002.cpuprofile'), JSON.stringify(profile()));
      expect(() => mainThreadProfile(dir)).toThrow(/no main-thread profile/);
    });
  });
});

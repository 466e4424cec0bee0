/**
 * The order in which vitest hands test files to its workers: within each group (`sequence.groupOrder`), the files
 * known to take longest start first, the others after them in vitest's own order.
 *
 * Why: each group runs two files at a time and the next group starts only when its last file ends. vitest sorts by
 * the durations of the previous run when its cache has them, and otherwise (a clean clone, CI) by file size, which
 * put the longest files of a group (npm pack, the fuzzer, the kill loops) at its end: one worker ran them alone
 * while the other was idle. Starting them first lets the short files fill in around them.
 *
 * The list is ordered by each file's time on the project's machine (its hooks included), longest first. A file
 * missing from it only starts later; keep the slowest few of each group here (`npm run test:times` prints them).
 */
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { runsAlone } from './support/exclusive.js';

const LONGEST_FIRST = [
  // process
  'test/watch/watcher-kill-anvil.test.ts',
  'test/embed/wallet-browser.test.ts',
  'test/embed/locales-browser.test.ts',
  'test/scale/outbox.test.ts',
  'test/store/durability.test.ts',
  'test/memoir/voice.test.ts',
  'test/embed/browser.test.ts',
  'test/cli/pack.test.ts',
  'test/scale/redelivery.test.ts',
  'test/cli/cli.test.ts',
  'test/embed/review-browser.test.ts',
  'test/cli/first-lists.test.ts',
  'test/mcp/proxy.test.ts',
  // deep
  'test/access/fuzz-1.test.ts',
  'test/access/fuzz-2.test.ts',
  'test/access/matrix.test.ts',
  'test/contracts/evm/matrix-reference-a.test.ts',
  'test/contracts/ton/matrix-b.test.ts',
  'test/contracts/evm/matrix-templates.test.ts',
  'test/access/harness.test.ts',
  'test/contracts/evm/matrix-reference-b.test.ts',
  'test/contracts/ton/matrix-a.test.ts',
  'test/contracts/workers.test.ts',
  // unit
  'test/contracts/ton/generate.test.ts',
  'test/contracts/ton/compile.test.ts',
  'test/accounts/signin-limits.test.ts',
  'test/memoir/domain.test.ts',
  'test/contracts/evm/gas-independent.test.ts',
  'test/contracts/ton/behaviour.test.ts',
  'test/contracts/ton/owner-alive.test.ts',
  'test/contracts/evm/pool.test.ts',
];

export default class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const rank = (spec: TestSpecification): number => {
      const i = LONGEST_FIRST.indexOf(path.relative(root, spec.moduleId).split(path.sep).join('/'));
      return i < 0 ? LONGEST_FIRST.length : i;
    };
    const order = new Map(sorted.map((spec, i) => [spec, i]));
    sorted.sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        rank(a) - rank(b) ||
        order.get(a)! - order.get(b)!,
    );
    const groups = new Map<number, TestSpecification[]>();
    for (const spec of sorted) {
      const g = spec.project.config.sequence.groupOrder;
      if (!groups.get(g)?.push(spec)) groups.set(g, [spec]);
    }
    return [...groups.values()].flatMap((group) =>
      spreadOut(
        group,
        (spec) => runsAlone(spec.moduleId),
        (spec) => rank(spec) < LONGEST_FIRST.length,
      ),
    );
  }
}

/**
 * The files that run one at a time (test/support/exclusive.ts) spread evenly among the others of their group, after
 * its long files: a worker that picks one while another runs waits for it, and spread out, two rarely come up
 * together.
 */
export function spreadOut<T>(group: T[], alone: (file: T) => boolean, long: (file: T) => boolean): T[] {
  const lone = group.filter(alone);
  if (lone.length === 0) return group;
  const others = group.filter((f) => !alone(f));
  const tail = others.filter((f) => !long(f));
  const out = others.filter(long);
  const every = Math.max(1, Math.floor(tail.length / lone.length));
  tail.forEach((f, i) => {
    out.push(f);
    if ((i + 1) % every === 0 && lone.length > 0) out.push(lone.shift()!);
  });
  return [...out, ...lone];
}

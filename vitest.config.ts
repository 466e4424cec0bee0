import { defineConfig } from 'vitest/config';
import LongestFirstSequencer from './test/sequencer.js';
import { ONE_AT_A_TIME } from './test/support/exclusive.js';

/**
 * Three groups, one after the other (`sequence.groupOrder`):
 *
 * 1. "unit": everything not listed below, two files at a time (one per core), the files of a worker sharing loaded
 *    modules (not isolated). It is the quick loop while changing code (`npm run test:unit`, a couple of minutes).
 *
 * 2. "deep": the exhaustive suites, two files at a time: every contract shape of every template executed on its
 *    chain (the EVM and TON matrices, the solc worker pool), and every tool through the access matrix, the bad-input
 *    harness and the property-based fuzzer. They hold most of the suite's CPU time and run in `npm test`.
 *
 * 3. "process" (and "isolated"): files that start other programs (`svc` processes, which run the suite's fresh build
 *    of src/ made by test/global-build.ts, chromium, Spectral, redocly, pdftotext, festival, ffmpeg, pocketsphinx)
 *    but need nothing exclusive. Two at a time, sharing loaded modules: each mostly waits on its children, none of
 *    them measures time, and their waits for deliveries allow 15 s or more. The group keeps some 1.4 of the two cores
 *    busy, yet three at a time was slower (on a 2-core machine: 482 s against 423 s, the children's CPU included
 *    726 s against 603 s: more contention, and the loading of modules took twice as long; again on another machine of
 *    the kind, with a third worker in the unit group too and the deep files beside these: 864 s against 781 s, the
 *    same work taking 38% more CPU with both cores always busy). The OpenAPI examples test mocks
 *    `node:dns` and so needs a fresh module state: it runs in the same group from a project of its own, isolated.
 *
 *    A few of them run one at a time, beside the others (test/support/exclusive.ts): the PostgreSQL files that open
 *    up to ~40 connections each (three `svc serve` instances with pools of 10, concurrent claimers) of the machine's
 *    server's 100, shared with the other files here that use it (the outbox's instances up to ~25 at once) and
 *    whatever else runs there, and the Redis files, which share the machine's Redis. Each waits for a lock before its
 *    hooks run; the sequencer spreads them among the others (test/sequencer.ts), so that two rarely come up together.
 *    They had a group of their own, after this one: about a minute with the second core idle.
 *
 * Within a group the longest files start first (test/sequencer.ts), so that the short ones fill in beside them
 * rather than one long file running alone at the end of its group.
 *
 * The test time limits are generous, not tight: the first contract generation in a fresh worker starts solc and
 * the TON sandbox, and with two files running at once on two cores (or a loaded machine) such a test can take
 * 20-30 s. A hang still fails.
 */
// Checks the OpenAPI document's examples against a server that must start with a fresh module state (it mocks
// `node:dns`; the process group shares loaded modules between its files).
const ISOLATED = ['test/http/openapi-lint.test.ts'];

const DEEP = [
  'test/contracts/evm/matrix-*.test.ts',
  'test/contracts/ton/matrix-*.test.ts',
  'test/contracts/workers.test.ts',
  'test/access/{fuzz-*,matrix,harness}.test.ts',
];

const PROCESS = [
  'test/cli/{cli,accounts-quota,lazy-load,warm-engines,first-lists}.test.ts',
  // builds and packs a copy of the project (its own dist/), installs the tarball and runs `npx svc`
  'test/cli/pack.test.ts',
  // a node process using a worker pool must end by itself; one ending writes the log lines it held
  'test/core/{pool-exit,log-exit}.test.ts',
  'test/credits/cli.test.ts',
  'test/readme-mcp.test.ts',
  'test/mcp/stdio-contracts.test.ts',
  // waits for a cancelled compile to be counted by the remote server's pool (up to 30 s)
  'test/mcp/proxy.test.ts',
  // SIGKILLs a store writer twenty times: every kill follows an acknowledged write, whatever the machine's load, and
  // the test allows 150 s (about 35 s alone on a busy machine)
  'test/store/durability.test.ts',
  'test/mcp/parity.test.ts',
  'test/e2e/**/*.test.ts',
  'test/scale/{outbox,redelivery}.test.ts',
  'test/webhooks/crash.test.ts',
  // kills a store's process at each step of a journal append and compaction
  'test/store/journal-crash.test.ts',
  'test/mail/crash.test.ts',
  'test/embed/*browser.test.ts',
  // chromium walks the heirs' page against a server on 127.0.0.1
  'test/memoir/heir-page-browser.test.ts',
  'test/memoir/{export,book}.test.ts',
  // festival, ffmpeg and pocketsphinx make and read the media; the avatar fetch starts `svc serve`
  'test/memoir/{media,voice,avatar-fetch,heirs-media}.test.ts',
  // gpg and age seal and open vault items; the svc program rotates the master key
  'test/vaults/{vaults,upload,rotate-cli}.test.ts',
  'test/http/openapi-spectral.test.ts',
  // a real anvil node per file
  'test/contracts/package-anvil.test.ts',
  'test/contracts/deployments*.test.ts',
  // anvil, and the claims file also on PostgreSQL (one pool of the default size)
  'test/watch/watcher-*anvil.test.ts',
  // runs the generated TON deploy script with tsx, then the watcher's loop against the sandbox-backed TON API
  'test/watch/ton-lifecycle.test.ts',
];

export default defineConfig({
  test: {
    // `include` is set per project below (with `extends: true` a list here would be added to each project's list).
    // With SVC_TEST_CPU_LOG set (`npm run test:times`), each file's CPU and its programs' is logged there.
    setupFiles: ['test/support/cpu-account.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Spawned `svc` processes run a build of the sources made afresh for this run (test/global-build.ts), never a
    // dist/ left by an earlier build. SVC_DEV=1 is the fallback to the sources through tsx.
    globalSetup: ['test/global-build.ts'],
    sequence: { sequencer: LongestFirstSequencer },
    // The svc processes of the tests start their engines on first use: warming every pool in each of them would
    // cost the suite CPU it has not got (test/cli/warm-engines.test.ts checks the warm start).
    env: { SVC_DEV: '1', SVC_WARM_ENGINES: '0' },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: [...DEEP, ...PROCESS, ...ONE_AT_A_TIME, ...ISOLATED],
          maxWorkers: 2,
          // The files of a worker share loaded modules: each file no longer loads the whole service again (it was
          // a third of this group's time). They start their own servers and stores, leave process.env as they
          // found it, and a notice given once per process is tested on a fresh copy of its module.
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'deep',
          include: DEEP,
          maxWorkers: 2,
          // Shared modules here too: the matrices of one chain then share its compiled shapes and started engines.
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: 'process',
          include: [...PROCESS, ...ONE_AT_A_TIME],
          setupFiles: ['test/support/exclusive-setup.ts'],
          maxWorkers: 2,
          // Shared modules: each file no longer loads the helpers and the service again (8% less CPU for the group).
          isolate: false,
          sequence: { groupOrder: 2 },
        },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: ISOLATED,
          // the same as the process project's: projects sharing a group share its workers
          maxWorkers: 2,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});

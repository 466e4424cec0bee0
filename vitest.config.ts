import { defineConfig } from 'vitest/config';

/**
 * Test files that start other programs or engines: `svc` processes (each loads the TypeScript sources through tsx),
 * PostgreSQL/Redis (the machine's servers or throwaway ones), chromium, festival/ffmpeg/pocketsphinx, redocly.
 * They run one at a time, after the other files:
 *   - test/cli/pack.test.ts runs `npm pack`, whose `prepare` deletes and rebuilds dist/ (dist/embed is what the wizard
 *     assets are read from when it is newer than its sources): nothing else may run beside it;
 *   - the PostgreSQL files open up to ~40 connections each (three `svc serve` instances with pools of 10), and the
 *     machine's server allows 100, shared with whatever else runs there;
 *   - openapi-spectral runs Spectral (a process of its own) on the whole document;
 *   - the rest start several processes each, with little CPU to spare on two cores when another file runs beside them.
 * Everything else runs in two worker processes at once ("unit" below).
 */
const HEAVY = [
  'test/cli/**/*.test.ts',
  'test/credits/cli.test.ts',
  'test/readme-mcp.test.ts',
  'test/mcp/stdio-contracts.test.ts',
  'test/mcp/proxy.test.ts',
  'test/mcp/parity.test.ts',
  'test/e2e/**/*.test.ts',
  'test/scale/**/*.test.ts',
  'test/store/pg*.test.ts',
  'test/store/durability.test.ts',
  'test/credits/ledger-postgres.test.ts',
  'test/keys/redis-*.test.ts',
  'test/webhooks/crash.test.ts',
  'test/embed/*browser.test.ts',
  'test/memoir/{media,voice,export,avatar-fetch}.test.ts',
  'test/http/openapi-lint.test.ts',
  'test/http/openapi-spectral.test.ts',
];

export default defineConfig({
  test: {
    // `include` is set per project below (with `extends: true` a list here would be added to each project's list).
    // Generous, not tight: the first contract generation in a fresh worker loads solc and the TON sandbox, and with two
    // files running at once on two cores (or a loaded machine) such a test can take 20-30 s. A hang still fails.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Spawned `svc` processes run the TypeScript sources (tsx), never a dist/ left by an earlier build.
    env: { SVC_DEV: '1' },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: HEAVY,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'heavy',
          include: HEAVY,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});

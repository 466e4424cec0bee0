#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --max-semi-space-size=4
// Entry point of the `svc` command. It runs the compiled program (dist/, made by
// `npm run build`) when present; with SVC_DEV=1, or when dist/ is missing (a
// development checkout), it runs the TypeScript sources through tsx instead.
// SVC_BUILD_DIR names another compiled tree to run (the test suite compiles
// src/ afresh into .test-build/ and runs that: see test/global-build.ts).
// It enters through cli/light.cjs, which the build makes one bundled file
// (scripts/bundle-light.mjs) and which loads the rest of the program itself.
// This file is CommonJS (bin/package.json), like that bundle: `svc mcp` then
// answers `initialize` and its first lists before Node starts its ES module
// loader (a few milliseconds of a start the editor waits for), which the
// program itself needs afterwards.
//
// The first line caps V8's young generation at 4 MB semi-spaces (`env -S` splits the line into node's arguments).
// Node 24 sizes it from the machine's memory, up to 64 MB semi-spaces on a large machine, and a steady stream of work
// whose objects live a little while (webhook deliveries between their claim and their outcome) grows it to that size,
// where it stays resident: 134 MB of new space after 30k deliveries, against 8 MB with the cap, for the same delivery
// rate (docs/architecture.md, "Where a delivery's time and memory go"). The flag caps every thread's, the engines'
// workers included (it overrides a smaller or larger `resourceLimits.maxYoungGenerationSizeMb`): an EVM generate of a
// shape already compiled, mostly the VM run, takes some 18 ms instead of 15. `npm start` passes the same flag, and
// `npm run bench` runs under the flags of this line (bench/index.ts), as do the `svc` programs the tests start
// (`svcArgs` in test/helpers.ts); a test keeps the three in step. Running `node bin/svc.js` directly leaves V8's
// default: add the flag there too.
//
// It also sets MALLOC_ARENA_MAX=2 for the process (`env` sets it before node starts; the C library reads it once, at
// start, so the program cannot set it itself). glibc's malloc gives a thread that finds the others' arenas busy an
// arena of its own, up to eight per core, and what is freed in an arena stays reserved for it; the service has many
// threads (the store's writer, the webhook sender, the engines' workers, V8's and libuv's helpers). Two arenas took
// the peak resident size of 100k webhook deliveries from 264-295 MB (median 283) to 241-268 MB (median 255) in seven
// runs each, alternated on one machine, the CPU per delivery the same within the noise (docs/architecture.md, "Where
// a delivery's time and memory go"). Other C libraries (musl, macOS's, Windows') ignore the variable. It replaces a
// value set before the command: to choose another, or when running `node bin/svc.js` yourself (as `npm start` does),
// set it in that environment.

'use strict';
const { existsSync } = require('node:fs');
const path = require('node:path');

// Node keeps the compiled code of the modules it loads in a cache on disk and reuses it on the next start, so an
// editor's `svc mcp` answers sooner (npm run bench -- start). NODE_COMPILE_CACHE names the folder (default: under the
// system's temporary folder); NODE_DISABLE_COMPILE_CACHE=1 turns it off. Older Node versions lack it: nothing happens.
/** @type {{ enableCompileCache?: () => unknown }} */ (require('node:module')).enableCompileCache?.();

const compiled = path.join(process.env.SVC_BUILD_DIR ?? path.join(__dirname, '..', 'dist'), 'cli', 'light.cjs');
/** @type {Promise<{ main: (argv: string[]) => Promise<number> }>} */
const entry =
  process.env.SVC_BUILD_DIR || (process.env.SVC_DEV !== '1' && existsSync(compiled))
    ? Promise.resolve(require(compiled))
    : import('tsx/esm/api').then(({ register }) => {
        register();
        return import('../src/cli/light.ts');
      });
entry
  .then(({ main }) => main(process.argv.slice(2)))
  .then((code) => {
    process.exitCode = code;
  });

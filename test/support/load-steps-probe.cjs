// What the light entry's load steps (src/cli/light.ts, listed by scripts/bundle-light.mjs) load, in a process of its
// own (test/cli/lazy-load.test.ts). Prints one JSON object on stdout.
//
//   node load-steps-probe.cjs <compiled tree> steps      every module the steps load (loadInSteps, as `svc mcp` runs it)
//   node load-steps-probe.cjs <compiled tree> each       the most ES modules one step loads, and that step
//   node load-steps-probe.cjs <compiled tree> command <module>...   every module importing these modules loads
'use strict';
const { registerHooks } = require('node:module');
const path = require('node:path');
const { pathToFileURL } = require('node:url');

const [tree, mode, ...modules] = process.argv.slice(2);
/** Modules loaded (file URLs), and how many of them were ES modules. */
const loaded = [];
let esModules = 0;
registerHooks({
  load(url, context, next) {
    const result = next(url, context);
    if (!url.startsWith('node:')) {
      loaded.push(url);
      if (result.format === 'module') esModules++;
    }
    return result;
  },
});

async function run() {
  if (mode === 'command') {
    for (const m of modules) await import(pathToFileURL(path.join(tree, m)).href);
    return { loaded };
  }
  const light = require(path.join(tree, 'cli', 'light.cjs'));
  if (mode === 'steps') {
    const before = loaded.length;
    await light.loadInSteps();
    return { loaded: loaded.slice(before) };
  }
  const load = light.stepLoader();
  let most = { modules: 0, step: undefined };
  for (const step of await light.readSteps()) {
    const before = esModules;
    if (!(await load(step))) throw new Error(`step ${JSON.stringify(step)} failed`);
    if (esModules - before > most.modules) most = { modules: esModules - before, step };
  }
  return most;
}

run().then(
  (answer) => {
    process.stdout.write(JSON.stringify(answer));
    process.exit(0);
  },
  (err) => {
    process.stderr.write(`${err?.stack ?? err}\n`);
    process.exit(1);
  },
);

// Records every module the process loads, one file path or URL a line, in the file named by SVC_LOAD_PROBE:
// ES modules through a loader hook (load-probe-hooks.mjs), CommonJS through Module.prototype.load. Loaded with
// `node --import` by test/cli/lazy-load.test.ts; worker threads are not followed.
import { appendFileSync } from 'node:fs';
import Module, { register } from 'node:module';

const out = process.env.SVC_LOAD_PROBE;
if (out) {
  register(new URL('./load-probe-hooks.mjs', import.meta.url), { data: { out } });
  const load = Module.prototype.load;
  Module.prototype.load = function probedLoad(filename) {
    appendFileSync(out, `${filename}\n`);
    return load.call(this, filename);
  };
}

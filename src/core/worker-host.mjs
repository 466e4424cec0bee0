// Worker thread of a WorkerPool (src/core/worker-pool.ts). Plain JavaScript so
// that it starts the same way under node, tsx and vitest: it registers tsx's
// loader when the task module is TypeScript, imports the module named in
// workerData, and runs the tasks the main thread posts, one at a time. A task
// module may also export `shared()`: see ready() below.
// A task module exports `tasks`: { [name]: (args, { progress }) => value |
// Promise<value> }; values must be structured-cloneable. `progress(value)`
// reports a step to the main thread (RunOptions.onProgress).
import { parentPort, workerData } from 'node:worker_threads';

// What the task's code prints reaches the pool as messages, which the pool writes to its process's stderr (that
// process's stdout may be a protocol: MCP over stdio). Not through the worker's stdio streams: reading those from the
// main thread keeps the process alive for as long as the worker lives, whatever worker.unref() says, and an idle pool
// must never hold a process that has nothing else to do.
for (const name of ['stdout', 'stderr']) {
  process[name].write = (chunk, encoding, callback) => {
    // A string is passed on as it is; bytes (a write's encoding does not apply to them) are read as UTF-8.
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    parentPort.postMessage({ type: 'stdio', text });
    const done = typeof encoding === 'function' ? encoding : callback;
    if (typeof done === 'function') queueMicrotask(() => done());
    return true;
  };
}

// tsx is a development tool: only a TypeScript task module (svc running from
// its sources) needs its loader; compiled from dist/, the modules are .js.
if (/\.ts$/.test(new URL(workerData.module).pathname)) {
  const { register } = await import('tsx/esm/api');
  register();
}

function errorBody(err) {
  if (err && typeof err === 'object' && typeof err.code === 'string' && err.name === 'ApiError') {
    return { api: true, code: err.code, message: err.message, details: err.details, retryAfter: err.retryAfter };
  }
  return {
    api: false,
    name: err?.name ? String(err.name) : 'Error',
    message: String(err?.message ? err.message : err),
  };
}

let tasks;
try {
  const mod = await import(workerData.module);
  tasks = mod.tasks;
  if (!tasks || typeof tasks !== 'object') throw new Error(`${workerData.module} exports no tasks`);
  // A worker that was handed what an earlier one shared has nothing new to offer.
  ready(workerData.shared === undefined && typeof mod.shared === 'function' ? mod.shared() : undefined);
} catch (err) {
  parentPort.postMessage({ type: 'failed', error: errorBody(err) });
}

/**
 * Tells the pool this worker is ready, with what the task module shares with the workers started after it (its
 * `shared()`, handed to them as `workerData.shared`): something costly to make and cheap to pass, such as a compiled
 * WebAssembly module. What cannot cross threads is not shared, and the worker is ready all the same.
 */
function ready(shared) {
  if (shared !== undefined) {
    try {
      parentPort.postMessage({ type: 'ready', shared });
      return;
    } catch {
      // not structured-cloneable
    }
  }
  parentPort.postMessage({ type: 'ready' });
}

parentPort.on('message', async (msg) => {
  const fn = tasks && Object.hasOwn(tasks, msg.task) ? tasks[msg.task] : undefined;
  if (!fn) {
    parentPort.postMessage({
      type: 'result',
      id: msg.id,
      ok: false,
      error: { api: false, name: 'Error', message: `unknown task ${msg.task}` },
    });
    return;
  }
  try {
    const progress = (value) => parentPort.postMessage({ type: 'progress', id: msg.id, value });
    const value = await fn(msg.args, { progress });
    parentPort.postMessage({ type: 'result', id: msg.id, ok: true, value });
  } catch (err) {
    parentPort.postMessage({ type: 'result', id: msg.id, ok: false, error: errorBody(err) });
  }
});

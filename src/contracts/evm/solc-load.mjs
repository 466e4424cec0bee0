// Loads the solc compiler for a worker thread, sooner than `require('solc')` does from the second load on.
//
// The solc package's soljson.js is Emscripten's JavaScript runtime around a WebAssembly build of the compiler, the
// WebAssembly embedded as LZ4-compressed base64 text (9 MB) that every load parses, decodes and decompresses in
// JavaScript before compiling it: about 0.7 of the 1.2 s a worker took to load solc on a slow machine. The first
// load here does the same once (it runs the package's own decoder, in a context of its own), and keeps the decoded
// WebAssembly in a cache file; later loads read that file, compile it, and run only the runtime part of soljson.js
// (its last 70 kB, read from the package itself at the offset recorded with the cache), handing it the compiled
// module. Two workers of one process loading the same bytes also share V8's compiled code, so the second worker's
// first compile is the cheap one. A worker started after another has loaded solc gets that worker's compiled module
// from its pool (startSolc; src/core/worker-messages.ts) and skips the cache and the compile altogether.
//
// The cache is a directory of the user's (`SVC_CACHE_DIR`, by default `$XDG_CACHE_HOME/svc` or `~/.cache/svc`;
// `SVC_CACHE_DIR=off` turns it off). Its entries are named by the package's version and soljson.js's size and
// modification time, and each holds the SHA-256 of the WebAssembly it must contain: a file changed or cut short is not
// used (it is made again). The cached WebAssembly is the compiler itself, so a directory or file that is not the user's
// own, or that others may write to, is neither read nor written. When soljson.js does not have the layout described
// above (another solc release), or the cache cannot be read nor written, solc is loaded from the package's text, by
// the package's own loader when the layout is unknown. The answer says which way it went (`from`).
import { createHash } from 'node:crypto';
import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';

const require = createRequire(import.meta.url);

/** Where soljson.js's runtime begins, after the embedded WebAssembly. */
const RUNTIME_START = 'var Module = typeof Module != "undefined" ? Module : {};';
/** The first bytes of every WebAssembly module. */
const WASM_MAGIC = Buffer.from([0x00, 0x61, 0x73, 0x6d]);

/**
 * The cache directory from the environment, or undefined when caching is off.
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {string | undefined}
 */
export function solcCacheDir(env = process.env) {
  const set = env.SVC_CACHE_DIR;
  if (set !== undefined && set !== '') return set === 'off' ? undefined : path.resolve(set);
  const base = env.XDG_CACHE_HOME ? path.resolve(env.XDG_CACHE_HOME) : path.join(os.homedir(), '.cache');
  return path.join(base, 'svc');
}

/**
 * @typedef {{ module: WebAssembly.Module, runtime: string }} Compiled
 * solc's compiled WebAssembly and the runtime part of soljson.js that starts it.
 */

/**
 * @typedef {{ solc: any, from: 'cache' | 'decoded' | 'package', dir?: string, cached?: boolean, why?: string,
 *   compiled?: Compiled, reused?: boolean }} LoadedSolc
 * `from`: `cache` (the cached WebAssembly), `decoded` (decoded now; `cached` says whether it was written to the cache),
 * `package` (loaded as `require('solc')` does, `why` says why). `dir`: the cache directory (none: caching is off).
 * `compiled`: what another worker can start from (startSolc), none when loaded from the package. `reused`: started
 * from what an earlier load shared; the other fields are that load's.
 */

/**
 * Loads solc.
 * @param {{ dir?: string | undefined }} [options] the cache directory (default: solcCacheDir())
 * @returns {LoadedSolc}
 */
export function loadSolc(options = {}) {
  const dir = 'dir' in options ? options.dir : solcCacheDir();
  const soljson = require.resolve('solc/soljson.js');
  const version = require('solc/package.json').version;
  const stat = statSync(soljson);
  const name = `solc-${version}-${stat.size}-${Math.trunc(stat.mtimeMs)}`;
  if (dir !== undefined) {
    const cached = fromCache(dir, name, soljson);
    if (cached) return { ...start(cached.wasm, cached.runtime, soljson), from: 'cache', dir };
  }
  const text = readFileSync(soljson);
  const at = text.indexOf(RUNTIME_START);
  if (at <= 0) return { solc: require('solc'), from: 'package', dir, why: 'soljson.js has an unknown layout' };
  let wasm;
  try {
    wasm = decode(text.subarray(0, at).toString('utf8'));
  } catch (err) {
    return { solc: require('solc'), from: 'package', dir, why: `decoding soljson.js failed: ${String(err)}` };
  }
  const runtime = text.subarray(at).toString('utf8');
  const cached = dir !== undefined && store(dir, name, wasm, at);
  return { ...start(wasm, runtime, soljson), from: 'decoded', dir, cached };
}

/**
 * Runs the part of soljson.js before its runtime (the decoder and its data) in a context of its own, and answers
 * the WebAssembly it sets as `Module.wasmBinary`.
 * @param {string} prefix
 * @returns {Buffer}
 */
function decode(prefix) {
  /** @type {{ Module: any }} */
  const sandbox = { Module: undefined };
  vm.runInNewContext(prefix, sandbox);
  const bin = sandbox.Module?.wasmBinary;
  if (!bin) throw new Error('no wasmBinary');
  // From another realm: `instanceof` does not hold, isView does.
  const bytes = ArrayBuffer.isView(bin) ? Buffer.from(bin.buffer, bin.byteOffset, bin.byteLength) : Buffer.from(bin);
  if (!bytes.subarray(0, 4).equals(WASM_MAGIC)) throw new Error('not WebAssembly');
  return Buffer.from(bytes); // a copy in this realm
}

/**
 * Starts solc from its WebAssembly and runtime: the runtime runs as soljson.js would (its own require, module and
 * paths), with the compiled module handed to it.
 * @param {Buffer} wasm
 * @param {string} runtime
 * @param {string} soljson
 * @returns {{ solc: any, compiled: Compiled }}
 */
function start(wasm, runtime, soljson) {
  const compiled = { module: new WebAssembly.Module(wasm), runtime };
  return { solc: run(compiled, soljson), compiled };
}

/**
 * Runs soljson.js's runtime around an already compiled module.
 * @param {Compiled} compiled
 * @param {string} soljson
 */
function run(compiled, soljson) {
  const Module = {
    /** Emscripten's hook: instantiate the module ourselves (synchronously) instead of from wasmBinary. */
    instantiateWasm(/** @type {WebAssembly.Imports} */ imports, /** @type {Function} */ receive) {
      const instance = new WebAssembly.Instance(compiled.module, imports);
      receive(instance, compiled.module);
      return instance.exports;
    },
  };
  const params = ['Module', 'require', 'module', 'exports', '__filename', '__dirname'];
  const fn = vm.compileFunction(compiled.runtime, params, { filename: soljson });
  const mod = { exports: {} };
  fn(Module, createRequire(soljson), mod, mod.exports, soljson, path.dirname(soljson));
  return require('solc/wrapper')(Module);
}

/**
 * Starts solc from what an earlier load of this process shared (`compiled`, with how that load went), or loads it
 * when there is nothing usable: the compiled module is handed over whole, so this worker neither reads the cache nor
 * compiles the WebAssembly again (about 0.3 s of CPU a worker), and the process's code of the compiler stays alive
 * while it holds the module, whichever workers end.
 * @param {{ compiled?: Compiled, loaded?: Omit<LoadedSolc, 'solc' | 'compiled'> } | undefined} shared
 * @param {{ dir?: string | undefined }} [options] for loadSolc, when nothing is shared
 * @returns {LoadedSolc}
 */
export function startSolc(shared, options = {}) {
  const compiled = shared?.compiled;
  if (
    !(compiled?.module instanceof WebAssembly.Module) ||
    typeof compiled.runtime !== 'string' ||
    !compiled.runtime.startsWith(RUNTIME_START)
  )
    return loadSolc(options);
  const soljson = require.resolve('solc/soljson.js');
  return { ...shared.loaded, solc: run(compiled, soljson), compiled, reused: true };
}

/**
 * The cached WebAssembly and the runtime read from soljson.js, or undefined when the cache has no good copy.
 * @param {string} dir
 * @param {string} name
 * @param {string} soljson
 * @returns {{ wasm: Buffer, runtime: string } | undefined}
 */
function fromCache(dir, name, soljson) {
  try {
    const files = [path.join(dir, `${name}.json`), path.join(dir, `${name}.wasm`)];
    if (![dir, ...files].every(isPrivate)) return undefined;
    const meta = JSON.parse(readFileSync(files[0], 'utf8'));
    const wasm = readFileSync(files[1]);
    if (wasm.length !== meta.bytes || createHash('sha256').update(wasm).digest('hex') !== meta.sha256) return undefined;
    const fd = openSync(soljson, 'r');
    let runtime;
    try {
      const length = fstatSync(fd).size - meta.runtimeAt;
      if (!(length > 0)) return undefined;
      const buf = Buffer.alloc(length);
      if (readSync(fd, buf, 0, length, meta.runtimeAt) !== length) return undefined;
      runtime = buf.toString('utf8');
    } finally {
      closeSync(fd);
    }
    if (!runtime.startsWith(RUNTIME_START)) return undefined;
    return { wasm, runtime };
  } catch {
    return undefined;
  }
}

/**
 * Whether a file or directory of the cache is this user's and nobody else may change it: the cached WebAssembly is
 * the compiler itself, so a directory others can write to (a shared SVC_CACHE_DIR) is neither read nor written.
 * @param {string} file
 * @returns {boolean}
 */
export function isPrivate(file) {
  const st = statSync(file);
  if (typeof process.getuid === 'function' && st.uid !== process.getuid()) return false;
  return (st.mode & 0o022) === 0;
}

/**
 * Writes the cache: the WebAssembly, then the description that makes it valid, each under a temporary name renamed
 * into place (a reader sees a whole file or none; two writers write the same bytes). Failing to write only costs the
 * next load its time. Answers whether it was written.
 * @param {string} dir
 * @param {string} name
 * @param {Buffer} wasm
 * @param {number} runtimeAt
 * @returns {boolean}
 */
function store(dir, name, wasm, runtimeAt) {
  const tmp = `.${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!isPrivate(dir)) return false;
    const sha256 = createHash('sha256').update(wasm).digest('hex');
    for (const [file, data] of [
      [`${name}.wasm`, wasm],
      [`${name}.json`, JSON.stringify({ bytes: wasm.length, sha256, runtimeAt })],
    ]) {
      const target = path.join(dir, /** @type {string} */ (file));
      writeFileSync(target + tmp, data, { mode: 0o600 });
      renameSync(target + tmp, target);
    }
  } catch {
    // A read-only or full disk: solc still loads, from the package's text.
    return false;
  }
  evict(dir, name);
  return true;
}

/** Entries kept besides the one just written: other installations of solc, newest first. */
const KEEP_OTHERS = 3;

/**
 * Removes the oldest entries of other solc files (another version, or another installation of the same one: each
 * reinstall gives soljson.js a new modification time), so that the directory does not grow with every install.
 * @param {string} dir
 * @param {string} name
 */
function evict(dir, name) {
  try {
    const others = readdirSync(dir)
      .filter((f) => f.startsWith('solc-') && f.endsWith('.json') && f !== `${name}.json`)
      .map((f) => ({ base: f.slice(0, -'.json'.length), at: statSync(path.join(dir, f)).mtimeMs }))
      .sort((a, b) => b.at - a.at);
    for (const { base } of others.slice(KEEP_OTHERS)) {
      rmSync(path.join(dir, `${base}.json`), { force: true });
      rmSync(path.join(dir, `${base}.wasm`), { force: true });
    }
  } catch {
    // Another process evicting at the same time; the next write tries again.
  }
}

// Types of ./solc-load.mjs (plain JavaScript: the compiler's worker threads load it under node, tsx and vitest alike).

/** The cache directory from the environment (`SVC_CACHE_DIR`, `XDG_CACHE_HOME`, `~/.cache`), or undefined when off. */
export function solcCacheDir(env?: NodeJS.ProcessEnv): string | undefined;

/**
 * Whether a file or directory of the cache is this user's and nobody else may change it (owned by this user, not
 * writable by group or others). Throws when it does not exist.
 */
export function isPrivate(file: string): boolean;

/** solc's compiled WebAssembly and the runtime part of soljson.js that starts it. */
export interface Compiled {
  module: WebAssembly.Module;
  runtime: string;
}

export interface LoadedSolc {
  /** solc's JavaScript interface (solc/wrapper). */
  // biome-ignore lint/suspicious/noExplicitAny: the solc package ships no types for its wrapper
  solc: any;
  /** `cache`: the cached WebAssembly; `decoded`: decoded now (and cached); `package`: as `require('solc')` loads. */
  from: 'cache' | 'decoded' | 'package';
  /** The cache directory (none: caching is off). */
  dir?: string;
  /** Decoded now: whether it was written to the cache directory. */
  cached?: boolean;
  /** Why solc was loaded from the package. */
  why?: string;
  /** What another worker can start from (startSolc); none when solc was loaded from the package. */
  compiled?: Compiled;
  /** Started from what an earlier load shared (startSolc); `from`, `dir`, `cached` and `why` are that load's. */
  reused?: boolean;
}

/** What a worker shares with the workers started after it (see startSolc). */
export interface SharedSolc {
  compiled?: Compiled;
  loaded?: Omit<LoadedSolc, 'solc' | 'compiled'>;
}

/** Loads solc, through the cache directory `dir` (default: solcCacheDir(); undefined: no cache). */
export function loadSolc(options?: { dir?: string | undefined }): LoadedSolc;

/**
 * Starts solc from what an earlier load of this process shared, without reading the cache or compiling the
 * WebAssembly again; loads it (loadSolc) when nothing usable is shared.
 */
export function startSolc(shared: SharedSolc | undefined, options?: { dir?: string | undefined }): LoadedSolc;

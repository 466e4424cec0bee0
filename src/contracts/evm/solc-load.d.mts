// Types of ./solc-load.mjs (plain JavaScript: the compiler's worker threads load it under node, tsx and vitest alike).

/** The cache directory from the environment (`SVC_CACHE_DIR`, `XDG_CACHE_HOME`, `~/.cache`), or undefined when off. */
export function solcCacheDir(env?: NodeJS.ProcessEnv): string | undefined;

/**
 * Whether a file or directory of the cache is this user's and nobody else may change it (owned by this user, not
 * writable by group or others). Throws when it does not exist.
 */
export function isPrivate(file: string): boolean;

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
}

/** Loads solc, through the cache directory `dir` (default: solcCacheDir(); undefined: no cache). */
export function loadSolc(options?: { dir?: string | undefined }): LoadedSolc;

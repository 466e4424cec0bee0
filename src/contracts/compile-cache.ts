/**
 * Compile results kept on disk between processes, for the sources the service writes itself: the contract of each
 * EVM shape (a fixed source per shape, ./evm/shape.ts) and the token doubles of the EVM execution check, and the
 * contract of each TON shape and its jetton double (./ton/compile.ts). A fresh process (an editor starting `svc mcp`,
 * an engine's new worker) then has a contract of a shape compiled before without loading the compiler at all:
 * reading the result takes milliseconds where solc's first compile in a thread takes a second or more, and a FunC
 * compile half a second. Sources a caller sends (compile_contract, a gas estimate of pasted code) are never written
 * here: the set of entries stays bounded by the shapes, and nobody's code is kept on disk.
 *
 * Where: `compiled/<identity>/` in the cache directory of solc's decoded WebAssembly (./evm/solc-load.mjs:
 * SVC_CACHE_DIR, `off` turns all of it off). The identity names what else decides a compile's output besides the
 * source and the settings (./evm/compile-cache.ts for solc, ./ton/compile.ts for FunC); its first word (`solc`,
 * `func`) is the compiler's family. Any change is a new directory; older ones of the same family are removed beyond
 * the last few.
 *
 * Trust: a cached result is code the service deploys and measures, so the same rules as for the cached compiler
 * apply: a directory or file that is not this user's, or that others may write to, is neither read nor written. Each
 * entry starts with a line naming its key and the SHA-256 and length of the result that follows; an entry whose line
 * does not match (cut short, changed, or copied under another name) is ignored and the source compiled again. Writes
 * go to a temporary name renamed into place, so a reader sees a whole entry or none.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { isPrivate, solcCacheDir } from './evm/solc-load.mjs';

/** Entries one identity's directory may hold: 120 EVM shapes, with and without the AST, and the doubles, with room. */
export const MAX_ENTRIES = 600;
/** Directories of other identities kept besides the current one, newest first. */
const KEEP_OTHERS = 2;

/** The compile results kept in one directory (see the top of this file). */
export class CompileCache {
  readonly dir: string;
  #usable: boolean | undefined;
  #entries: number | undefined;

  readonly #maxEntries: number;

  /**
   * `root`: the cache directory (SVC_CACHE_DIR's); `identity`: the compiler's, starting with its family and a dash;
   * `maxEntries`: how many results the directory may hold (default MAX_ENTRIES).
   */
  constructor(root: string, identity: string, maxEntries = MAX_ENTRIES) {
    this.dir = path.join(root, 'compiled', identity);
    this.#maxEntries = maxEntries;
  }

  /** The cache of the environment's directory for `identity`, or undefined when SVC_CACHE_DIR is `off`. */
  static fromEnv(identity: () => string, env: NodeJS.ProcessEnv = process.env): CompileCache | undefined {
    const root = solcCacheDir(env);
    return root === undefined ? undefined : new CompileCache(root, identity());
  }

  /** The entry's file: the key is a hex SHA-256, never a path. */
  #file(key: string): string {
    if (!/^[0-9a-f]{64}$/.test(key)) throw new TypeError('a compile cache key is a SHA-256 in hex');
    return path.join(this.dir, `${key}.json`);
  }

  /** Whether the directory and every parent up to the cache root are this user's alone (checked once). */
  #private(): boolean {
    if (this.#usable !== undefined) return this.#usable;
    try {
      const compiled = path.dirname(this.dir);
      this.#usable = [path.dirname(compiled), compiled, this.dir].every(isPrivate);
    } catch {
      return false; // not made yet: asked again after a write
    }
    return this.#usable;
  }

  /** The result text kept for `key`, or undefined (none, or not to be trusted). Never throws. */
  async read(key: string): Promise<string | undefined> {
    try {
      const file = this.#file(key);
      if (!this.#private() || !isPrivate(file)) return undefined;
      const text = await readFile(file, 'utf8');
      const nl = text.indexOf('\n');
      if (nl < 0) return undefined;
      const head = JSON.parse(text.slice(0, nl)) as { key?: unknown; sha256?: unknown; length?: unknown };
      const body = text.slice(nl + 1);
      if (head.key !== key || head.length !== body.length) return undefined;
      if (createHash('sha256').update(body).digest('hex') !== head.sha256) return undefined;
      return body;
    } catch {
      return undefined;
    }
  }

  /**
   * Keeps `text` (a compile result as the worker answered it) under `key`. Answers whether it was written: a
   * directory that cannot be made private, a full one, or a failed write only cost the next process a compile.
   */
  write(key: string, text: string): boolean {
    const tmp = `.${process.pid}-${Math.random().toString(36).slice(2)}`;
    try {
      const file = this.#file(key);
      // Nothing read from the directory yet in this process: usually because it did not exist, a new identity (an
      // upgrade), which is when older ones may go.
      const fresh = this.#usable === undefined;
      mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      if (!this.#private()) return false;
      this.#entries ??= readdirSync(this.dir).filter((f) => f.endsWith('.json')).length;
      if (this.#entries >= this.#maxEntries) return false;
      const head = JSON.stringify({
        key,
        sha256: createHash('sha256').update(text).digest('hex'),
        length: text.length,
      });
      writeFileSync(file + tmp, `${head}\n${text}`, { mode: 0o600 });
      renameSync(file + tmp, file);
      this.#entries++;
      if (fresh) this.#evictOthers();
      return true;
    } catch {
      try {
        rmSync(this.#file(key) + tmp, { force: true });
      } catch {
        // nothing to remove
      }
      return false;
    }
  }

  /**
   * Removes the directories of older identities of the same compiler beyond the last few (each reinstall or upgrade
   * makes one); another compiler's are its own.
   */
  #evictOthers(): void {
    try {
      const compiled = path.dirname(this.dir);
      const own = path.basename(this.dir);
      const family = `${own.split('-')[0]}-`;
      const others = readdirSync(compiled)
        .filter((d) => d !== own && d.startsWith(family))
        .map((d) => ({ d, at: statSync(path.join(compiled, d)).mtimeMs }))
        .sort((a, b) => b.at - a.at);
      for (const { d } of others.slice(KEEP_OTHERS)) rmSync(path.join(compiled, d), { recursive: true, force: true });
    } catch {
      // Another process evicting at the same time; the next process tries again.
    }
  }
}

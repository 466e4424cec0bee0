/**
 * The solc compiles kept on disk (../compile-cache.ts): what names their directory. Besides the source and the
 * settings, a result depends on solc's version and soljson.js (its size tells builds apart), the installed
 * @openzeppelin/contracts (the shapes and the ERC-721 double import from it), and the worker that runs the compile
 * (./solc-worker.mjs: how its output is selected and shaped).
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { CompileCache } from '../compile-cache.js';

const require = createRequire(import.meta.url);

let identityMemo: string | undefined;

/**
 * solc's identity as a directory name: solc's version and soljson.js's size, @openzeppelin/contracts' version, and
 * the first 16 hex digits of the SHA-256 of the worker.
 */
export function compilerIdentity(): string {
  if (identityMemo !== undefined) return identityMemo;
  const solc = (require('solc/package.json') as { version: string }).version;
  const soljson = statSync(require.resolve('solc/soljson.js')).size;
  const oz = (require('@openzeppelin/contracts/package.json') as { version: string }).version;
  const worker = createHash('sha256')
    .update(readFileSync(new URL('./solc-worker.mjs', import.meta.url)))
    .digest('hex')
    .slice(0, 16);
  identityMemo = `solc-${solc}-${soljson}-oz-${oz}-w-${worker}`;
  return identityMemo;
}

/** The solc results' cache in the environment's directory, or undefined when SVC_CACHE_DIR is `off`. */
export function solcCompileCache(env: NodeJS.ProcessEnv = process.env): CompileCache | undefined {
  return CompileCache.fromEnv(compilerIdentity, env);
}

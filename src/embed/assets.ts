/**
 * The wizard's static files (wizard.js, wizard.css, sdk.js, and app.html, the
 * MCP App document of resource ui://svc/wizard). Served from
 * dist/embed/ when `npm run build:wizard` (run by `prepare`) made them and they
 * are newer than their sources; otherwise built in memory with esbuild on first
 * request (dev runs under tsx, tests), once per process.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { ApiError } from '../core/errors.js';

export const ASSET_NAMES = ['sdk.js', 'wizard.js', 'wizard.css', 'app.html'] as const;
export type AssetName = (typeof ASSET_NAMES)[number];

export interface Asset {
  body: Buffer;
  /** Strong ETag: the content's hash. */
  etag: string;
  /** A short content hash, for cache-busting URLs. */
  version: string;
  contentType: string;
}

/** The repository (or installed package) root: the nearest folder up with a package.json. */
function packageRoot(from: string): string {
  let dir = from;
  while (!existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) return from;
    dir = up;
  }
  return dir;
}

const ROOT = packageRoot(import.meta.dirname);

async function newestSource(dir: string): Promise<number> {
  let newest = 0;
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    if (e.isFile()) newest = Math.max(newest, (await stat(path.join(e.parentPath, e.name))).mtimeMs);
  }
  return newest;
}

async function fromDist(root: string): Promise<Record<AssetName, Uint8Array> | undefined> {
  const dist = path.join(root, 'dist', 'embed');
  try {
    const dirs = await Promise.all(['ui', 'sdk', 'app'].map((d) => newestSource(path.join(root, 'src', 'embed', d))));
    const script = await stat(path.join(root, 'src', 'embed', 'bundle.mjs')).then(
      (s) => s.mtimeMs,
      () => 0,
    );
    const sources = Math.max(script, ...dirs);
    const out: Partial<Record<AssetName, Uint8Array>> = {};
    for (const name of ASSET_NAMES) {
      const file = path.join(dist, name);
      if ((await stat(file)).mtimeMs < sources) return undefined;
      out[name] = await readFile(file);
    }
    return out as Record<AssetName, Uint8Array>;
  } catch {
    return undefined;
  }
}

async function fromSource(root: string): Promise<Record<AssetName, Uint8Array>> {
  const { bundleWizard } = await import('./bundle.mjs');
  const files = await bundleWizard(root);
  return Object.fromEntries(ASSET_NAMES.map((n) => [n, files[n]!.contents])) as Record<AssetName, Uint8Array>;
}

const TYPES: Record<AssetName, string> = {
  'sdk.js': 'text/javascript; charset=utf-8',
  'wizard.js': 'text/javascript; charset=utf-8',
  'wizard.css': 'text/css; charset=utf-8',
  // The MCP App document (resource ui://svc/wizard), not served over HTTP.
  'app.html': 'text/html;profile=mcp-app',
};

let loading: Promise<Record<AssetName, Asset>> | undefined;

/** Every asset, loaded (or built) once. Rejects with SERVICE_BUSY (503) and a clear message when no bundle can be had. */
export function wizardAssets(root = ROOT): Promise<Record<AssetName, Asset>> {
  loading ??= (async () => {
    const raw = (await fromDist(root)) ?? (await fromSource(root));
    const out: Partial<Record<AssetName, Asset>> = {};
    for (const name of ASSET_NAMES) {
      const body = Buffer.from(raw[name]);
      const hash = createHash('sha256').update(body).digest('base64url');
      out[name] = { body, etag: `"${hash.slice(0, 32)}"`, version: hash.slice(0, 12), contentType: TYPES[name] };
    }
    return out as Record<AssetName, Asset>;
  })().catch((err: unknown) => {
    loading = undefined;
    throw new ApiError(
      'SERVICE_BUSY',
      `The contract wizard's bundle is not built and could not be built here (${err instanceof Error ? err.message.split('\n')[0] : 'unknown error'}); run \`npm run build:wizard\`.`,
    );
  });
  return loading;
}

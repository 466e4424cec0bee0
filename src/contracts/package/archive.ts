/**
 * Archives of a contract package, byte-for-byte reproducible: entries sorted by path, every entry dated with the
 * same instant (the contract's creation), no owner names or host details. The same contract always gives the same
 * bytes, so an owner (or an heir) can compare a download with another one.
 */
import { gzipSync, strToU8, zipSync, type Zippable } from 'fflate';

/** One file of a package; `executable` files get mode 0755 in a tar (zip keeps no modes here). */
export interface PackageFile {
  path: string;
  content: string | Uint8Array;
  executable?: boolean;
}

function bytes(c: string | Uint8Array): Uint8Array {
  return typeof c === 'string' ? strToU8(c) : c;
}

function sorted(files: PackageFile[]): PackageFile[] {
  return [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** A zip of `files` under the folder `root`, every entry dated `mtime`. */
export function zipPackage(root: string, files: PackageFile[], mtime: Date): Uint8Array {
  const tree: Zippable = {};
  for (const f of sorted(files)) tree[`${root}/${f.path}`] = [bytes(f.content), { mtime, level: 6 }];
  return zipSync(tree, { mtime });
}

// A tar writer of its own (ustar, regular files only): no installed library writes tar, and adding a dependency for
// one archive format of a few small files is not worth it; gzip comes from fflate.
const BLOCK = 512;

function field(header: Uint8Array, offset: number, length: number, value: string): void {
  const b = strToU8(value);
  if (b.length > length) throw new Error(`tar header field too long: ${value}`);
  header.set(b, offset);
}

function octal(n: number, length: number): string {
  return `${n.toString(8).padStart(length - 1, '0')}\0`;
}

/** Splits a path into ustar's prefix (≤155) and name (≤100) at a slash. */
function splitPath(path: string): [string, string] {
  if (strToU8(path).length <= 100) return ['', path];
  const cut = path.lastIndexOf('/', 155);
  if (cut <= 0 || path.length - cut - 1 > 100) throw new Error(`path too long for a tar entry: ${path}`);
  return [path.slice(0, cut), path.slice(cut + 1)];
}

function tarHeader(path: string, size: number, mtime: number, mode: number): Uint8Array {
  const h = new Uint8Array(BLOCK);
  const [prefix, name] = splitPath(path);
  field(h, 0, 100, name);
  field(h, 100, 8, octal(mode, 8));
  field(h, 108, 8, octal(0, 8));
  field(h, 116, 8, octal(0, 8));
  field(h, 124, 12, octal(size, 12));
  field(h, 136, 12, octal(mtime, 12));
  field(h, 148, 8, '        '); // counted as spaces while the checksum is computed
  field(h, 156, 1, '0');
  field(h, 257, 6, 'ustar\0');
  field(h, 263, 2, '00');
  field(h, 345, 155, prefix);
  let sum = 0;
  for (const b of h) sum += b;
  field(h, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return h;
}

/** A gzipped ustar archive of `files` under the folder `root`, every entry dated `mtime`. */
export function tarGzPackage(root: string, files: PackageFile[], mtime: Date): Uint8Array {
  const seconds = Math.floor(mtime.getTime() / 1000);
  const parts: Uint8Array[] = [];
  for (const f of sorted(files)) {
    const data = bytes(f.content);
    parts.push(tarHeader(`${root}/${f.path}`, data.length, seconds, f.executable ? 0o755 : 0o644), data);
    const pad = (BLOCK - (data.length % BLOCK)) % BLOCK;
    if (pad) parts.push(new Uint8Array(pad));
  }
  parts.push(new Uint8Array(BLOCK * 2));
  const total = parts.reduce((n, p) => n + p.length, 0);
  const tar = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    tar.set(p, at);
    at += p.length;
  }
  return gzipSync(tar, { level: 9, mtime });
}

/**
 * A stored contract as one downloadable archive: what an owner needs to deploy it and check in, per chain
 * (./evm.ts, ./ton.ts, ./solana.ts), packed reproducibly (./archive.ts). Each chain's builder, with the library it
 * needs (viem, @ton/core), is loaded when a package of that chain is first asked for, not when the service starts;
 * so is the archiver (fflate, some 5 to 10 ms of a start to load).
 */
import type { PackageContract } from './common.js';
import type { PackageFormat } from './formats.js';

export { PACKAGE_FORMATS, type PackageFormat } from './formats.js';

export interface ContractPackage {
  bytes: Uint8Array;
  contentType: 'application/zip' | 'application/gzip';
  fileName: string;
}

async function files(c: PackageContract) {
  switch (c.chain) {
    case 'evm':
      return (await import('./evm.js')).evmPackage(c);
    case 'ton':
      return (await import('./ton.js')).tonPackage(c);
    case 'solana':
      return (await import('./solana.js')).solanaPackage(c);
  }
}

/** The archive of one contract: a folder `svc-<chain>-<id>` holding its files, dated when it was generated. */
export async function contractPackage(c: PackageContract, format: PackageFormat): Promise<ContractPackage> {
  const root = `svc-${c.chain}-${c.id}`;
  const mtime = new Date(c.created);
  const [entries, { tarGzPackage, zipPackage }] = await Promise.all([files(c), import('./archive.js')]);
  if (format === 'zip') {
    return { bytes: zipPackage(root, entries, mtime), contentType: 'application/zip', fileName: `${root}.zip` };
  }
  return { bytes: tarGzPackage(root, entries, mtime), contentType: 'application/gzip', fileName: `${root}.tar.gz` };
}

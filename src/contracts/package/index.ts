/**
 * A stored contract as one downloadable archive: what an owner needs to deploy it and check in, per chain
 * (./evm.ts, ./ton.ts, ./solana.ts), packed reproducibly (./archive.ts).
 */
import { type PackageFormat, tarGzPackage, zipPackage } from './archive.js';
import type { PackageContract } from './common.js';
import { evmPackage } from './evm.js';
import { solanaPackage } from './solana.js';
import { tonPackage } from './ton.js';

export { PACKAGE_FORMATS, type PackageFormat } from './archive.js';

export interface ContractPackage {
  bytes: Uint8Array;
  contentType: 'application/zip' | 'application/gzip';
  fileName: string;
}

function files(c: PackageContract) {
  switch (c.chain) {
    case 'evm':
      return evmPackage(c);
    case 'ton':
      return tonPackage(c);
    case 'solana':
      return solanaPackage(c);
  }
}

/** The archive of one contract: a folder `svc-<chain>-<id>` holding its files, dated when it was generated. */
export function contractPackage(c: PackageContract, format: PackageFormat): ContractPackage {
  const root = `svc-${c.chain}-${c.id}`;
  const mtime = new Date(c.created);
  if (format === 'zip') {
    return { bytes: zipPackage(root, files(c), mtime), contentType: 'application/zip', fileName: `${root}.zip` };
  }
  return { bytes: tarGzPackage(root, files(c), mtime), contentType: 'application/gzip', fileName: `${root}.tar.gz` };
}

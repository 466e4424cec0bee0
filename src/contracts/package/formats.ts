/** The archive formats of a contract package (./archive.ts packs them). */
export const PACKAGE_FORMATS = ['zip', 'tar.gz'] as const;
export type PackageFormat = (typeof PACKAGE_FORMATS)[number];

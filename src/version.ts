import { createRequire } from 'node:module';

const pkg = createRequire(import.meta.url)('../package.json') as { name: string; version: string };

export const SERVICE_NAME = pkg.name;
export const SERVICE_VERSION = pkg.version;

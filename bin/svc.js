#!/usr/bin/env node
// Entry point of the `svc` command. The TypeScript sources run through tsx's loader.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');
process.exitCode = await main(process.argv.slice(2));

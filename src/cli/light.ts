// The first module of every `svc` start (bin/svc.js runs it). For `svc mcp` on a local data directory it starts the
// early stdio transport before anything else loads (src/mcp/early.ts: `initialize` and the first lists answered from
// the build-time manifest), then loads the rest of the program in steps that let the transport answer in between,
// and hands over to the command line (../cli.ts). Every other command goes to the command line at once.
//
// The build bundles this file with what it imports into one file (scripts/bundle-light.mjs), and ./light-lists.ts
// with what it imports into another: Node then reads and compiles two files before the first lists instead of some
// forty. So what this file imports statically is part of its bundle: keep it light. The command line (../cli.js) and
// the load steps are not: they are imported when the early answers are under way. docs/architecture.md ("The first
// lists of svc mcp") has the design.
import { readFile } from 'node:fs/promises';
import { setImmediate as tick } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { type Config, type ConfigFlags, loadConfig } from '../core/config.js';
import { type ListsLoader, MCP_OPTIONS, ROOT, startEarly } from './early-start.js';

/** The longest the loading of the program runs before it lets the event loop (and the early transport) have a turn. */
const SLICE_MS = 8;

export async function main(argv: string[]): Promise<number> {
  const early = argv[0] === 'mcp' ? mcpConfig(argv.slice(1)) : undefined;
  const started = early ? startEarly(early, loadLists) : undefined;
  if (started) {
    await started.listsRead;
    await loadInSteps();
  }
  const cli = await import('../cli.js');
  return cli.main(argv, started);
}

/**
 * The lists' module. The build bundles this file as CommonJS (scripts/bundle-light.mjs), where `require` reads the
 * bundled lists beside it, so the first lists wait for no ES module loader either; run from the sources, it is imported.
 */
const loadLists: ListsLoader = () =>
  typeof require === 'function' ? Promise.resolve(require('./light-lists.cjs')) : import('./light-lists.js');

/**
 * The configuration of a local `svc mcp` with these arguments, or undefined when they are wrong, name a remote server
 * (the bridge answers nothing early) or give no valid configuration: the command itself then reports the problem.
 */
function mcpConfig(args: string[]): Config | undefined {
  try {
    const { values } = parseArgs({ args, options: MCP_OPTIONS, strict: true, allowPositionals: false });
    if (values.url !== undefined || values['api-key-file'] !== undefined) return undefined;
    return loadConfig(values as ConfigFlags);
  } catch {
    return undefined;
  }
}

/**
 * A step of load-steps.json (scripts/bundle-light.mjs): a module of the program (`./path.js`), a package as the
 * program imports it, or one module of a package (`file` from the package's folder), loaded ahead of the package.
 */
type LoadStep = string | { package: string; file: string };

/**
 * Loads the modules `svc mcp` needs, in the order Node would evaluate them, a few at a time: Node evaluates the modules
 * of one import in one synchronous block, during which stdin is not read (the SDK and the tools take hundreds of
 * milliseconds). The build lists them (load-steps.json, beside this file in the compiled tree); without that list
 * (run from the sources) the command loads them itself in its few imports.
 */
export async function loadInSteps(): Promise<void> {
  const steps = await readSteps();
  if (!steps) return;
  // The lists already asked for are answered before anything else loads.
  await tick();
  const load = stepLoader();
  let since = performance.now();
  for (const step of steps) {
    // A step that cannot be loaded: the command's own imports meet the same error, and report it as every start's
    // errors are.
    if (!(await load(step))) return;
    if (performance.now() - since >= SLICE_MS) {
      await tick();
      since = performance.now();
    }
  }
}

/** The steps the build listed, or undefined without them. */
export async function readSteps(): Promise<LoadStep[] | undefined> {
  try {
    return JSON.parse(await readFile(new URL('cli/load-steps.json', ROOT), 'utf8')) as LoadStep[];
  } catch {
    return undefined;
  }
}

/**
 * Loads one step; false when a module of the program or a package failed to load (the stepping then stops). A module
 * ahead of its package is skipped when its package or file is not where this install has it: the package's own step
 * then loads it, as Node would.
 */
export function stepLoader(): (step: LoadStep) => Promise<boolean> {
  const folders = packageFolders();
  return async (step) => {
    if (typeof step !== 'string') {
      const folder = folders(step.package);
      if (folder !== undefined) await import(new URL(step.file, folder).href).catch(() => undefined);
      return true;
    }
    try {
      await import(step.startsWith('./') ? new URL(step, ROOT).href : step);
      return true;
    } catch {
      return false;
    }
  };
}

/**
 * The folder of each installed package, as the program resolves it (file URLs ending in `/`), from node:module's
 * findPackageJSON; none where it is missing (Node before 22.14).
 */
function packageFolders(): (name: string) => URL | undefined {
  // Typed here: the project's @types/node predates it.
  const { findPackageJSON } = process.getBuiltinModule('node:module') as {
    findPackageJSON?: (specifier: string, base: URL) => string | undefined;
  };
  const known = new Map<string, URL | undefined>();
  const from = new URL('cli/light.cjs', ROOT);
  return (name) => {
    if (!known.has(name)) {
      let folder: URL | undefined;
      try {
        // A linked package's (as pnpm installs them) is the link's path: Node's loader imports its modules under
        // their real path all the same, as the package's own import does.
        const file = findPackageJSON?.(name, from);
        folder = file === undefined ? undefined : new URL('./', pathToFileURL(file));
      } catch {
        folder = undefined;
      }
      known.set(name, folder);
    }
    return known.get(name);
  };
}

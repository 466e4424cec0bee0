// The early start of local `svc mcp`: the stdio transport that answers `initialize` and the first lists while the rest
// of the program loads. Started by ./light.ts, the first module of every start, or by ./mcp.ts when the program was
// entered another way. Bundled into the light entry (scripts/bundle-light.mjs): keep its imports light.
import { setImmediate as tick } from 'node:timers/promises';
import type { Config } from '../core/config.js';
import { EarlyStdioTransport } from '../mcp/early.js';

/** What the light start of `svc mcp` hands to the command (./mcp.ts). */
export interface EarlyStart {
  config: Config;
  transport: EarlyStdioTransport;
  /** Settles once the manifest and the data file have been read (the first lists asked for are then answered). */
  listsRead: Promise<unknown>;
}

/** The options of `svc mcp` (./light.ts and ./mcp.ts parse them). */
export const MCP_OPTIONS = {
  'api-key': { type: 'string' },
  url: { type: 'string' },
  'api-key-file': { type: 'string' },
  'data-dir': { type: 'string' },
  'log-level': { type: 'string' },
} as const;

/** The compiled tree's root (the folder of cli.js): the manifest and the load steps are found from it. */
export const ROOT = new URL('../', import.meta.url);

/** Standard output carries the MCP protocol: anything printed with console goes to stderr instead. */
export function consoleToStderr(): void {
  for (const level of ['log', 'info', 'debug', 'trace'] as const) console[level] = console.error.bind(console);
}

/** Loads the module answering the first lists (./light-lists.ts). */
export type ListsLoader = () => Promise<typeof import('./light-lists.js')>;

/**
 * Starts reading stdin: `initialize` is answered at once, the first lists once the manifest and the key are read.
 * `loadLists` is the light entry's (./light.ts) when it starts the transport; otherwise the lists are imported.
 */
export function startEarly(config: Config, loadLists: ListsLoader = () => import('./light-lists.js')): EarlyStart {
  // Whatever a module prints while the program loads.
  consoleToStderr();
  // The module answering lists is loaded once stdin is read (and `initialize` answered); it reads the manifest.
  const lists = tick()
    .then(loadLists)
    .then(({ firstLists }) => firstLists(config, new URL('mcp/manifest.txt', ROOT)))
    .catch(() => undefined);
  const transport = new EarlyStdioTransport(process.stdin, process.stdout, {
    answer: async (method) => (await lists)?.answer(method),
  });
  return { config, transport, listsRead: lists };
}

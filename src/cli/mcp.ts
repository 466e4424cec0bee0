import { loadConfig, type Config, type ConfigFlags } from '../core/config.js';
import type { EarlyLists } from '../mcp/manifest.js';
import { installProcessGuard, type ProcessGuard } from '../core/process-guard.js';
import { parse, UsageError, waitForSignal } from './shared.js';

export async function mcp(args: string[]): Promise<number> {
  const { values } = parse(args, {
    'api-key': { type: 'string' },
    url: { type: 'string' },
    'api-key-file': { type: 'string' },
  });
  // Standard output carries the MCP protocol: anything a library prints with console goes to stderr instead.
  for (const level of ['log', 'info', 'debug', 'trace'] as const) console[level] = console.error.bind(console);
  if (values.url !== undefined) {
    const { proxyStdio, ProxyError } = await import('../mcp/proxy.js');
    try {
      await proxyStdio({
        url: values.url as string,
        apiKey: values['api-key'] as string | undefined,
        apiKeyFile: values['api-key-file'] as string | undefined,
      });
    } catch (err) {
      if (err instanceof ProxyError) throw new UsageError(err.message);
      throw err;
    }
    return 0;
  }
  if (values['api-key-file'] !== undefined)
    throw new UsageError('--api-key-file goes with --url (a remote server); locally use --api-key or SVC_API_KEY');
  const config = loadConfig(values as ConfigFlags);
  const signal = waitForSignal();
  // Reads stdin and answers `initialize` while the SDK and the rest load; the first lists too, from the manifest.
  const { EarlyStdioTransport } = await import('../mcp/early.js');
  const lists = firstLists(config).catch(() => undefined);
  const early = new EarlyStdioTransport(process.stdin, process.stdout, {
    answer: async (method) => (await lists)?.answer(method),
  });
  // The manifest and the data file are read first, and the lists already asked for answered, before the SDK loads:
  // its hundreds of files load in one block that nothing else interleaves with.
  await lists;
  await new Promise((resolve) => setImmediate(resolve));
  const { serveStdio } = await import('../mcp/stdio.js');
  let guard: ProcessGuard | undefined;
  // `initialize` is answered first; the tools, the store and their libraries load right after.
  const serving = await serveStdio(
    async () => {
      const [{ openServices, startDispatcher, closeServices, warmEngines }, { TOOLS }] = await Promise.all([
        import('../app.js'),
        import('../tools/index.js'),
      ]);
      const services = await openServices(config, { bootstrap: true });
      guard = installProcessGuard(services.log);
      // The client has initialized (or a moment passed): the engines start now, before its first generation.
      warmEngines(services);
      return { services, tools: TOOLS, dispatcher: startDispatcher(services), closeServices };
    },
    config.apiKey,
    early,
  );
  let loaded: Awaited<typeof serving.loaded>;
  try {
    // A store that cannot be opened ends the server with its error (exit code 2).
    loaded = await serving.loaded;
  } catch (err) {
    await serving.close();
    throw err;
  }
  const ended = await Promise.race([serving.closed, signal, guard?.fatal ?? new Promise<never>(() => undefined)]);
  await serving.close();
  const hold = setInterval(() => undefined, 1000); // see serve.ts
  await loaded.dispatcher.stop();
  await loaded.closeServices(loaded.services);
  clearInterval(hold);
  return ended === 'uncaughtException' ? 1 : 0;
}

/**
 * The early answers to the first lists (docs/architecture.md, "The first lists of svc mcp"): from the build-time
 * manifest, for the verdict of the light key check on the configured key, read from the data file without opening the
 * store. None when there is no manifest (run from the sources), or when the answer depends on more than that file:
 * PostgreSQL (SVC_DATABASE_URL) or a rate limiter shared with other instances (SVC_REDIS_URL), whose counts this
 * process cannot know; a data directory another process holds (the store would not open) leaves lists to the server.
 */
async function firstLists(config: Config): Promise<EarlyLists | undefined> {
  if (config.databaseUrl !== undefined || config.redisUrl !== undefined) return undefined;
  // Modules load in one synchronous block: stdin is read (and `initialize` answered) first.
  await new Promise((resolve) => setImmediate(resolve));
  const [{ readManifest, manifestLists }, { lightAdmit }, { peekLowdb }] = await Promise.all([
    import('../mcp/manifest.js'),
    import('../access/light-key.js'),
    import('../store/lowdb/peek.js'),
  ]);
  const manifest = await readManifest().catch(() => undefined);
  if (!manifest) return undefined;
  const verdict = peekLowdb(config.dataDir).then((records) =>
    records === 'locked' ? undefined : lightAdmit(records, config.apiKey, '127.0.0.1', new Date()),
  );
  await verdict.catch(() => undefined);
  return manifestLists(manifest, verdict);
}

import { loadConfig, type ConfigFlags } from '../core/config.js';
import { installProcessGuard, type ProcessGuard } from '../core/process-guard.js';
import { consoleToStderr, type EarlyStart, MCP_OPTIONS, startEarly } from './early-start.js';
import { parse, UsageError, waitForSignal } from './shared.js';

export async function mcp(args: string[], early?: EarlyStart): Promise<number> {
  const { values } = parse(args, MCP_OPTIONS);
  consoleToStderr();
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
  const signal = waitForSignal();
  // Reads stdin and answers `initialize` while the SDK and the rest load; the first lists too, from the manifest.
  // Normally started by ./light.ts before this module loaded; here when the program was entered another way.
  const { config, transport, listsRead } = early ?? startEarly(loadConfig(values as ConfigFlags));
  // The manifest and the data file are read first, and the lists already asked for answered, before the SDK loads.
  await listsRead;
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
    transport,
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

import { loadConfig, type ConfigFlags } from '../core/config.js';
import { installProcessGuard } from '../core/process-guard.js';
import { parse, waitForSignal } from './shared.js';

/** Serves until a signal (exit code 0) or an uncaught exception (exit code 1, after the same clean stop). */
export async function serve(args: string[]): Promise<number> {
  const { values } = parse(args, {
    port: { type: 'string' },
    host: { type: 'string' },
    'trust-proxy': { type: 'string' },
  });
  const config = loadConfig(values as ConfigFlags);
  // Listen for signals before anything starts, so an early SIGTERM still shuts down cleanly.
  const signal = waitForSignal();
  const [
    { closeServices, openServices, startDispatcher, warmEngines },
    { buildApp },
    { TOOLS },
    { removeServerFile, writeServerFile },
  ] = await Promise.all([
    import('../app.js'),
    import('../http/app.js'),
    import('../tools/index.js'),
    import('../admin.js'),
  ]);
  const services = await openServices(config, { bootstrap: true });
  // No request can end the process: a stray rejection is logged, an uncaught exception stops it cleanly (exit 1).
  const guard = installProcessGuard(services.log);
  const app = await buildApp(services, TOOLS);
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await closeServices(services);
    throw err;
  }
  const address = app.server.address();
  // The server file tells local commands where the process holding the data directory listens; with PostgreSQL
  // nothing holds it (commands open the database themselves).
  const serverFile = !config.databaseUrl;
  if (serverFile && address && typeof address === 'object') {
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    await writeServerFile(
      config.dataDir,
      `http://${host === '0.0.0.0' || host === '[::]' ? '127.0.0.1' : host}:${address.port}`,
    );
  }
  const dispatcher = startDispatcher(services);
  warmEngines(services);
  const sig = await Promise.race([signal, guard.fatal]);
  services.log.info({ signal: sig }, 'shutting down: finishing in-flight requests');
  // Hold the event loop open until every step has finished: a step waiting on a
  // promise alone must not let the process exit before the store is flushed.
  const hold = setInterval(() => undefined, 1000);
  await app.close();
  if (serverFile) await removeServerFile(config.dataDir);
  await dispatcher.stop();
  await closeServices(services);
  clearInterval(hold);
  services.log.info('stopped');
  return sig === 'uncaughtException' ? 1 : 0;
}

import { loadConfig, type ConfigFlags } from '../core/config.js';
import { CommandError, parse, UsageError } from './shared.js';

export async function migrateCommand(args: string[]): Promise<void> {
  const { values } = parse(args, {});
  const config = loadConfig(values as ConfigFlags);
  if (!config.databaseUrl)
    throw new UsageError(
      'svc migrate needs SVC_DATABASE_URL (postgres://...): the embedded store has no migrations to run',
    );
  const { migrateDatabase } = await import('../admin.js');
  let report: string;
  try {
    report = await migrateDatabase(config.databaseUrl, config.databaseSchema);
  } catch (err) {
    if ((err as Error | undefined)?.name === 'SchemaTooNewError') throw err;
    const e = err as NodeJS.ErrnoException;
    // The message of pg's errors never holds the URL (and so no password).
    throw new CommandError(`cannot migrate the database: ${e?.message || e?.code || String(err)}`);
  }
  process.stdout.write(report);
}

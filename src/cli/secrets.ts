import { loadConfig, type ConfigFlags } from '../core/config.js';
import { parse, UsageError } from './shared.js';

export async function secretsCommand(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub !== 'rotate-master') {
    throw new UsageError(
      sub && !sub.startsWith('-')
        ? `unknown secrets command "${sub}" (use rotate-master)`
        : 'secrets needs a command: rotate-master',
    );
  }
  const { values } = parse(rest, { 'new-key-file': { type: 'string' } });
  const config = loadConfig(values as ConfigFlags);
  const [{ rotateMasterKey, RotationError }, { createLogger }] = await Promise.all([
    import('../rotate-master.js'),
    import('../core/log.js'),
  ]);
  try {
    process.stdout.write(
      await rotateMasterKey(config, {
        newKeyFile: values['new-key-file'] as string | undefined,
        log: createLogger('warn'),
      }),
    );
  } catch (err) {
    if (err instanceof RotationError) throw new UsageError(err.message);
    throw err;
  }
}

import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runChild } from '../support/child-script.js';

// The service's log lines wait for the end of their turn of the event loop (TurnLines in src/core/log.ts). A process
// that ends before then, however it ends short of SIGKILL, still writes them to its standard error.

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const LOG = pathToFileURL(path.join(ROOT, 'src', 'core', 'log.ts')).href;

/** Runs `body` after `const log = createLogger('info')` in a node process of its own. */
const run = (body: string) =>
  runChild(`import { createLogger } from ${JSON.stringify(LOG)};\nconst log = createLogger('info');\n${body}\n`);

/** The messages of the JSON lines in `stderr`, in order (other lines, such as node's report of an error, left out). */
const messages = (stderr: string) =>
  stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => (JSON.parse(l) as { msg: string }).msg);

describe('log lines at the end of a process', () => {
  it('are written when the process exits in the turn that logged them', async () => {
    const out = await run(`log.info('starting'); log.error('cannot go on'); process.exit(3);`);
    expect(out.code).toBe(3);
    expect(messages(out.stderr)).toEqual(['starting', 'cannot go on']);
  });

  it('are written before an uncaught error ends the process', async () => {
    const out = await run(`log.warn('about to fail'); throw new Error('boom');`);
    expect(out.code).toBe(1);
    expect(messages(out.stderr)).toEqual(['about to fail']);
    expect(out.stderr.indexOf('about to fail')).toBeLessThan(out.stderr.indexOf('boom'));
  });

  it('are written when logged by a later listener of the exit event', async () => {
    const out = await run(
      `log.info('before'); process.on('exit', (code) => log.warn({ code }, 'exiting')); process.exit(4);`,
    );
    expect(out.code).toBe(4);
    expect(messages(out.stderr)).toEqual(['before', 'exiting']);
  });

  it('are written when the process ends by itself, turn after turn', async () => {
    const out = await run(
      `log.info('one'); setTimeout(() => { log.info('two'); setImmediate(() => log.info('three')); }, 10);`,
    );
    expect(out.code).toBe(0);
    expect(messages(out.stderr)).toEqual(['one', 'two', 'three']);
  });
});

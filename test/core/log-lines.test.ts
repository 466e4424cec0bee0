import type pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createLogger, stderrDestination, TurnLines } from '../../src/core/log.js';

/** A destination recording each write it is given, as one string per write. */
function recorder(): pino.DestinationStream & { writes: string[] } {
  const writes: string[] = [];
  return { writes, write: (s: string) => void writes.push(s) };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('TurnLines: the lines of one turn of the event loop in one write', () => {
  it('holds the lines logged in a turn and writes them together, in order, after it', async () => {
    const dest = recorder();
    const log = createLogger('info', new TurnLines(dest));
    log.info('first');
    log.warn({ n: 2 }, 'second');
    log.debug('not at this level');
    expect(dest.writes).toEqual([]);
    await nextTurn();
    expect(dest.writes).toHaveLength(1);
    const lines = dest.writes[0]!.trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { msg: string; n?: number });
    expect(lines.map((l) => l.msg)).toEqual(['first', 'second']);
    expect(lines[1]!.n).toBe(2);
  });

  it('writes each turn on its own, and nothing for a turn that logged nothing', async () => {
    const dest = recorder();
    const lines = new TurnLines(dest);
    lines.write('a\n');
    await nextTurn();
    await nextTurn();
    lines.write('b\n');
    lines.write('c\n');
    await nextTurn();
    expect(dest.writes).toEqual(['a\n', 'b\nc\n']);
  });

  it('writes at once when a turn holds 64 kB, and keeps the rest for the end of the turn', async () => {
    const dest = recorder();
    const lines = new TurnLines(dest);
    const big = `${'x'.repeat(40_000)}\n`;
    lines.write(big);
    expect(dest.writes).toEqual([]);
    lines.write(big);
    expect(dest.writes).toEqual([big + big]);
    lines.write('tail\n');
    await nextTurn();
    expect(dest.writes).toEqual([big + big, 'tail\n']);
  });

  it('writes what it holds when flushed, as pino’s logger.flush() asks', async () => {
    const dest = recorder();
    const log = createLogger('info', new TurnLines(dest));
    log.info('now');
    let flushed = false;
    log.flush(() => {
      flushed = true;
    });
    expect(flushed).toBe(true);
    expect(dest.writes).toHaveLength(1);
    expect(dest.writes[0]).toContain('"msg":"now"');
    await nextTurn();
    expect(dest.writes).toHaveLength(1);
  });

  it('drops a turn’s lines when the write fails, and goes on with the next turns', async () => {
    let fail = true;
    const written: string[] = [];
    const lines = new TurnLines({
      write: (s: string) => {
        if (fail) throw Object.assign(new Error('write EPIPE'), { code: 'EPIPE' });
        written.push(s);
      },
    });
    lines.write('lost\n');
    await nextTurn();
    fail = false;
    lines.write('kept\n');
    await nextTurn();
    expect(written).toEqual(['kept\n']);
  });

  it('shares one destination for standard error between loggers', () => {
    expect(stderrDestination()).toBe(stderrDestination());
    expect(stderrDestination()).toBeInstanceOf(TurnLines);
  });
});

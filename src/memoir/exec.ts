/**
 * The Debian programs the memoir runs (festival, pocketsphinx, ffmpeg, ffprobe):
 * run with arguments (never a shell), a time limit and bounded output. A missing
 * program is a clear 503 naming the package to install.
 *
 * They take a core each while they run, outside the worker pools: at most `mediaPrograms.size` run at once (one per
 * core unless SVC_MEDIA_CONCURRENCY says otherwise), and callers beyond that wait their turn fairly across accounts
 * (src/core/fair-slots.ts), so that one account's many voice or video calls neither start a process each nor hold
 * another account's call for more than one program's run. The photos sharp scales take the same places
 * (withMediaPlace, below).
 */
import { execFile } from 'node:child_process';
import os from 'node:os';
import { ApiError } from '../core/errors.js';
import { FairSlots } from '../core/fair-slots.js';

export const PACKAGES: Record<string, string> = {
  text2wave: 'festival festvox-us-slt-hts',
  pocketsphinx_continuous: 'pocketsphinx pocketsphinx-en-us',
  ffmpeg: 'ffmpeg',
  ffprobe: 'ffmpeg',
};

export class ToolMissingError extends Error {
  override name = 'ToolMissingError';
}

const DEFAULT_WAIT_MS = 30_000;

/** The places for these programs, shared by every account; sized by the service's configuration (src/app.ts). */
export const mediaPrograms = new FairSlots({
  name: 'The media work (speech, video, transcripts, photos)',
  size: os.availableParallelism(),
  maxQueue: 20,
  maxWaitMs: DEFAULT_WAIT_MS,
  typicalMs: 2_000,
  noun: ['media job', 'media jobs'],
});

/** Sizes the places (default: one per core) and their wait limit (default 30 s), as the service is configured. */
export function configureMediaPrograms(concurrency: number | undefined, maxWaitMs: number | undefined): void {
  mediaPrograms.configure({
    size: concurrency ?? os.availableParallelism(),
    maxWaitMs: maxWaitMs ?? DEFAULT_WAIT_MS,
  });
}

export interface RunOptions {
  /** The program's time limit once it runs, ms (default 2 minutes); waiting for a place is bounded apart. */
  timeoutMs?: number;
  /** Written to the program's standard input. */
  input?: string;
  /** Aborting takes the call out of the queue, or kills the program. */
  signal?: AbortSignal | undefined;
}

/** Runs `cmd` once a place is free (see above). */
export function run(cmd: string, args: string[], opts: RunOptions = {}): Promise<{ stdout: string; stderr: string }> {
  return withMediaPlace(opts.signal, () => runNow(cmd, args, opts));
}

/**
 * Runs `work` once a place is free. Besides the programs, the photos sharp decodes and scales take a place: sharp
 * runs on libuv's thread pool (four threads), which the file system calls of every store write share, so one account's
 * exports of large photos would otherwise hold other accounts' image work and the service's own writes behind them.
 */
export function withMediaPlace<T>(signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
  return mediaPrograms.run(signal, work);
}

function runNow(cmd: string, args: string[], opts: RunOptions): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      cmd,
      args,
      {
        timeout: opts.timeoutMs ?? 120_000,
        maxBuffer: 16 * 1024 * 1024,
        encoding: 'utf8',
        ...(opts.signal ? { signal: opts.signal } : {}),
      },
      (err, stdout, stderr) => {
        if (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
            reject(
              new ToolMissingError(`${cmd} is not installed (Debian: apt-get install -y ${PACKAGES[cmd] ?? cmd})`),
            );
          } else reject(Object.assign(new Error(`${cmd} failed: ${String(stderr).slice(-500)}`), { cause: err }));
          return;
        }
        resolve({ stdout, stderr });
      },
    );
    if (opts.input !== undefined) child.stdin?.end(opts.input);
  });
}

/** A missing program as the API's 503 (the operator must install a package); anything else goes up unchanged. */
export function toolProblem(err: unknown): never {
  if (err instanceof ToolMissingError)
    throw new ApiError('SERVICE_UNAVAILABLE', `This feature needs a program the server lacks: ${err.message}.`);
  throw err;
}

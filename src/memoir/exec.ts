/**
 * The Debian programs the memoir runs (festival, pocketsphinx, ffmpeg, ffprobe):
 * run with arguments (never a shell), a time limit and bounded output. A missing
 * program is a clear 503 naming the package to install.
 */
import { execFile } from 'node:child_process';
import { ApiError } from '../core/errors.js';

export const PACKAGES: Record<string, string> = {
  text2wave: 'festival festvox-us-slt-hts',
  pocketsphinx_continuous: 'pocketsphinx pocketsphinx-en-us',
  ffmpeg: 'ffmpeg',
  ffprobe: 'ffmpeg',
};

export class ToolMissingError extends Error {
  override name = 'ToolMissingError';
}

export function run(
  cmd: string,
  args: string[],
  opts: { timeoutMs?: number; input?: string; signal?: AbortSignal | undefined } = {},
): Promise<{ stdout: string; stderr: string }> {
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

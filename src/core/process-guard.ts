/**
 * The last line of defence of a serving process (`svc serve`, `svc mcp`): what
 * happens to an error that escaped every request's own error handling. Every
 * promise on a request path is awaited inside the code that answers in the
 * envelope, so reaching this is a bug; these handlers make sure such a bug is
 * logged and does not end the service. What "keeps serving where that is safe"
 * means (also in docs-index/operations.md):
 *
 * - **unhandledRejection**: logged (stderr, with the request id when the error
 *   carries one) and the process keeps serving. A rejected promise nobody
 *   awaited has already unwound: the operation it belonged to is over and left
 *   no code half-way through a change, so continuing is safe. Node's default
 *   (since v15) would end the process, and with it every other request.
 * - **uncaughtException**: logged, then the process stops the way SIGTERM stops
 *   it (no new requests, in-flight ones finish, the store is flushed and
 *   closed) and exits with code 1 for the supervisor to restart it. An
 *   exception thrown out of a callback (a timer, a stream, a socket event) may
 *   have left shared state half-updated, and stored data must not be
 *   corrupted; a request's own exceptions never get here, since the HTTP
 *   framework and the MCP SDK catch them and answer with the error envelope.
 *   A second uncaught exception while stopping ends the process at once.
 *
 * The log line names the error (name, message, stack) and never the request's
 * data; error messages in this code base do not carry key values or personal data.
 */
import type { Logger } from './log.js';

export interface ProcessGuard {
  /** Resolves with the reason when an uncaught exception asks the process to stop. */
  readonly fatal: Promise<string>;
  /** Unhandled rejections seen so far (for tests and metrics). */
  readonly rejections: () => number;
  /** Removes the handlers. */
  uninstall(): void;
}

function requestIdOf(value: unknown): string | undefined {
  const id = value && typeof value === 'object' ? (value as { requestId?: unknown }).requestId : undefined;
  return typeof id === 'string' ? id : undefined;
}

/** Installs the process-level handlers described above; `log` writes to stderr. */
export function installProcessGuard(log: Logger): ProcessGuard {
  let rejections = 0;
  let stopping = false;
  let requestStop!: (reason: string) => void;
  const fatal = new Promise<string>((resolve) => (requestStop = resolve));

  const onRejection = (reason: unknown) => {
    rejections++;
    const requestId = requestIdOf(reason);
    log.error(
      {
        err: reason instanceof Error ? reason : { message: String(reason) },
        ...(requestId ? { requestId } : {}),
        event: 'unhandledRejection',
      },
      'a promise was rejected and nobody handled it: logged, the service keeps serving (this is a bug: please report it)',
    );
  };
  const onException = (err: Error) => {
    const requestId = requestIdOf(err);
    if (stopping) {
      log.fatal(
        { err, ...(requestId ? { requestId } : {}), event: 'uncaughtException' },
        'a second uncaught exception while stopping: exiting now',
      );
      process.exit(1);
    }
    stopping = true;
    process.exitCode = 1;
    log.fatal(
      { err, ...(requestId ? { requestId } : {}), event: 'uncaughtException' },
      'an uncaught exception: stopping gracefully (in-flight requests finish, the store is closed), exit code 1',
    );
    requestStop('uncaughtException');
  };
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  return {
    fatal,
    rejections: () => rejections,
    uninstall() {
      process.off('unhandledRejection', onRejection);
      process.off('uncaughtException', onException);
    },
  };
}

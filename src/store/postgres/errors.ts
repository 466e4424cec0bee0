/**
 * How the PostgreSQL store classifies errors: a lost or unreachable engine becomes StoreUnavailableError (the
 * service answers 503), a serialization failure or deadlock is retried.
 */
import { StoreUnavailableError } from '../port.js';

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
]);
const CONNECTION_MESSAGES =
  /Query read timeout|^timeout expired$|Connection terminated due to connection timeout|Connection terminated|timeout exceeded when trying to connect|connection error and is not queryable|Client was closed and is not queryable|Connection closed|not queryable/i;

export function errCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The engine went away or cannot be reached (as opposed to an error in a statement). */
export function isConnectionError(err: unknown): boolean {
  if (err instanceof StoreUnavailableError) return true;
  const code = errCode(err);
  if (code) {
    // 08: connection exception; 57P01-03: admin/crash shutdown, cannot connect now; 53300: too many connections;
    // 25P03: the server ended the session (idle_in_transaction_session_timeout); 57014: a statement cancelled by the
    // server's statement_timeout or by an operator (pg_cancel_backend); 55P03: lock_timeout. None says anything about
    // the request: the same request may succeed a moment later.
    if (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300')
      return true;
    if (code === '25P03' || code === '57014' || code === '55P03') return true;
    if (CONNECTION_CODES.has(code)) return true;
  }
  if (err instanceof AggregateError) return err.errors.some(isConnectionError);
  return err instanceof Error && CONNECTION_MESSAGES.test(err.message);
}

export function isRetryable(err: unknown): boolean {
  const code = errCode(err);
  return code === '40001' || code === '40P01';
}

export function unavailable(err: unknown): StoreUnavailableError {
  if (err instanceof StoreUnavailableError) return err;
  const detail = err instanceof Error ? err.message || errCode(err) || err.name : String(err);
  return new StoreUnavailableError(`the PostgreSQL store cannot be reached (${detail})`, { cause: err });
}

/** A store-level error in the port's terms: connection problems become StoreUnavailableError. */
export function mapError(err: unknown): unknown {
  return isConnectionError(err) ? unavailable(err) : err;
}

/**
 * Errors every transport understands. A thrown ApiError becomes the error
 * envelope: over REST with its HTTP status, over MCP as an isError result.
 */
export const ERROR_STATUS = {
  API_KEY_MISSING: 401,
  API_KEY_INVALID: 401,
  UNAUTHORIZED: 401,
  INSUFFICIENT_SCOPE: 403,
  CSRF_FAILED: 403,
  ACCOUNT_SUSPENDED: 403,
  ORIGIN_NOT_ALLOWED: 403,
  TIER_NOT_ALLOWED: 403,
  IP_NOT_ALLOWED: 403,
  SHARE_NOT_AVAILABLE: 403,
  /** The signed-in user has not confirmed their address yet (claiming a share needs it). */
  EMAIL_NOT_VERIFIED: 403,
  INSUFFICIENT_CREDITS: 402,
  NOT_FOUND: 404,
  /** The path exists, not with this method (REST; `Allow` names those it takes). */
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  /** A single-use link that was used already, has expired or never existed (mailed links). */
  GONE: 410,
  VALIDATION_ERROR: 400,
  PAYLOAD_TOO_LARGE: 413,
  QUOTA_EXCEEDED: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMIT_EXCEEDED: 429,
  INTERNAL_ERROR: 500,
  NOT_IMPLEMENTED: 501,
  SERVICE_BUSY: 503,
  SERVICE_UNAVAILABLE: 503,
  PAYMENTS_NOT_CONFIGURED: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

/** One problem with the input: which field (dotted path, '' for the whole input) and why. */
export interface ErrorDetail {
  field: string;
  reason: string;
  /** Source position, for compiler errors (1-based). */
  line?: number;
  column?: number;
  /** The value that would have been accepted, where one can be computed (e.g. a fara'id share). */
  expected?: string;
  /** INSUFFICIENT_CREDITS: credits the operation needs. */
  required?: number;
  /** INSUFFICIENT_CREDITS: credits the wallet holds. */
  available?: number;
  /** QUOTA_EXCEEDED: bytes the account stores now (uploads in progress included). */
  used?: number;
  /** QUOTA_EXCEEDED: bytes the account may store. */
  limit?: number;
  /** QUOTA_EXCEEDED: bytes the refused operation asked for. */
  needed?: number;
}

export interface ApiErrorBody {
  code: ErrorCode;
  message: string;
  details?: ErrorDetail[];
  retryAfter?: string;
}

export class ApiError extends Error {
  override name = 'ApiError';
  readonly code: ErrorCode;
  readonly details: ErrorDetail[] | undefined;
  /** ISO 8601 time after which a rate-limited (or SERVICE_BUSY, SERVICE_UNAVAILABLE) request may be retried. */
  readonly retryAfter: string | undefined;

  constructor(code: ErrorCode, message: string, details?: ErrorDetail[], retryAfter?: string) {
    // A refusal of the caller's request (4xx) takes no stack trace: it is answered, never logged with one, and
    // capturing one was most of the cost of turning bad input away (some 15 µs each under a flood of it). Errors of
    // the service itself (5xx) keep theirs.
    const limit = Error.stackTraceLimit;
    if (ERROR_STATUS[code] < 500) Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = limit;
    this.code = code;
    this.details = details && details.length > 0 ? details : undefined;
    this.retryAfter = retryAfter;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  toBody(): ApiErrorBody {
    const body: ApiErrorBody = { code: this.code, message: this.message };
    if (this.details) body.details = this.details;
    if (this.retryAfter) body.retryAfter = this.retryAfter;
    return body;
  }

  static validation(message: string, details?: ErrorDetail[]): ApiError {
    return new ApiError('VALIDATION_ERROR', message, details);
  }

  static notFound(what: string): ApiError {
    return new ApiError('NOT_FOUND', `${what} not found`);
  }

  /** The error shown for anything unexpected: no stack, no internals. */
  static internal(): ApiError {
    return new ApiError('INTERNAL_ERROR', 'An unexpected error occurred. Quote the request id when reporting it.');
  }
}

/** Turns any thrown value into an ApiError; unknown errors become INTERNAL_ERROR. */
export function toApiError(err: unknown): ApiError {
  return err instanceof ApiError ? err : ApiError.internal();
}

import type { ApiErrorBody } from './errors.js';
import type { OffsetPageMeta, CursorPageMeta } from './pagination.js';

/** `meta` of every /api/v1 envelope. */
export interface EnvelopeMeta {
  requestId: string;
  timestamp: string;
  pagination?: OffsetPageMeta | CursorPageMeta;
  [extra: string]: unknown;
}

export interface SuccessEnvelope<T> {
  success: true;
  data: T;
  meta: EnvelopeMeta;
}

export interface ErrorEnvelope {
  success: false;
  error: ApiErrorBody;
  meta: EnvelopeMeta;
}

export function makeMeta(
  requestId: string,
  now: Date,
  extra?: Omit<Partial<EnvelopeMeta>, 'requestId' | 'timestamp'>,
): EnvelopeMeta {
  return { requestId, timestamp: now.toISOString(), ...extra };
}

export function errorEnvelope(error: ApiErrorBody, meta: EnvelopeMeta): ErrorEnvelope {
  return { success: false, error, meta };
}

import { createHmac, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { ApiError } from './errors.js';

export const MAX_PAGE_LIMIT = 100;
export const DEFAULT_PAGE_LIMIT = 20;

/** Input fields of an offset-paginated list. Spread into a tool's input object. */
export const offsetPageInput = {
  page: z.number().int().min(1).default(1).describe('Page number, starting at 1.'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_LIMIT)
    .default(DEFAULT_PAGE_LIMIT)
    .describe(`Items per page, 1 to ${MAX_PAGE_LIMIT}.`),
};

/**
 * Input fields of a catalogue (a short list fixed by the service: templates, event types, credit packs): paged like
 * any list, but `limit` defaults to the maximum, so a request without it still gets the whole catalogue.
 */
export const cataloguePageInput = {
  page: offsetPageInput.page,
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_PAGE_LIMIT)
    .default(MAX_PAGE_LIMIT)
    .describe(`Items per page, 1 to ${MAX_PAGE_LIMIT} (default ${MAX_PAGE_LIMIT}: the whole catalogue).`),
};

/** Input fields of a cursor-paginated list. */
export const cursorPageInput = {
  cursor: z
    .string()
    .min(1)
    .max(512)
    .optional()
    .describe("Opaque cursor from a previous page's `nextCursor`; omit for the first page."),
  limit: offsetPageInput.limit,
};

export const OffsetPageMetaSchema = z
  .object({
    page: z.number().int().describe("This page's number, starting at 1."),
    limit: z.number().int().describe('Items per page.'),
    total: z.number().int().describe('Items in the whole list.'),
    pages: z.number().int().describe('Number of pages.'),
    hasNext: z.boolean().describe('Whether a later page exists.'),
    hasPrev: z.boolean().describe('Whether an earlier page exists.'),
  })
  .describe('Offset pagination metadata.');
export type OffsetPageMeta = z.infer<typeof OffsetPageMetaSchema>;

export const CursorPageMetaSchema = z
  .object({
    cursor: z.string().nullable().describe('The cursor this page was read from (null for the first page).'),
    nextCursor: z.string().nullable().describe('Cursor of the next page, or null when there is none.'),
    hasMore: z.boolean().describe('Whether more items follow; continue with nextCursor until false.'),
  })
  .describe('Cursor pagination metadata.');
export type CursorPageMeta = z.infer<typeof CursorPageMetaSchema>;

export function paginateOffset<T>(
  items: readonly T[],
  page: number,
  limit: number,
): { items: T[]; pagination: OffsetPageMeta } {
  const total = items.length;
  const pages = Math.max(1, Math.ceil(total / limit));
  const start = (page - 1) * limit;
  return {
    items: items.slice(start, start + limit),
    pagination: { page, limit, total, pages, hasNext: page < pages, hasPrev: page > 1 },
  };
}

/**
 * Opaque, tamper-evident cursors: a base64url JSON payload and an HMAC over it.
 * The payload names the list it belongs to (`scope`), so a cursor from another
 * list, another owner or another server is refused.
 */
export class CursorCodec {
  readonly #secret: Buffer;

  constructor(secret: string | Buffer) {
    this.#secret = Buffer.isBuffer(secret) ? secret : Buffer.from(secret, 'utf8');
    if (this.#secret.length < 16) throw new Error('cursor secret must have at least 16 bytes');
  }

  #mac(payload: string): Buffer {
    return createHmac('sha256', this.#secret).update(payload).digest().subarray(0, 16);
  }

  encode(scope: string, position: string): string {
    const payload = Buffer.from(JSON.stringify({ s: scope, p: position }), 'utf8').toString('base64url');
    return `${payload}.${this.#mac(payload).toString('base64url')}`;
  }

  /** The position stored in `cursor`; VALIDATION_ERROR when forged, damaged or from another list. */
  decode(scope: string, cursor: string): string {
    const bad = () =>
      ApiError.validation('Invalid cursor', [
        { field: 'cursor', reason: 'not a cursor issued for this list; start again without a cursor' },
      ]);
    const [payload, mac, ...rest] = cursor.split('.');
    if (!payload || !mac || rest.length > 0) throw bad();
    const given = Buffer.from(mac, 'base64url');
    const expected = this.#mac(payload);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw bad();
    let parsed: unknown;
    try {
      parsed = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      throw bad();
    }
    const p = parsed as { s?: unknown; p?: unknown };
    if (p.s !== scope || typeof p.p !== 'string') throw bad();
    return p.p;
  }
}

/**
 * Cursor pagination over a list already in its final order. `keyOf` gives each
 * item a unique key that increases (order 'asc') or decreases ('desc') along the
 * list; the cursor holds the key of the last item served, so items inserted
 * meanwhile never shift a page.
 */
export function paginateCursor<T>(
  items: readonly T[],
  opts: {
    codec: CursorCodec;
    scope: string;
    keyOf: (item: T) => string;
    order: 'asc' | 'desc';
    cursor?: string | undefined;
    limit: number;
  },
): { items: T[]; pagination: CursorPageMeta } {
  let rest: readonly T[] = items;
  if (opts.cursor) {
    const after = opts.codec.decode(opts.scope, opts.cursor);
    rest = items.filter((it) => (opts.order === 'asc' ? opts.keyOf(it) > after : opts.keyOf(it) < after));
  }
  const page = rest.slice(0, opts.limit);
  const hasMore = rest.length > page.length;
  const last = page[page.length - 1];
  return {
    items: page,
    pagination: {
      cursor: opts.cursor ?? null,
      nextCursor: hasMore && last !== undefined ? opts.codec.encode(opts.scope, opts.keyOf(last)) : null,
      hasMore,
    },
  };
}

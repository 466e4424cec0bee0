import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, loadConfig } from '../../src/core/config.js';
import { ApiError, ERROR_CODES, ERROR_STATUS, toApiError } from '../../src/core/errors.js';
import { encodeUlid, isId, newId, ulid } from '../../src/core/ids.js';
import { redactUrl } from '../../src/core/log.js';
import { CursorCodec, paginateCursor, paginateOffset } from '../../src/core/pagination.js';
import { coerceQuery } from '../../src/http/query.js';
import { presentedKey } from '../../src/http/credentials.js';
import { hasScope } from '../../src/accounts/scopes.js';

describe('errors', () => {
  it('has every error code, with its HTTP status', () => {
    expect(ERROR_STATUS).toEqual({
      API_KEY_MISSING: 401,
      API_KEY_INVALID: 401,
      UNAUTHORIZED: 401,
      INSUFFICIENT_SCOPE: 403,
      CSRF_FAILED: 403,
      ACCOUNT_SUSPENDED: 403,
      ORIGIN_NOT_ALLOWED: 403,
      TIER_NOT_ALLOWED: 403,
      SHARE_NOT_AVAILABLE: 403,
      IP_NOT_ALLOWED: 403,
      INSUFFICIENT_CREDITS: 402,
      NOT_FOUND: 404,
      METHOD_NOT_ALLOWED: 405,
      CONFLICT: 409,
      GONE: 410,
      EMAIL_NOT_VERIFIED: 403,
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
    });
    expect(ERROR_CODES).toHaveLength(26);
  });

  it('serialises only what a client should see', () => {
    const e = new ApiError('RATE_LIMIT_EXCEEDED', 'slow down', [], '2026-01-01T00:00:00.000Z');
    expect(e.status).toBe(429);
    expect(e.toBody()).toEqual({
      code: 'RATE_LIMIT_EXCEEDED',
      message: 'slow down',
      retryAfter: '2026-01-01T00:00:00.000Z',
    });
    expect(toApiError(new Error('boom /etc/passwd')).toBody()).toEqual(ApiError.internal().toBody());
  });

  it("takes no stack trace for a refusal of the caller's request, and keeps one for the service's own errors", () => {
    const limit = Error.stackTraceLimit;
    const refused = ApiError.validation('bad input');
    expect(refused.stack).toBe('ApiError: bad input');
    expect(new ApiError('RATE_LIMIT_EXCEEDED', 'slow down').stack).toBe('ApiError: slow down');
    expect(new ApiError('SERVICE_BUSY', 'busy').stack?.split('\n').length).toBeGreaterThan(1);
    expect(ApiError.internal().stack?.split('\n').length).toBeGreaterThan(1);
    // Other errors keep theirs.
    expect(Error.stackTraceLimit).toBe(limit);
    expect(new Error('x').stack?.split('\n').length).toBeGreaterThan(1);
  });
});

describe('ids', () => {
  it('are prefixed, unique, and sort by creation order', () => {
    const ids = Array.from({ length: 2000 }, () => newId('apiKey'));
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    for (const id of ids.slice(0, 5)) expect(isId('apiKey', id)).toBe(true);
    expect(isId('webhook', ids[0]!)).toBe(false);
    // The first ten characters encode the creation time.
    const before = Date.now();
    const id = ulid();
    expect(id).toHaveLength(26);
    expect(id.slice(0, 10) >= ulid(before - 1000).slice(0, 10)).toBe(true);
  });

  it('encode time and randomness as ULIDs do (Crockford base32, big-endian)', () => {
    const zero = new Uint8Array(10);
    expect(encodeUlid(1469918176385, zero)).toBe('01ARYZ6S41' + '0'.repeat(16)); // the ULID spec's example time
    expect(encodeUlid(2 ** 48 - 1, new Uint8Array(10).fill(0xff))).toBe('7ZZZZZZZZZ' + 'Z'.repeat(16));
    const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
    const decode = (s: string) => [...s].reduce((v, c) => v * 32n + BigInt(alphabet.indexOf(c)), 0n);
    const bytes = Uint8Array.from([0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0xfe, 0xdc]);
    expect(decode(encodeUlid(0, bytes).slice(10))).toBe(BigInt('0x0123456789abcdeffedc'));
    // Within one millisecond the random part counts up by one.
    const a = ulid();
    const b = ulid(0); // an earlier time never goes backwards
    expect(b.slice(0, 10)).toBe(a.slice(0, 10));
    expect(decode(b.slice(10))).toBe(decode(a.slice(10)) + 1n);
  });
});

describe('scattered ids', () => {
  it('keep the shape of the others but do not follow time, and leave the time-ordered ones in order', () => {
    const ordered = [newId('event')];
    const deliveries: string[] = [];
    for (let i = 0; i < 2000; i++) {
      deliveries.push(newId('delivery'));
      ordered.push(newId('event'));
    }
    expect(new Set(deliveries).size).toBe(deliveries.length);
    for (const id of deliveries.slice(0, 20)) expect(isId('delivery', id)).toBe(true);
    // Made one after another, time-ordered ids would sort as made; these land all over the index.
    const rises = deliveries.slice(1).filter((id, i) => id > deliveries[i]!).length;
    expect(rises).toBeGreaterThan(800);
    expect(rises).toBeLessThan(1200);
    expect(new Set(deliveries.map((id) => id.slice(4, 6))).size).toBeGreaterThan(100);
    // Drawing them does not disturb the monotonic ids made between them.
    expect([...ordered].sort()).toEqual(ordered);
  });
});

describe('offset pagination', () => {
  const items = Array.from({ length: 45 }, (_, i) => i);
  it('computes the pagination metadata', () => {
    expect(paginateOffset(items, 1, 20).pagination).toEqual({
      page: 1,
      limit: 20,
      total: 45,
      pages: 3,
      hasNext: true,
      hasPrev: false,
    });
    expect(paginateOffset(items, 3, 20).items).toEqual([40, 41, 42, 43, 44]);
    expect(paginateOffset(items, 4, 20)).toEqual({
      items: [],
      pagination: { page: 4, limit: 20, total: 45, pages: 3, hasNext: false, hasPrev: true },
    });
    expect(paginateOffset([], 1, 20).pagination).toEqual({
      page: 1,
      limit: 20,
      total: 0,
      pages: 1,
      hasNext: false,
      hasPrev: false,
    });
  });
});

describe('cursor pagination', () => {
  const codec = new CursorCodec('a-secret-of-enough-length');
  const items = Array.from({ length: 25 }, (_, i) => ({ id: `evt_${String(100 - i).padStart(3, '0')}` }));
  const page = (cursor?: string, list = items) =>
    paginateCursor(list, { codec, scope: 'events:own_1', keyOf: (x) => x.id, order: 'desc', cursor, limit: 10 });

  it('walks a list to the end with opaque cursors', () => {
    const p1 = page();
    expect(p1.items.map((x) => x.id)[0]).toBe('evt_100');
    expect(p1.pagination).toMatchObject({ cursor: null, hasMore: true });
    const p2 = page(p1.pagination.nextCursor!);
    const p3 = page(p2.pagination.nextCursor!);
    expect([...p1.items, ...p2.items, ...p3.items]).toEqual(items);
    expect(p3.pagination).toMatchObject({ hasMore: false, nextCursor: null });
    expect(p1.pagination.nextCursor).not.toContain('evt_');
  });

  it('stays stable when items are added in front', () => {
    const p1 = page();
    const grown = [{ id: 'evt_200' }, { id: 'evt_150' }, ...items];
    expect(page(p1.pagination.nextCursor!, grown).items).toEqual(page(p1.pagination.nextCursor!).items);
  });

  it('refuses forged, tampered and foreign cursors with VALIDATION_ERROR on the cursor field', () => {
    const good = page().pagination.nextCursor!;
    const [payload, mac] = good.split('.');
    const forgedPayload = Buffer.from(JSON.stringify({ s: 'events:own_1', p: 'evt_050' })).toString('base64url');
    const bad = [
      'garbage',
      `${forgedPayload}.${mac}`,
      `${payload}.${mac!.slice(0, -2)}AA`,
      `${payload}.${mac}.extra`,
      new CursorCodec('another-server-secret!!').encode('events:own_1', 'evt_090'),
      codec.encode('events:own_2', 'evt_090'),
    ];
    for (const cursor of bad) {
      try {
        page(cursor);
        expect.unreachable(`accepted ${cursor}`);
      } catch (err) {
        expect(err).toBeInstanceOf(ApiError);
        expect((err as ApiError).code).toBe('VALIDATION_ERROR');
        expect((err as ApiError).details?.[0]?.field).toBe('cursor');
      }
    }
  });
});

describe('configuration', () => {
  it('takes flags over environment over defaults', () => {
    expect(loadConfig({}, {})).toMatchObject({ host: '127.0.0.1', port: 3000, logLevel: 'info', bodyLimit: 1048576 });
    expect(loadConfig({}, { SVC_PORT: '4000', SVC_API_KEY: 'k' })).toMatchObject({ port: 4000, apiKey: 'k' });
    expect(loadConfig({ port: '5000', 'api-key': 'f' }, { SVC_PORT: '4000', SVC_API_KEY: 'k' })).toMatchObject({
      port: 5000,
      apiKey: 'f',
    });
    expect(loadConfig({ 'data-dir': 'x/y' }, {}).dataDir).toMatch(/\/x\/y$/);
  });
  it('names the bad setting', () => {
    expect(() => loadConfig({ port: '70000' }, {})).toThrow(
      new ConfigError('--port must be a port number from 0 to 65535, got "70000"'),
    );
    expect(() => loadConfig({}, { SVC_PORT: 'x' })).toThrow(/SVC_PORT/);
    expect(() => loadConfig({}, { SVC_LOG_LEVEL: 'loud' })).toThrow(/SVC_LOG_LEVEL must be one of/);
    expect(() => loadConfig({}, { SVC_BODY_LIMIT: '-1' })).toThrow(/SVC_BODY_LIMIT/);
  });
});

describe('scopes', () => {
  it('X includes X:read; all includes everything', () => {
    expect(hasScope(['contracts'], 'contracts:read')).toBe(true);
    expect(hasScope(['contracts:read'], 'contracts')).toBe(false);
    expect(hasScope(['all'], 'webhooks')).toBe(true);
    expect(hasScope(['chat'], 'contracts:read')).toBe(false);
  });
});

describe('transport helpers', () => {
  it('reads the key from Bearer, then X-API-Key, then api_key', () => {
    expect(presentedKey({ authorization: 'Bearer a', 'x-api-key': 'b' }, { api_key: 'c' })).toBe('a');
    expect(presentedKey({ 'x-api-key': 'b' }, { api_key: 'c' })).toBe('b');
    expect(presentedKey({}, { api_key: 'c' })).toBe('c');
    expect(presentedKey({}, {})).toBeUndefined();
    expect(presentedKey({ authorization: 'Basic xyz' }, {})).toBe('Basic xyz');
  });

  it.each([
    'api%5Fkey',
    'API_KEY',
    'Api_Key',
    '%61%70%69%5f%6b%65%79',
    'API%5fKEY',
    'api%255Fkey',
    '%20api_key',
    '%41PI%5FKEY',
  ])('masks the api_key query parameter spelt %s in logged URLs', (name) => {
    const url = `/api/v1/templates?a=1&${name}=svc_sk_supersecret&b=2#frag`;
    const out = redactUrl(url);
    expect(out).not.toContain('svc_sk_supersecret');
    expect(out).toBe(`/api/v1/templates?a=1&${name}=[redacted]&b=2#frag`);
  });

  it('masks a key value or an embed token wherever it stands in the URL (a value given as an id, a mistyped query)', () => {
    const key = `svc_pt_${'A1b-_'.repeat(8)}xyz`;
    const token = `svc_et_emb_01JD0000000000000000000000.${'Q'.repeat(43)}`;
    for (const url of [
      `/api/v1/api-keys/${key}`,
      `/api/v1/contracts/templates;api_key=${key}`,
      `/api/v1/api-keys/${key}?a=1&q=${token}`,
      `/api/v1/contracts/${token}/deployments`,
    ]) {
      const out = redactUrl(url);
      expect(out).not.toContain(key.slice(7));
      expect(out).not.toContain(token.slice(7));
      expect(out).toContain('[redacted]');
    }
    expect(redactUrl(`/api/v1/api-keys/${key}`)).toBe('/api/v1/api-keys/svc_pt_[redacted]');
    expect(redactUrl('/api/v1/api-keys/key_01JD0000000000000000000000')).toBe(
      '/api/v1/api-keys/key_01JD0000000000000000000000',
    );
  });

  it("masks a share's claim code or a mailed link's token wherever it stands in the URL", () => {
    const code = `shc_${'Zq9-_'.repeat(8)}abc`;
    const token = `emt_${'Tk7_-'.repeat(8)}xyz`;
    for (const url of [
      `/api/v1/svcloom/shared/${code}/journal`,
      `/api/v1/svcloom/shared/claim?code=${code}`,
      `/api/svcloom/shared/claim;code=${code}`,
      `/heir?about=invitation&c=${encodeURIComponent(`x/${code}`)}`,
      `/api/v1/auth/email/verify/${token}`,
    ]) {
      const out = redactUrl(url);
      expect(out).not.toContain(code.slice(4));
      expect(out).not.toContain(token.slice(4));
      expect(out).toContain('[redacted]');
    }
    expect(redactUrl(`/api/v1/svcloom/shared/${code}/journal`)).toBe('/api/v1/svcloom/shared/shc_[redacted]/journal');
    expect(redactUrl('/api/v1/svcloom/shared/shr_01JD000000000000000000000B/journal')).toBe(
      '/api/v1/svcloom/shared/shr_01JD000000000000000000000B/journal',
    );
  });

  it('leaves other parameters alone, including ones that only contain the word', () => {
    expect(redactUrl('/x?my_api_key_hint=abc&api_keys=1&q=api_key')).toBe(
      '/x?my_api_key_hint=abc&api_keys=1&q=api_key',
    );
    expect(redactUrl('/x?token=t1&access_token=t2&password=p')).toBe(
      '/x?token=[redacted]&access_token=[redacted]&password=[redacted]',
    );
  });

  it('coerces query strings to the declared types only', () => {
    const shape = {
      page: z.number().int().default(1),
      flag: z.boolean().optional(),
      tags: z.array(z.string()).optional(),
      q: z.string(),
    };
    expect(coerceQuery(shape, { page: '2', flag: 'true', tags: 'a,b', q: '42', other: 'x' })).toEqual({
      page: 2,
      flag: true,
      tags: ['a', 'b'],
      q: '42',
      other: 'x',
    });
    expect(coerceQuery(shape, { page: 'two', flag: 'yes' })).toEqual({ page: 'two', flag: 'yes' });
    // Plain decimal only; a fraction where the field is not an integer.
    const numbers = { share: z.number().min(0).optional(), count: z.number().int().default(1) };
    expect(coerceQuery(numbers, { share: '0.25', count: '-3' })).toEqual({ share: 0.25, count: -3 });
    for (const text of ['0x10', '1e1', ' 1', '1 ', '0b11', '.5', '5.', '+1', 'Infinity', 'NaN', '1,5'])
      expect(coerceQuery(numbers, { share: text, count: text }), text).toEqual({ share: text, count: text });
    expect(coerceQuery(numbers, { count: '2.5' })).toEqual({ count: 2.5 });
    // A whole number written with a decimal part is that number, as `2.0` is in a JSON body.
    expect(coerceQuery(numbers, { count: '2.0' })).toEqual({ count: 2 });
  });

  it('masks api_key in logged URLs, and the logger redacts credentials', () => {
    expect(redactUrl('/x?a=1&api_key=svc_sk_secret&b=2')).toBe('/x?a=1&api_key=[redacted]&b=2');
    expect(redactUrl('/x?page=2')).toBe('/x?page=2');
    expect(redactUrl('/x?a%E0%A4%A=1&api%5Fkey=s')).toBe('/x?a%E0%A4%A=1&api%5Fkey=[redacted]'); // a malformed name does not throw
    expect(redactUrl('/x')).toBe('/x');
    const lines: string[] = [];
    const sink = new Writable({
      write: (chunk, _e, cb) => {
        lines.push(String(chunk));
        cb();
      },
    });
    const log = pino({ redact: { paths: ['req.headers.authorization', 'apiKey'], censor: '[redacted]' } }, sink);
    log.info({ req: { headers: { authorization: 'Bearer svc_sk_secret' } }, apiKey: 'svc_sk_secret' }, 'x');
    expect(lines.join('')).not.toContain('svc_sk_secret');
  });
});

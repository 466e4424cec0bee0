/**
 * Fetches an avatar photo from an HTTPS URL through the webhook address guard
 * (src/webhooks/guard.ts): HTTPS only, every address the host resolves to must
 * be public (unless the operator allows it, SVC_WEBHOOK_ALLOW), and the
 * connection goes only to the addresses checked. Size and time capped; the
 * content must be an image by its bytes.
 */
import { ApiError } from '../core/errors.js';
import { pinnedLookup, resolveCheckedHost, resolveCheckedUrl } from '../webhooks/guard.js';

export const MAX_PHOTO_BYTES = 10 * 1024 * 1024;
/**
 * The whole fetch's time, from the request to the last byte. undici's body timeout is per chunk: a server sending a
 * byte every few seconds would otherwise hold the call, its connection and its memory for as long as it liked.
 */
export const PHOTO_FETCH_DEADLINE_MS = 30_000;

export async function fetchPhoto(
  url: string,
  opts: {
    allow?: string | undefined;
    signal?: AbortSignal | undefined;
    ca?: string | undefined;
    /** The whole fetch's limit (PHOTO_FETCH_DEADLINE_MS unless given). */
    deadlineMs?: number | undefined;
  } = {},
): Promise<Buffer> {
  const guard = { allow: opts.allow };
  let checked;
  try {
    checked = await resolveCheckedUrl(url, guard);
  } catch (err) {
    if (err instanceof ApiError)
      throw ApiError.validation('The photo URL is not allowed', [
        { field: 'photoUrl', reason: err.details?.[0]?.reason ?? err.message },
      ]);
    throw err;
  }
  // Loaded with the first fetch, not with the service.
  const [{ Agent, buildConnector, request }, { fileTypeFromBuffer }] = await Promise.all([
    import('undici'),
    import('file-type'),
  ]);
  const agent = new Agent({
    connections: 1,
    connect: (options, callback) => {
      resolveCheckedHost(options.hostname, guard).then(
        (addresses) =>
          buildConnector({ lookup: pinnedLookup(addresses), ...(opts.ca ? { ca: opts.ca } : {}) })(options, callback),
        (err: Error) => callback(err, null),
      );
    },
  });
  const deadline = AbortSignal.timeout(opts.deadlineMs ?? PHOTO_FETCH_DEADLINE_MS);
  const signal = opts.signal ? AbortSignal.any([opts.signal, deadline]) : deadline;
  try {
    const res = await request(checked.url, {
      dispatcher: agent,
      method: 'GET',
      maxRedirections: 0,
      headersTimeout: 10_000,
      bodyTimeout: 20_000,
      signal,
    } as Parameters<typeof request>[1]);
    if (res.statusCode !== 200) {
      await res.body.dump();
      throw ApiError.validation('The photo could not be fetched', [
        { field: 'photoUrl', reason: `the server answered ${res.statusCode}` },
      ]);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > MAX_PHOTO_BYTES) {
        res.body.destroy();
        throw new ApiError('PAYLOAD_TOO_LARGE', `The photo is larger than ${MAX_PHOTO_BYTES} bytes.`, [
          { field: 'photoUrl', reason: 'too large' },
        ]);
      }
      chunks.push(chunk as Buffer);
    }
    const photo = Buffer.concat(chunks);
    const type = await fileTypeFromBuffer(photo);
    if (!type?.mime.startsWith('image/'))
      throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'The photo URL does not point to an image.', [
        { field: 'photoUrl', reason: 'not an image' },
      ]);
    return photo;
  } catch (err) {
    if (err instanceof ApiError) throw err;
    const reason = deadline.aborted
      ? `it took longer than ${Math.round((opts.deadlineMs ?? PHOTO_FETCH_DEADLINE_MS) / 1000)} s`
      : failure(err);
    throw ApiError.validation('The photo could not be fetched', [{ field: 'photoUrl', reason }]);
  } finally {
    await agent.close();
  }
}

/**
 * Why a fetch failed, from the error's code (a TLS verification failure such
 * as DEPTH_ZERO_SELF_SIGNED_CERT, ECONNREFUSED, an undici timeout), never its
 * message, which may hold an address.
 */
function failure(err: unknown): string {
  const e = err as { code?: unknown; name?: unknown; cause?: { code?: unknown } };
  const code = typeof e.code === 'string' ? e.code : typeof e.cause?.code === 'string' ? e.cause.code : undefined;
  if (code && /CERT|SSL|TLS|SIGNATURE|ISSUER/i.test(code)) return `the server's certificate is not trusted (${code})`;
  if (code) return `could not fetch it (${code})`;
  return typeof e.name === 'string' ? e.name : 'could not fetch it';
}

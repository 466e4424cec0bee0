/**
 * The memoir routes that are not JSON: POST /media/upload (multipart in),
 * /voice/synthesize and /avatar/generate (audio or video out), GET /export
 * (a Markdown file, or a PDF streamed as it is drawn), at /api/v1/svcloom
 * and /api/svcloom. For the upload: The caller is admitted first (session + CSRF,
 * counted like any call) so nothing is written for a refused request; the file
 * is then streamed to the staging area and typed by its bytes (src/memoir/media.ts),
 * and the upload_memoir_media tool records it through invokeTool like every
 * other operation. Multipart parsing is registered in this plugin only, so other
 * routes keep refusing multipart bodies.
 */
import multipart from '@fastify/multipart';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '../accounts/sessions.js';
import { makeMeta } from '../core/envelope.js';
import { ApiError } from '../core/errors.js';
import { quotaExceeded, releaseStorage, reserveStorage, shrinkReservation } from '../accounts/quota.js';
import { accountStore } from '../accounts/tenancy.js';
import { DEFAULT_UPLOAD_LIMITS, discardStaged, newStagingId, stageUpload, uploadFileName, type Staged } from '../memoir/media.js';
import type { Store } from '../store/port.js';
import type { Services } from '../tools/define.js';
import type { CallInfo } from '../access/call.js';
import { admitPrincipal } from '../access/principal.js';
import { invokeTool } from '../tools/invoke.js';
import { exportMemoirTool, exportSharedMemoirTool } from '../tools/memoir/export.js';
import { uploadMemoirMediaTool } from '../tools/memoir/media.js';
import { generateAvatarTool, synthesizeVoiceTool } from '../tools/memoir/voice.js';
import { restCall } from './rest-call.js';

const both = (p: string) => [`/api/v1/svcloom${p}`, `/api/svcloom${p}`];

/** Rate headers and a renewed session cookie, on success and refusal alike. */
function finish(reply: FastifyReply, call: CallInfo, services: Services): void {
  if (call.rate) {
    reply.header('X-RateLimit-Limit', call.rate.limit);
    reply.header('X-RateLimit-Remaining', call.rate.remaining);
    reply.header('X-RateLimit-Reset', call.rate.resetAt.toISOString());
  }
  if (call.cookie && call.cookie !== 'clear') {
    reply.setCookie(SESSION_COOKIE, call.cookie.token, { path: '/', httpOnly: true, sameSite: 'lax', secure: (services.config.publicUrl ?? '').startsWith('https://'), expires: call.cookie.expiresAt });
  }
}

/**
 * The upload must be multipart/form-data with a usable boundary (1 to 70 characters): anything else is refused
 * here, in the envelope, before the multipart parser sees it (415 for another type, 400 for a broken header).
 */
function checkMultipart(req: FastifyRequest): void {
  const header = req.headers['content-type'] ?? '';
  const [type = '', ...params] = header.split(';');
  if (!req.isMultipart() || type.trim().toLowerCase() !== 'multipart/form-data') {
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', 'Send the file as multipart/form-data with a "file" field.', [
      { field: '', reason: `Content-Type ${JSON.stringify(type.trim().slice(0, 100) || '(none)')} is not multipart/form-data` },
    ]);
  }
  const boundary = params
    .map((p) => p.trim())
    .find((p) => /^boundary=/i.test(p))
    ?.slice('boundary='.length)
    .replace(/^"(.*)"$/, '$1');
  if (!boundary || !/^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/.test(boundary)) {
    throw ApiError.validation('The multipart/form-data Content-Type needs a boundary parameter of 1 to 70 characters.', [
      { field: '', reason: boundary ? 'invalid multipart boundary' : 'no multipart boundary' },
    ]);
  }
}

/** The request's declared length, when it has one (a chunked request has none). */
function contentLength(req: FastifyRequest): number | undefined {
  const raw = req.headers['content-length'];
  return raw !== undefined && /^\d+$/.test(raw) && Number.isSafeInteger(Number(raw)) ? Number(raw) : undefined;
}

/**
 * What the multipart parser's failures mean for the client: a body cut short or malformed, or a form with more parts
 * than an upload has, is a 400; a file past the largest size a 413, in the envelope. Anything else (a disk error while staging) goes on as it is.
 */
function multipartProblem(err: unknown): unknown {
  if (err instanceof ApiError) return err;
  const e = err as { code?: unknown; statusCode?: unknown; message?: unknown } | undefined;
  const code = typeof e?.code === 'string' ? e.code : '';
  const message = typeof e?.message === 'string' ? e.message : '';
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new ApiError('PAYLOAD_TOO_LARGE', 'The file is larger than an upload may be.', [{ field: 'file', reason: 'too large' }]);
  if (code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT') {
    return ApiError.validation('The form has more parts than an upload takes: exactly one file, in "file", and at most the durationMinutes field.', [
      { field: '', reason: code === 'FST_FILES_LIMIT' ? 'more than one file' : 'too many fields' },
    ]);
  }
  if (code.startsWith('FST_')) return ApiError.validation('The multipart body could not be read.', [{ field: '', reason: code }]);
  if (/multipart|boundary|terminated early/i.test(message)) {
    return ApiError.validation('The multipart body is truncated or malformed.', [{ field: '', reason: 'malformed or truncated multipart/form-data' }]);
  }
  return err;
}

function jsonBody(req: FastifyRequest): Record<string, unknown> {
  const body = req.body;
  if (body !== undefined && body !== null && (typeof body !== 'object' || Array.isArray(body))) {
    throw ApiError.validation('The body must be a JSON object.', [{ field: '', reason: 'expected a JSON object' }]);
  }
  const stray = Object.keys((req.query ?? {}) as object).filter((k) => k !== 'api_key');
  if (stray.length) throw ApiError.validation('Send the input in the JSON body.', stray.map((field) => ({ field, reason: 'unknown query parameter' })));
  return { ...((body as Record<string, unknown> | undefined) ?? {}) };
}

/** WAV unless the client asks for Ogg Opus. */
function audioFormat(accept: string | undefined): 'wav' | 'opus' {
  return accept && /audio\/(ogg|opus)/i.test(accept) && !/audio\/(wav|wave|x-wav)/i.test(accept) ? 'opus' : 'wav';
}

function abortOnClose(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) controller.abort(ApiError.validation('The client closed the connection before the answer.', [{ field: '', reason: 'cancelled' }]));
  });
  return controller.signal;
}

export async function registerMemoirUpload(app: FastifyInstance, services: Services): Promise<void> {
  const limits = services.config.memoirUploadLimits ?? DEFAULT_UPLOAD_LIMITS;
  await app.register(async (scope) => {
    await scope.register(multipart, {
      limits: { fileSize: Math.max(limits.photo, limits.audio, limits.video), files: 1, fields: 4, fieldSize: 1024, parts: 6 },
      // The client's file name as sent, so that a name holding a path is refused rather than quietly cut to its end.
      preservePath: true,
    });
    const handler = async (req: FastifyRequest, reply: FastifyReply) => {
      const call = restCall(req);
      let staged: Staged | undefined;
      let reservation: { store: Store; accountId: string; id: string } | undefined;
      let committed = false;
      const quota = { defaultLimit: services.config.storageQuotaBytes, now: services.clock.now() };
      try {
        // Who is calling, before a byte of the file is stored.
        const principal = await admitPrincipal(services, call, 'all', uploadMemoirMediaTool.principals);
        call.admitted = principal;
        checkMultipart(req);
        // Room in the account's storage quota, before anything is staged: the request's length bounds the file.
        const store = accountStore(services.store, principal.ownerId);
        const stagingId = newStagingId();
        const declared = contentLength(req);
        const { bytes: reserved, before } = await reserveStorage(
          store,
          principal.ownerId,
          stagingId,
          declared !== undefined ? { bytes: declared } : { bytes: Math.max(limits.photo, limits.audio, limits.video), atLeast: 1 },
          quota,
        );
        reservation = { store, accountId: principal.ownerId, id: stagingId };
        const fields = new Map<string, string>();
        let originalName: string | null = null;
        try {
          for await (const part of req.parts()) {
            if (part.type === 'file') {
              if (part.fieldname !== 'file' || staged) {
                part.file.resume();
                throw ApiError.validation('Exactly one file, in the field "file".', [{ field: part.fieldname, reason: 'unexpected file field' }]);
              }
              try {
                originalName = uploadFileName(part.filename);
              } catch (err) {
                part.file.resume();
                throw err;
              }
              staged = await stageUpload(services.config.dataDir, part.file, limits, {
                stagingId,
                cap: { bytes: reserved, refuse: (size) => quotaExceeded(before, size) },
              });
            } else {
              fields.set(part.fieldname, String(part.value));
            }
          }
        } catch (err) {
          throw multipartProblem(err);
        }
        if (!staged) throw ApiError.validation('No file was sent.', [{ field: 'file', reason: 'required' }]);
        // The room the file did not take is free for other uploads at once.
        if (staged.size < reserved) await shrinkReservation(store, principal.ownerId, stagingId, staged.size, quota);
        const unknown = [...fields.keys()].filter((f) => f !== 'durationMinutes');
        if (unknown.length) throw ApiError.validation('Unknown form fields.', unknown.map((field) => ({ field, reason: 'unknown field' })));
        let durationMinutes: number | null = null;
        const declaredMinutes = fields.get('durationMinutes');
        if (declaredMinutes !== undefined) {
          durationMinutes = Number(declaredMinutes);
          if (!/^\d+(\.\d+)?$/.test(declaredMinutes.trim()) || durationMinutes > 24 * 60) {
            throw ApiError.validation('Invalid durationMinutes.', [{ field: 'durationMinutes', reason: 'a number of minutes from 0 to 1440' }]);
          }
        }
        const output = await invokeTool(uploadMemoirMediaTool, { ...staged, originalName, durationMinutes }, services, call);
        committed = true;
        staged = undefined;
        reply.status(201);
        return { success: true, data: output, meta: makeMeta(String(req.id), services.clock.now()) };
      } finally {
        if (staged) await discardStaged(services.config.dataDir, staged.stagingId);
        if (reservation && !committed) {
          // A failed upload gives its room back; if the store cannot be reached now, the reservation lapses by itself.
          await releaseStorage(reservation.store, reservation.accountId, reservation.id, quota).catch((err: unknown) =>
            req.log.warn({ err: (err as Error).name, requestId: req.id }, 'could not release an upload\'s storage reservation'),
          );
        }
        finish(reply, call, services);
      }
    };
    await scope.register(async (upload) => {
      // Any other Content-Type reaches the handler unread, which admits the caller and then answers 415 (not the
      // generic "send JSON" answer other routes give).
      upload.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
      for (const url of both('/media/upload')) upload.post(url, { schema: { hide: true } }, handler);
    });

    // Speech and avatar answer with bytes, not JSON: the tools run through invokeTool, the bytes go out here.
    const binary = (tool: typeof synthesizeVoiceTool | typeof generateAvatarTool) => async (req: FastifyRequest, reply: FastifyReply) => {
      const call = restCall(req);
      try {
        call.admitted = await admitPrincipal(services, call, 'all', tool.principals);
        const input = jsonBody(req);
        if (tool === synthesizeVoiceTool) input.format = audioFormat(req.headers.accept);
        call.signal = abortOnClose(reply);
        const out = (await invokeTool(tool, input, services, call)) as Record<string, unknown> & {
          voice: { style: string; pitchFactor: number };
          charge: { credits: number };
        };
        const bytes = Buffer.from(String(out.audioBase64 ?? out.videoBase64), 'base64');
        reply.header('X-Memoir-Voice-Style', out.voice.style).header('X-Memoir-Pitch-Factor', out.voice.pitchFactor).header('X-Credits-Charged', out.charge.credits);
        reply.header('X-Media-Duration', String(out.durationSeconds));
        return reply.type(String(out.contentType ?? 'video/mp4')).send(bytes);
      } finally {
        finish(reply, call, services);
      }
    };
    // The memoir as a book, downloaded as a file.
    // Also a shared memoir's book (heirs' access): the share named in the path is opened by invokeTool.
    const exportHandler = (tool: typeof exportMemoirTool | typeof exportSharedMemoirTool) => async (req: FastifyRequest, reply: FastifyReply) => {
      const call = restCall(req);
      try {
        call.admitted = await admitPrincipal(services, call, 'all', tool.principals);
        const { api_key: _key, ...query } = (req.query ?? {}) as Record<string, unknown>;
        const input = { ...query, ...(req.params as Record<string, unknown>) };
        const out = (await invokeTool(tool, input, services, call)) as { contentBase64?: string; stream?: Readable; contentType: string; fileName: string };
        reply.header('Content-Disposition', `attachment; filename="${out.fileName}"`).header('Cache-Control', 'no-store');
        // The PDF is a stream drawn as it is sent: any refusal came before this point, enveloped; a failure while
        // drawing destroys the stream and so cuts the download short (never a complete-looking broken file). Fastify
        // destroys the stream if the client goes away, which stops the drawing.
        return reply.type(out.contentType).send(out.stream ?? Buffer.from(out.contentBase64 ?? '', 'base64'));
      } finally {
        finish(reply, call, services);
      }
    };
    for (const url of both('/export')) scope.get(url, { schema: { hide: true } }, exportHandler(exportMemoirTool));
    for (const url of both('/shared/:shareId/export')) scope.get(url, { schema: { hide: true } }, exportHandler(exportSharedMemoirTool));

    for (const url of both('/voice/synthesize')) scope.post(url, { schema: { hide: true } }, binary(synthesizeVoiceTool));
    for (const url of both('/avatar/generate')) scope.post(url, { schema: { hide: true } }, binary(generateAvatarTool));
  });
}

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
import { DEFAULT_UPLOAD_LIMITS, discardStaged, stageUpload, type Staged } from '../memoir/media.js';
import type { Services } from '../tools/define.js';
import { admitPrincipal, invokeTool, type CallInfo } from '../tools/invoke.js';
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
    });
    const handler = async (req: FastifyRequest, reply: FastifyReply) => {
      const call = restCall(req);
      let staged: Staged | undefined;
      try {
        // Who is calling, before a byte of the file is stored.
        call.admitted = await admitPrincipal(services, call, 'all', uploadMemoirMediaTool.principals);
        if (!req.isMultipart()) {
          throw ApiError.validation('Send the file as multipart/form-data with a "file" field.', [{ field: 'file', reason: 'not a multipart body' }]);
        }
        const fields = new Map<string, string>();
        let originalName: string | null = null;
        for await (const part of req.parts()) {
          if (part.type === 'file') {
            if (part.fieldname !== 'file' || staged) {
              part.file.resume();
              throw ApiError.validation('Exactly one file, in the field "file".', [{ field: part.fieldname, reason: 'unexpected file field' }]);
            }
            originalName = part.filename ? part.filename.slice(0, 255) : null;
            staged = await stageUpload(services.config.dataDir, part.file, limits);
          } else {
            fields.set(part.fieldname, String(part.value));
          }
        }
        if (!staged) throw ApiError.validation('No file was sent.', [{ field: 'file', reason: 'required' }]);
        const unknown = [...fields.keys()].filter((f) => f !== 'durationMinutes');
        if (unknown.length) throw ApiError.validation('Unknown form fields.', unknown.map((field) => ({ field, reason: 'unknown field' })));
        let durationMinutes: number | null = null;
        const declared = fields.get('durationMinutes');
        if (declared !== undefined) {
          durationMinutes = Number(declared);
          if (!/^\d+(\.\d+)?$/.test(declared.trim()) || durationMinutes > 24 * 60) {
            throw ApiError.validation('Invalid durationMinutes.', [{ field: 'durationMinutes', reason: 'a number of minutes from 0 to 1440' }]);
          }
        }
        const output = await invokeTool(uploadMemoirMediaTool, { ...staged, originalName, durationMinutes }, services, call);
        staged = undefined;
        reply.status(201);
        return { success: true, data: output, meta: makeMeta(String(req.id), services.clock.now()) };
      } finally {
        if (staged) await discardStaged(services.config.dataDir, staged.stagingId);
        finish(reply, call, services);
      }
    };
    for (const url of both('/media/upload')) scope.post(url, { schema: { hide: true } }, handler);

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

/**
 * Memoir media: uploads streamed to the data directory (directories 0700, files
 * 0600) with a size limit per kind, the kind decided by the file's own bytes
 * (file-type), never by its name or the client's Content-Type; and inference:
 * images through sharp and exifr, audio through music-metadata and a
 * pocketsphinx transcript, video through ffprobe and the transcript of its audio.
 */
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { settleReservation } from '../accounts/quota.js';
import { ApiError } from '../core/errors.js';
import type { Clock } from '../core/clock.js';
import type { Store } from '../store/port.js';
import { run, toolProblem, withMediaPlace } from './exec.js';
import { newestPage } from './pages.js';
import { MEMOIR_MEDIA, memoirId, type MediaKind, type MediaRecord } from './records.js';

export type UploadLimits = { photo: number; audio: number; video: number };
export const DEFAULT_UPLOAD_LIMITS: UploadLimits = {
  photo: 20 * 1024 * 1024,
  audio: 100 * 1024 * 1024,
  video: 500 * 1024 * 1024,
};

/** Where an account's media live. The account id is from the principal (acct_ + ULID), never from input. */
export function mediaDir(dataDir: string, ownerId: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(ownerId)) throw new Error('unexpected account id');
  return path.join(dataDir, 'memoir-media', ownerId);
}
export const stagingDir = (dataDir: string) => path.join(dataDir, 'memoir-media', '.staging');

/** The kind of a detected MIME type, or undefined when it is none of photo, audio, video. */
export function kindOf(mime: string): MediaKind | undefined {
  if (mime.startsWith('image/')) return 'photo';
  if (mime.startsWith('audio/')) return 'audio';
  if (mime.startsWith('video/')) return 'video';
  if (mime === 'application/ogg') return 'audio';
  return undefined;
}

export interface Staged {
  stagingId: string;
  kind: MediaKind;
  mime: string;
  ext: string;
  size: number;
}

/** How many bytes file-type may need to recognise a format. */
const SNIFF_BYTES = 4100;

/**
 * Most pixels a photo may declare (width x height, read from its header before anything decodes it): past it, an
 * upload is refused (413) and no photo is decoded. A small file can declare a huge image (a decompression bomb:
 * a 200-byte PNG saying 50000 x 50000 would take 7.5 GB to decode). The PDF export reads photos under the same limit.
 */
export const MAX_IMAGE_PIXELS = 100_000_000;

/**
 * A photo turned upright, at most `maxPx` on its longer side, on white, as a JPEG without any of the original's
 * metadata, scaled in a place of the media work (./exec.ts). Rejects when sharp cannot read it, or when the place is
 * refused (SERVICE_BUSY).
 */
export async function uprightJpeg(input: string | Buffer, maxPx: number, quality: number): Promise<Buffer> {
  const sharp = (await import('sharp')).default;
  return withMediaPlace(undefined, () =>
    sharp(input, { failOn: 'error', limitInputPixels: MAX_IMAGE_PIXELS })
      .rotate()
      .resize(maxPx, maxPx, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality })
      .toBuffer(),
  );
}

/** A new staging id (also the id of the upload's storage reservation). */
export const newStagingId = () => randomBytes(16).toString('hex');

/**
 * Refuses (413) an image whose header declares more than MAX_IMAGE_PIXELS, reading only the header. An image
 * sharp cannot read at all passes here: whatever reads it later fails on its own.
 */
export async function checkImagePixels(input: string | Buffer, field = 'file'): Promise<void> {
  const sharp = (await import('sharp')).default;
  let meta: { width?: number | undefined; height?: number | undefined };
  try {
    // limitInputPixels: false lets sharp report the declared size instead of refusing; metadata() decodes no pixels.
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    return;
  }
  const pixels = (meta.width ?? 0) * (meta.height ?? 0);
  if (pixels > MAX_IMAGE_PIXELS) {
    throw new ApiError(
      'PAYLOAD_TOO_LARGE',
      `This image declares ${meta.width} x ${meta.height} pixels; a photo may have at most ${MAX_IMAGE_PIXELS} pixels.`,
      [{ field, reason: `more than ${MAX_IMAGE_PIXELS} pixels` }],
    );
  }
}

/**
 * The file name a client gave, as shown back (never used as a path): at most 255 characters, null when none.
 * A name holding a path (a slash or a backslash), a control character (NUL included), or that is "." or "..",
 * is refused: it is a broken or hostile client.
 */
export function uploadFileName(raw: string | undefined): string | null {
  if (raw === undefined || raw === '') return null;
  const control = /[\u0000-\u001f\u007f]/.test(raw);
  if (control || /[/\\]/.test(raw) || raw === '.' || raw === '..') {
    throw ApiError.validation('The file name must be a plain name: no path, no control characters.', [
      { field: 'file', reason: control ? 'the file name holds a control character' : 'the file name holds a path' },
    ]);
  }
  return raw.slice(0, 255);
}

export interface StageOptions {
  /** The staging id (made here when not given). */
  stagingId?: string;
  /** Bytes the upload may take at most (its storage reservation), and the error past it. */
  cap?: { bytes: number; refuse: (size: number) => ApiError };
}

/**
 * Streams an upload into a staging file: reads enough to recognise the format,
 * refuses anything but a photo, audio or video (415), then writes the rest,
 * refusing past the kind's limit (413) or the reserved room (`opts.cap`), and a
 * photo declaring more than MAX_IMAGE_PIXELS (413). The staging file is removed
 * on refusal.
 */
export async function stageUpload(
  dataDir: string,
  source: AsyncIterable<Buffer> & Readable,
  limits: UploadLimits,
  opts: StageOptions = {},
): Promise<Staged> {
  const dir = stagingDir(dataDir);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const stagingId = opts.stagingId ?? newStagingId();
  if (!/^[0-9a-f]{32}$/.test(stagingId)) throw new Error('unexpected staging id');
  const file = path.join(dir, stagingId);
  const cap = opts.cap;
  const iterator = source[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let headBytes = 0;
  let done = false;
  while (headBytes < SNIFF_BYTES) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    head.push(next.value);
    headBytes += next.value.length;
  }
  const first = Buffer.concat(head);
  const { fileTypeFromBuffer } = await import('file-type');
  const type = await fileTypeFromBuffer(first);
  const kind = type ? kindOf(type.mime) : undefined;
  if (!type || !kind) {
    source.resume();
    throw new ApiError(
      'UNSUPPORTED_MEDIA_TYPE',
      `Only photos, audio and video are accepted; this file's content is ${type ? type.mime : 'not a recognised media format'} (the name and Content-Type are not trusted).`,
      [{ field: 'file', reason: 'not a photo, audio or video file' }],
    );
  }
  const limit = limits[kind];
  let size = 0;
  const tooLarge = () =>
    new ApiError('PAYLOAD_TOO_LARGE', `A ${kind} upload may be at most ${limit} bytes.`, [
      { field: 'file', reason: `larger than ${limit} bytes` },
    ]);
  const count = (chunk: Buffer) => {
    size += chunk.length;
    if (size > limit) throw tooLarge();
    if (cap && size > cap.bytes) throw cap.refuse(size);
  };
  async function* all(): AsyncGenerator<Buffer> {
    count(first);
    yield first;
    if (done) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      count(next.value);
      yield next.value;
    }
  }
  const out = createWriteStream(file, { mode: 0o600, flags: 'wx' });
  // The file is opened asynchronously: a refusal in the first chunk can come before the open completes, so the
  // removal below waits for the stream to close, or the open would create the file again after it.
  const closed = new Promise<void>((resolve) => out.once('close', () => resolve()));
  try {
    await pipeline(all(), out);
    // @fastify/multipart marks a file cut at its own limit as truncated.
    if ((source as Readable & { truncated?: boolean }).truncated) throw tooLarge();
    if (kind === 'photo') await checkImagePixels(file);
  } catch (err) {
    source.resume();
    if (!out.closed) await closed;
    await rm(file, { force: true });
    throw err;
  }
  return { stagingId, kind, mime: type.mime, ext: type.ext, size };
}

/**
 * Moves a staged upload into the account's media and records it (the file is removed if recording fails). The
 * record is written in one transaction with the settlement of the upload's storage reservation (its staging id):
 * past the account's quota (no reservation, or a record larger than reserved) it is refused, 413 QUOTA_EXCEEDED.
 */
export async function commitUpload(
  deps: { store: Store; clock: Clock; dataDir: string; defaultQuota?: number | undefined },
  ownerId: string,
  staged: Staged,
  info: {
    originalName: string | null;
    durationMinutes: number | null;
    durationSeconds: number | null;
    medianPitchHz: number | null;
  },
): Promise<MediaRecord> {
  if (!/^[0-9a-f]{32}$/.test(staged.stagingId))
    throw ApiError.validation('Invalid upload', [{ field: 'stagingId', reason: 'unknown upload' }]);
  const now = deps.clock.now();
  const id = memoirId('med', now.getTime());
  const dir = mediaDir(deps.dataDir, ownerId);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = `${id}.${staged.ext}`;
  await rename(path.join(stagingDir(deps.dataDir), staged.stagingId), path.join(dir, file));
  const record: MediaRecord = {
    id,
    ownerId,
    kind: staged.kind,
    mime: staged.mime,
    ext: staged.ext,
    size: staged.size,
    file,
    originalName: info.originalName,
    durationMinutes: info.durationMinutes,
    durationSeconds: info.durationSeconds,
    medianPitchHz: info.medianPitchHz,
    createdAt: now.toISOString(),
  };
  try {
    await deps.store.transact(async (tx) => {
      await settleReservation(tx, ownerId, staged.stagingId, staged.size, { defaultLimit: deps.defaultQuota, now });
      await tx.put(MEMOIR_MEDIA, record);
    });
  } catch (err) {
    await rm(path.join(dir, file), { force: true });
    throw err;
  }
  return record;
}

export async function discardStaged(dataDir: string, stagingId: string): Promise<void> {
  if (/^[0-9a-f]{32}$/.test(stagingId)) await rm(path.join(stagingDir(dataDir), stagingId), { force: true });
}

export function publicMedia(m: MediaRecord) {
  return {
    id: m.id,
    kind: m.kind,
    mime: m.mime,
    size: m.size,
    originalName: m.originalName,
    caption: typeof m.caption === 'string' ? m.caption : null,
    private: m.private === true,
    durationMinutes: m.durationMinutes,
    durationSeconds: m.durationSeconds ?? null,
    createdAt: m.createdAt,
    ...(m.updatedAt ? { updatedAt: m.updatedAt } : {}),
  };
}

/** Longest caption an owner may write, characters. */
export const MAX_CAPTION = 500;

/** What an owner may change on a media item: its caption (null removes it) and whether heirs may see it. */
export interface MediaPatch {
  caption?: string | null | undefined;
  private?: boolean | undefined;
}

/**
 * Changes a media item's caption or privacy in one transaction (404 for an item not in the caller's view). A caption
 * is kept as one trimmed line of text; an empty one removes it. A private item is the owner's alone: heirs do not
 * list, download, hear, read in the book or reach through the chat anything of it, its description included.
 */
export async function updateMedia(store: Store, clock: Clock, id: string, patch: MediaPatch): Promise<MediaRecord> {
  if (patch.caption === undefined && patch.private === undefined)
    throw ApiError.validation('Nothing to change: give caption or private.', [
      { field: 'caption', reason: 'give caption, private, or both' },
    ]);
  let caption: string | null | undefined = patch.caption;
  if (typeof caption === 'string') {
    caption = caption.normalize('NFC').replace(/\s+/g, ' ').trim();
    if (/[\u0000-\u001f\u007f]/.test(caption))
      throw ApiError.validation('A caption may not hold control characters.', [
        { field: 'caption', reason: 'control character' },
      ]);
    if (caption.length > MAX_CAPTION)
      throw ApiError.validation(`A caption may be at most ${MAX_CAPTION} characters.`, [
        { field: 'caption', reason: `longer than ${MAX_CAPTION} characters` },
      ]);
    if (!caption) caption = null;
  }
  return store.transact(async (tx) => {
    const current = await tx.get<MediaRecord>(MEMOIR_MEDIA, id);
    if (!current) throw ApiError.notFound(`Media item ${id.slice(0, 60)}`);
    const next: MediaRecord = { ...current, updatedAt: clock.now().toISOString() };
    if (caption !== undefined) {
      if (caption === null) delete next.caption;
      else next.caption = caption;
    }
    if (patch.private !== undefined) next.private = patch.private;
    await tx.put(MEMOIR_MEDIA, next);
    return next;
  });
}

/** A page of the account's media, newest first, reading only the page's records (src/memoir/pages.ts). */
export async function listMedia(store: Store, ownerId: string, page: number, limit: number) {
  const { items, pagination } = await newestPage<MediaRecord>(store, MEMOIR_MEDIA, ownerId, page, limit);
  return { items: items.map(publicMedia), pagination };
}

export async function getMedia(store: Store, id: string): Promise<MediaRecord> {
  const m = await store.get<MediaRecord>(MEMOIR_MEDIA, id);
  if (!m) throw ApiError.notFound(`Media item ${id.slice(0, 60)}`);
  return m;
}

export function mediaFile(dataDir: string, m: MediaRecord): string {
  return path.join(mediaDir(dataDir, m.ownerId), m.file);
}

/** Deletes the record and its file (and the stored inference results, which are part of the record). */
export async function deleteMedia(deps: { store: Store; dataDir: string }, id: string) {
  const m = await getMedia(deps.store, id);
  await deps.store.delete(MEMOIR_MEDIA, m.id);
  await rm(mediaFile(deps.dataDir, m), { force: true });
  return { id: m.id, deleted: true as const };
}

export interface Inference {
  kind: MediaKind;
  mime: string;
  width: number | null;
  height: number | null;
  format: string | null;
  takenAt: string | null;
  /** Only when asked for (`includeGps`): where a photo was taken. */
  gps: { latitude: number; longitude: number } | null;
  gpsAvailable: boolean;
  durationSeconds: number | null;
  codec: string | null;
  sampleRate: number | null;
  channels: number | null;
  hasAudio: boolean;
  transcript: string | null;
  /** What a photo shows, in words, from the configured vision model (null without one, and for audio and video). */
  description: string | null;
}

const blank = (m: MediaRecord): Inference => ({
  kind: m.kind,
  mime: m.mime,
  width: null,
  height: null,
  format: null,
  takenAt: null,
  gps: null,
  gpsAvailable: false,
  durationSeconds: null,
  codec: null,
  sampleRate: null,
  channels: null,
  hasAudio: false,
  transcript: null,
  description: null,
});

const pad = (n: number) => String(n).padStart(2, '0');
function localStamp(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** Speech to text with pocketsphinx (en-us), from any audio ffmpeg reads. */
export async function transcribe(file: string, signal?: AbortSignal): Promise<string> {
  const tmp = `${file}.${randomBytes(6).toString('hex')}.16k.wav`;
  try {
    await run(
      'ffmpeg',
      ['-v', 'error', '-nostdin', '-y', '-i', file, '-vn', '-ar', '16000', '-ac', '1', '-f', 'wav', tmp],
      { signal },
    );
    const { stdout } = await run('pocketsphinx_continuous', ['-infile', tmp, '-logfn', '/dev/null'], {
      signal,
      timeoutMs: 600_000,
    });
    return stdout
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)
      .join(' ');
  } catch (err) {
    return toolProblem(err);
  } finally {
    await rm(tmp, { force: true });
  }
}

interface Probe {
  format?: { duration?: string; format_name?: string };
  streams?: Array<{
    codec_type?: string;
    codec_name?: string;
    width?: number;
    height?: number;
    sample_rate?: string;
    channels?: number;
  }>;
}

export async function probe(file: string, signal?: AbortSignal): Promise<Probe> {
  try {
    const { stdout } = await run(
      'ffprobe',
      ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file],
      { signal },
    );
    return JSON.parse(stdout) as Probe;
  } catch (err) {
    return toolProblem(err);
  }
}

/** Measured length of a media item, seconds (photos: 0). */
export async function measureSeconds(m: MediaRecord, file: string, signal?: AbortSignal): Promise<number> {
  if (m.kind === 'photo') return 0;
  if (m.kind === 'audio') {
    const { parseFile } = await import('music-metadata');
    const meta = await parseFile(file, { duration: true });
    if (meta.format.duration) return meta.format.duration;
  }
  return Number((await probe(file, signal)).format?.duration ?? 0) || 0;
}

export async function infer(
  m: MediaRecord,
  file: string,
  opts: {
    includeGps: boolean;
    signal?: AbortSignal | undefined;
    /** Describes a photo in words (a vision model); absent: no description. */
    describe?: ((file: string) => Promise<string>) | undefined;
  },
): Promise<Inference> {
  const out = blank(m);
  if (m.kind === 'photo') {
    const sharp = (await import('sharp')).default;
    const meta = await sharp(file).metadata();
    out.width = meta.width ?? null;
    out.height = meta.height ?? null;
    out.format = meta.format ?? null;
    const exifr = (await import('exifr')).default;
    const exif = (await exifr.parse(file, { gps: true, tiff: true, exif: true }).catch(() => undefined)) as
      | Record<string, unknown>
      | undefined;
    const taken = exif?.DateTimeOriginal ?? exif?.CreateDate ?? exif?.ModifyDate;
    // EXIF times carry no zone: exifr reads them as local time, so they are given back as written, without an offset.
    out.takenAt = taken instanceof Date && !Number.isNaN(taken.getTime()) ? localStamp(taken) : null;
    const lat = exif?.latitude;
    const lon = exif?.longitude;
    out.gpsAvailable = typeof lat === 'number' && typeof lon === 'number';
    if (opts.includeGps && out.gpsAvailable) out.gps = { latitude: lat as number, longitude: lon as number };
    if (opts.describe) out.description = await opts.describe(file);
    return out;
  }
  if (m.kind === 'audio') {
    const { parseFile } = await import('music-metadata');
    const meta = await parseFile(file, { duration: true });
    out.durationSeconds = meta.format.duration ?? null;
    out.codec = meta.format.codec ?? meta.format.container ?? null;
    out.sampleRate = meta.format.sampleRate ?? null;
    out.channels = meta.format.numberOfChannels ?? null;
    out.format = meta.format.container ?? null;
    out.hasAudio = true;
    out.transcript = await transcribe(file, opts.signal);
    return out;
  }
  const p = await probe(file, opts.signal);
  const video = p.streams?.find((s) => s.codec_type === 'video');
  const audio = p.streams?.find((s) => s.codec_type === 'audio');
  out.durationSeconds = p.format?.duration ? Number(p.format.duration) : null;
  out.format = p.format?.format_name ?? null;
  out.width = video?.width ?? null;
  out.height = video?.height ?? null;
  out.codec = video?.codec_name ?? null;
  out.hasAudio = !!audio;
  out.sampleRate = audio?.sample_rate ? Number(audio.sample_rate) : null;
  out.channels = audio?.channels ?? null;
  out.transcript = audio ? await transcribe(file, opts.signal) : null;
  return out;
}

/**
 * Which stored inference can answer a call: for a photo the answer differs by
 * `includeGps` (a location is kept only in the answer that asked for it); for
 * audio and video it does not, so one answer serves both.
 */
export function inferenceKey(m: MediaRecord, includeGps: boolean): 'gps' | 'plain' {
  return m.kind === 'photo' && includeGps ? 'gps' : 'plain';
}

/** The stored inference for a key, if one was paid for. */
export function cachedInference(m: MediaRecord, key: 'gps' | 'plain'): Inference | undefined {
  return m.inference?.[key] as Inference | undefined;
}

/**
 * Stores an inference with its media record, in one transaction that first
 * checks the record is still there: a media item deleted while its inference
 * ran is not brought back. Resolves whether it was stored.
 */
export async function storeInference(
  store: Store,
  id: string,
  key: 'gps' | 'plain',
  inference: Inference,
): Promise<boolean> {
  return store.transact(async (tx) => {
    const current = await tx.get<MediaRecord>(MEMOIR_MEDIA, id);
    if (!current) return false;
    await tx.put(MEMOIR_MEDIA, { ...current, inference: { ...(current.inference ?? {}), [key]: inference } });
    return true;
  });
}

export async function fileSize(file: string): Promise<number> {
  return (await stat(file)).size;
}

/**
 * Voice and avatar, offline. The voice is festival with the HTS voice
 * cmu_us_slt_arctic_hts; with the person's own recordings it is a *matched voice
 * style*: the base voice moved toward the person's measured median pitch (never a
 * clone: nothing of their voice is copied). The avatar is an MP4 (H.264 + AAC)
 * rendered by ffmpeg from a photo and the synthesised speech, with a slow
 * zoom and a waveform of the speech moving with the audio.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { run, toolProblem } from './exec.js';

export const BASE_VOICE = 'cmu_us_slt_arctic_hts';
export const MAX_SYNTH_CHARS = 1000;
export const MAX_AVATAR_SECONDS = 60;

/** Decodes any audio to 16 kHz mono signed 16-bit samples (at most `maxSeconds`). */
export async function pcm16k(file: string, maxSeconds = 60, signal?: AbortSignal): Promise<Int16Array> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'svc-pcm-'));
  const out = path.join(dir, 'a.raw');
  try {
    await run(
      'ffmpeg',
      [
        '-v',
        'error',
        '-nostdin',
        '-y',
        '-i',
        file,
        '-vn',
        '-t',
        String(maxSeconds),
        '-ac',
        '1',
        '-ar',
        '16000',
        '-f',
        's16le',
        out,
      ],
      { signal },
    );
    const buf = await readFile(out);
    return new Int16Array(buf.buffer, buf.byteOffset, Math.floor(buf.length / 2));
  } catch (err) {
    return toolProblem(err);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Median fundamental frequency of voiced frames, Hz (null when nothing is voiced):
 * normalised autocorrelation over 40 ms frames, 70-400 Hz, frames quieter than a
 * tenth of the loudest skipped. Hand-written: a few lines, and no npm package
 * measures pitch without native code or a model download.
 */
export function medianPitch(samples: Int16Array, rate = 16000): number | null {
  const frame = Math.round(rate * 0.04);
  const minLag = Math.floor(rate / 400);
  const maxLag = Math.ceil(rate / 70);
  const energies: number[] = [];
  for (let start = 0; start + frame + maxLag < samples.length; start += frame) {
    let e = 0;
    for (let i = 0; i < frame; i++) e += samples[start + i]! * samples[start + i]!;
    energies.push(e);
  }
  const loud = Math.max(0, ...energies) / 10;
  const pitches: number[] = [];
  energies.forEach((e, k) => {
    if (e < loud || e === 0) return;
    const start = k * frame;
    let best = 0;
    let bestLag = 0;
    for (let lag = minLag; lag <= maxLag; lag++) {
      let num = 0;
      let den = 0;
      for (let i = 0; i < frame; i++) {
        const a = samples[start + i]!;
        const b = samples[start + i + lag]!;
        num += a * b;
        den += b * b;
      }
      const r = den > 0 ? num / Math.sqrt(e * den) : 0;
      if (r > best) {
        best = r;
        bestLag = lag;
      }
    }
    if (best > 0.6 && bestLag > 0) pitches.push(rate / bestLag);
  });
  if (pitches.length === 0) return null;
  pitches.sort((a, b) => a - b);
  return Math.round(pitches[Math.floor(pitches.length / 2)]!);
}

async function festival(text: string, out: string, signal?: AbortSignal): Promise<void> {
  const dir = path.dirname(out);
  const txt = path.join(dir, 'text.txt');
  await writeFile(txt, text, { mode: 0o600 });
  try {
    await run('text2wave', ['-eval', `(voice_${BASE_VOICE})`, txt, '-o', out], { signal, timeoutMs: 120_000 });
  } catch (err) {
    toolProblem(err);
  }
}

let basePitch: Promise<number | null> | undefined;
/** The base voice's own median pitch, measured once on a reference sentence. */
export function baseVoicePitch(): Promise<number | null> {
  basePitch ??= (async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'svc-voice-'));
    try {
      const wav = path.join(dir, 'ref.wav');
      await festival('This is how my voice sounds when I read a few plain words aloud.', wav);
      return medianPitch(await pcm16k(wav));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  })();
  basePitch.catch(() => (basePitch = undefined));
  return basePitch;
}

/** Letters and digits the base voice says per second, at most (it says about 16 in plain prose, digits slower). */
const MOST_LETTERS_PER_SECOND = 25;

/** A lower bound of the length of `text` spoken, whole seconds: punctuation and spaces count for nothing. */
export function shortestSpeechSeconds(text: string): number {
  const letters = text.match(/[\p{L}\p{N}]/gu)?.length ?? 0;
  return Math.floor(letters / MOST_LETTERS_PER_SECOND);
}

/** Cleans text for speech: control characters out, whitespace folded. */
export function speakable(text: string): string {
  return text
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export interface Speech {
  /** The WAV (or Ogg Opus) bytes. */
  audio: Buffer;
  contentType: 'audio/wav' | 'audio/ogg';
  durationSeconds: number;
  /** Pitch factor applied (1: the base voice unchanged). */
  pitchFactor: number;
}

/** The pitch factor toward a target median pitch, bounded so speech stays natural (0.75 to 1.33). */
export function pitchFactor(target: number | null, base: number | null): number {
  if (!target || !base) return 1;
  return Math.round(Math.min(1.33, Math.max(0.75, target / base)) * 1000) / 1000;
}

async function durationOf(file: string, signal?: AbortSignal): Promise<number> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file], {
    signal,
  });
  return Number(stdout.trim()) || 0;
}

/**
 * Synthesises `text`, moved to `factor` of the base pitch (tempo kept), as WAV
 * or Ogg Opus. Returns the bytes and the duration.
 */
export async function synthesize(
  text: string,
  opts: { factor: number; format: 'wav' | 'opus'; signal?: AbortSignal | undefined },
): Promise<Speech> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'svc-voice-'));
  try {
    const raw = path.join(dir, 'raw.wav');
    await festival(text, raw, opts.signal);
    const out = path.join(dir, opts.format === 'wav' ? 'out.wav' : 'out.ogg');
    const filters =
      opts.factor === 1
        ? ['anull']
        : [`asetrate=48000*${opts.factor}`, 'aresample=48000', `atempo=${(1 / opts.factor).toFixed(4)}`];
    const codec = opts.format === 'wav' ? ['-c:a', 'pcm_s16le'] : ['-c:a', 'libopus', '-b:a', '32k'];
    try {
      await run(
        'ffmpeg',
        [
          '-v',
          'error',
          '-nostdin',
          '-y',
          '-i',
          raw,
          '-af',
          `aresample=48000,${filters.join(',')}`,
          '-ac',
          '1',
          ...codec,
          out,
        ],
        { signal: opts.signal },
      );
    } catch (err) {
      toolProblem(err);
    }
    return {
      audio: await readFile(out),
      contentType: opts.format === 'wav' ? 'audio/wav' : 'audio/ogg',
      durationSeconds: await durationOf(out, opts.signal),
      pitchFactor: opts.factor,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Seconds of speech `text` takes with the base voice (synthesised and measured; cheap: about 1 s per 50 s of audio). */
export async function speechSeconds(text: string, signal?: AbortSignal): Promise<number> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'svc-voice-'));
  try {
    const raw = path.join(dir, 'raw.wav');
    await festival(text, raw, signal);
    return await durationOf(raw, signal);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Renders the avatar: the photo, slowly zooming, with the speech and a waveform
 * of it, exactly `seconds` long (speech cut or followed by silence), H.264 + AAC.
 */
export async function renderAvatar(
  photo: Buffer,
  speech: Buffer,
  opts: { seconds: number; style: 'stylized' | 'natural'; signal?: AbortSignal | undefined },
): Promise<Buffer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'svc-avatar-'));
  try {
    const img = path.join(dir, `photo-${randomBytes(4).toString('hex')}`);
    const wav = path.join(dir, 'speech.wav');
    const out = path.join(dir, 'avatar.mp4');
    await writeFile(img, photo, { mode: 0o600 });
    await writeFile(wav, speech, { mode: 0o600 });
    const W = 480;
    const H = 480;
    const fps = 25;
    const look = opts.style === 'stylized' ? ',eq=saturation=1.4:contrast=1.1,vignette' : '';
    const graph =
      `[0:v]scale=${W * 2}:${H * 2}:force_original_aspect_ratio=increase,crop=${W * 2}:${H * 2},` +
      `zoompan=z='1.04+0.04*sin(2*PI*on/(${fps}*6))':x='iw/2-(iw/zoom/2)':y='ih/2-(ih/zoom/2)':d=1:s=${W}x${H}:fps=${fps}${look},format=yuv420p[bg];` +
      `[1:a]asplit[a1][a2];[a1]showwaves=s=${W}x80:mode=cline:colors=white@0.8:rate=${fps},format=yuva420p[w];` +
      `[bg][w]overlay=0:${H - 90}:shortest=0,format=yuv420p[v];[a2]apad[a]`;
    try {
      await run(
        'ffmpeg',
        [
          '-v',
          'error',
          '-nostdin',
          '-y',
          '-loop',
          '1',
          '-framerate',
          String(fps),
          '-i',
          img,
          '-i',
          wav,
          '-filter_complex',
          graph,
          '-map',
          '[v]',
          '-map',
          '[a]',
          '-t',
          String(opts.seconds),
          '-c:v',
          'libx264',
          '-preset',
          'veryfast',
          '-pix_fmt',
          'yuv420p',
          '-c:a',
          'aac',
          '-b:a',
          '96k',
          '-movflags',
          '+faststart',
          out,
        ],
        { signal: opts.signal, timeoutMs: 300_000 },
      );
    } catch (err) {
      toolProblem(err);
    }
    return await readFile(out);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Memoir voice and avatar (issue 19): synthesis time per second of speech
 * produced (festival, cmu_us_slt_arctic_hts, plus the ffmpeg pass) and avatar
 * render time per second of video (ffmpeg, H.264 + AAC). Baseline: the same
 * text through festival alone.
 *
 *   npx tsx bench/memoir.ts
 */
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { renderAvatar, speechSeconds, synthesize } from '../src/memoir/voice.js';
import { fmt, isMain } from './util.js';

const TEXT =
  'My mother baked bread every Sunday in our kitchen in Lisbon. I still remember the smell of it, and the way she sang while the oven warmed the house. ' +
  'Later I worked at the shipyard for thirty years, and I was grateful for every one of them.';

export async function benchMemoir(): Promise<void> {
  console.log('\n== memoir: voice synthesis and avatar (per second of output) ==');
  // Warm-up: festival loads its voice on the first run.
  await speechSeconds('warm up');
  let t = performance.now();
  const base = await speechSeconds(TEXT);
  const baseMs = performance.now() - t;
  console.log(`festival alone (baseline): ${fmt(base)} s of speech in ${fmt(baseMs, 0)} ms = ${fmt(baseMs / base, 1)} ms per second of audio`);
  for (const [label, factor, format] of [['WAV, base voice', 1, 'wav'], ['WAV, matched style (pitch x0.85)', 0.85, 'wav'], ['Ogg Opus, matched style', 0.85, 'opus']] as const) {
    t = performance.now();
    const s = await synthesize(TEXT, { factor, format });
    const ms = performance.now() - t;
    console.log(`synthesis ${label}: ${fmt(s.durationSeconds)} s in ${fmt(ms, 0)} ms = ${fmt(ms / s.durationSeconds, 1)} ms per second of audio`);
  }
  const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#aa5533' } }).jpeg().toBuffer();
  const speech = await synthesize(TEXT, { factor: 1, format: 'wav' });
  for (const seconds of [5, 15]) {
    t = performance.now();
    const mp4 = await renderAvatar(photo, speech.audio, { seconds, style: 'stylized' });
    const ms = performance.now() - t;
    console.log(`avatar ${seconds} s (480x480, 25 fps): ${fmt(ms, 0)} ms = ${fmt(ms / seconds, 1)} ms per second of video, ${fmt(mp4.length / 1024, 0)} KiB`);
  }
}

if (isMain(import.meta.url)) await benchMemoir();

import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/core/config.js';
import { sizeVectorCache, VECTOR_CACHE_BYTES, vectorCacheBytes } from '../../src/memoir/embeddings.js';
import { keptNames } from '../../src/memoir/names.js';
import { PHRASE_CACHE_CHARS, phraseCacheChars, sizePhraseCache } from '../../src/memoir/phrase-counts.js';
import { keptPassages } from '../../src/memoir/retrieval.js';
import { startTestServer } from '../helpers.js';

// The memoir's reading caches are the process's: a test that sizes them puts them back.
const defaults = [keptNames.maxChars, keptPassages.maxChars] as const;
afterEach(() => {
  keptNames.resize(defaults[0]);
  keptPassages.resize(defaults[1]);
  sizePhraseCache(PHRASE_CACHE_CHARS);
  sizeVectorCache(VECTOR_CACHE_BYTES);
});

describe('SVC_MEMOIR_READING_CACHE', () => {
  it('is unset by default, and the caches keep two million characters of text each', () => {
    expect(loadConfig({}, {}).memoirReadingChars).toBeUndefined();
    expect(defaults).toEqual([2_000_000, 2_000_000]);
  });

  it('refuses anything but a positive whole number, naming the variable', () => {
    for (const bad of ['0', '-5', '1.5', 'lots', '2e6'])
      expect(() => loadConfig({}, { SVC_MEMOIR_READING_CACHE: bad }), bad).toThrow(ConfigError);
    expect(() => loadConfig({}, { SVC_MEMOIR_READING_CACHE: 'lots' })).toThrow(/SVC_MEMOIR_READING_CACHE/);
  });

  it('sizes both caches when the service opens', async () => {
    const config = loadConfig({}, { SVC_MEMOIR_READING_CACHE: '12345678' });
    expect(config.memoirReadingChars).toBe(12_345_678);
    const server = await startTestServer({ config: { memoirReadingChars: config.memoirReadingChars }, listen: false });
    try {
      expect([keptNames.maxChars, keptPassages.maxChars]).toEqual([12_345_678, 12_345_678]);
    } finally {
      await server.close();
    }
  });
});

describe('SVC_MEMOIR_PHRASE_CACHE', () => {
  it('is unset by default, and the phrase counts kept are bounded at 64 million characters', () => {
    expect(loadConfig({}, {}).memoirPhraseChars).toBeUndefined();
    expect(phraseCacheChars()).toBe(64_000_000);
  });

  it('refuses anything but a positive whole number, naming the variable', () => {
    for (const bad of ['0', '-5', '1.5', 'lots', '2e6'])
      expect(() => loadConfig({}, { SVC_MEMOIR_PHRASE_CACHE: bad }), bad).toThrow(/SVC_MEMOIR_PHRASE_CACHE/);
  });

  it('sizes the cache when the service opens', async () => {
    const config = loadConfig({}, { SVC_MEMOIR_PHRASE_CACHE: '7654321' });
    const server = await startTestServer({ config: { memoirPhraseChars: config.memoirPhraseChars }, listen: false });
    try {
      expect(phraseCacheChars()).toBe(7_654_321);
    } finally {
      await server.close();
    }
  });
});

describe('SVC_MEMOIR_VECTOR_CACHE', () => {
  it('is unset by default, and the vectors kept are bounded at 64 million bytes', () => {
    expect(loadConfig({}, {}).memoirVectorBytes).toBeUndefined();
    expect(vectorCacheBytes()).toBe(64_000_000);
  });

  it('refuses anything but a positive whole number, naming the variable', () => {
    for (const bad of ['0', '-5', '1.5', 'lots', '2e6'])
      expect(() => loadConfig({}, { SVC_MEMOIR_VECTOR_CACHE: bad }), bad).toThrow(/SVC_MEMOIR_VECTOR_CACHE/);
  });

  it('sizes the cache when the service opens', async () => {
    const config = loadConfig({}, { SVC_MEMOIR_VECTOR_CACHE: '1234567' });
    const server = await startTestServer({ config: { memoirVectorBytes: config.memoirVectorBytes }, listen: false });
    try {
      expect(vectorCacheBytes()).toBe(1_234_567);
    } finally {
      await server.close();
    }
  });
});

import { describe, expect, it } from 'vitest';
import { TextCache } from '../../src/memoir/text-cache.js';

describe('TextCache', () => {
  it('keeps texts up to a total length, the least recently used out first', () => {
    const cache = new TextCache<number>(10);
    cache.set('aaaa', 1);
    cache.set('bbbb', 2);
    expect(cache.get('aaaa')).toBe(1); // now the most recently used
    cache.set('cccc', 3); // 12 characters: the least recently used goes
    expect([cache.get('aaaa'), cache.get('bbbb'), cache.get('cccc')]).toEqual([1, undefined, 3]);
    cache.set('x'.repeat(11), 4); // longer than the bound: never kept
    expect(cache.get('x'.repeat(11))).toBeUndefined();
    expect(cache.get('aaaa')).toBe(1);
  });

  it('makes a value once, and names what is not kept, each once', () => {
    const cache = new TextCache<string>(100);
    let made = 0;
    const make = () => `made ${++made}`;
    expect([cache.remember('one', make), cache.remember('one', make)]).toEqual(['made 1', 'made 1']);
    expect(cache.missing(['one', 'two', '', 'two', 'y'.repeat(101), 'three'])).toEqual(['two', 'three']);
  });

  it('never puts out a held text; let go, the bound applies again, least recently used out first', () => {
    const cache = new TextCache<number>(8);
    const release = cache.hold(['aaaa', 'bbbb', 'aaaa']);
    cache.set('aaaa', 1);
    cache.set('bbbb', 2);
    cache.set('cccc', 3); // over the bound: the held ones stay, the newest too
    cache.set('dddd', 4); // 'cccc' is the only one that can go
    expect([cache.get('aaaa'), cache.get('bbbb'), cache.get('cccc'), cache.get('dddd')]).toEqual([1, 2, undefined, 4]);
    expect([cache.chars, cache.heldCount]).toEqual([12, 2]);
    const second = cache.hold(['bbbb']);
    release();
    release(); // a second call does nothing: 'bbbb' is still held by the other hold
    // 'aaaa', in use until now, counts as the most recently used: 'dddd' goes.
    expect([cache.heldCount, cache.chars]).toEqual([1, 8]);
    expect([cache.get('aaaa'), cache.get('bbbb'), cache.get('dddd')]).toEqual([1, 2, undefined]);
    second();
    cache.resize(4);
    expect([cache.get('aaaa'), cache.get('bbbb'), cache.chars, cache.heldCount]).toEqual([undefined, 2, 4, 0]);
  });

  it('keeps every held text past the bound, however many, and of the others only the newest', () => {
    const cache = new TextCache<number>(1_000);
    const held = Array.from({ length: 2_000 }, (_, i) => `held ${String(i).padStart(5, '0')}`);
    const release = cache.hold(held);
    held.forEach((text, i) => cache.set(text, i));
    for (let i = 0; i < 2_000; i++) cache.set(`free ${String(i).padStart(5, '0')}`, i);
    // Every held text is kept past the bound; of the others, only the newest.
    expect(held.every((text, i) => cache.get(text) === i)).toBe(true);
    expect(cache.get('free 01999')).toBe(1_999);
    expect(cache.get('free 01998')).toBeUndefined();
    release();
    expect(cache.chars).toBeLessThanOrEqual(1_000);
    expect(cache.get(held[1_999]!)).toBe(1_999);
  });
});

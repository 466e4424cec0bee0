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
});

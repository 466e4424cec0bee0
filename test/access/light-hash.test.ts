import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { lightHashKey } from '../../src/access/light-key.js';
import { generateKeyValue, hashKey } from '../../src/keys/keys.js';

// The light key check of `svc mcp` hashes the presented key in plain JavaScript; the store holds node:crypto's hash.
describe('lightHashKey', () => {
  it('is the hash the store keeps, for real keys and for any text', () => {
    const values = [
      generateKeyValue('internal'),
      generateKeyValue('public'),
      '',
      'Zoë 🔑 مفتاح',
      'x'.repeat(1_000),
      ...Array.from({ length: 20 }, (_, i) => randomBytes(i * 7).toString('base64url')),
    ];
    for (const value of values) expect(lightHashKey(value), value).toBe(hashKey(value));
  });
});

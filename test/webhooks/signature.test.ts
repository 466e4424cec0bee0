import { describe, expect, it } from 'vitest';
import {
  generateSecret,
  parseSignatureHeader,
  signPayload,
  signWithSecrets,
  verifyWebhookSignature,
} from '../../src/webhooks/index.js';

// Vectors computed independently with `printf '<t>.<body>' | openssl dgst -sha256 -hmac <secret>`.
const VECTORS = [
  {
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    t: 1700000000,
    body: '{"id":"evt_1","type":"test.webhook"}',
    hex: '71c359aef14dcb7b201b73416becb471eb7bfa890a207f3bf02342d28f4bead9',
  },
  {
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    t: 1700000000,
    body: '',
    hex: 'cba1e6bca7337490cde16bc4e0003251c7f5bb8e661e3d8e25d141a92c2ec991',
  },
  {
    secret: 'shape-b-secret-0123456789',
    t: 1712345678,
    body: '{"emoji":"é☃"}',
    hex: '4ff2421dbaa6108bf48565fad92d56ddc00d4e5405b7be8cb4ff264681bbc8b0',
  },
];

describe.concurrent('webhook signatures', () => {
  it('matches the independent vectors, as string and as bytes', () => {
    for (const v of VECTORS) {
      expect(signPayload(v.body, v.secret, v.t)).toBe(`t=${v.t},v1=${v.hex}`);
      expect(signPayload(Buffer.from(v.body, 'utf8'), v.secret, v.t)).toBe(`t=${v.t},v1=${v.hex}`);
      expect(verifyWebhookSignature(v.body, `t=${v.t},v1=${v.hex}`, v.secret, { now: v.t })).toBe(true);
      expect(verifyWebhookSignature(Buffer.from(v.body, 'utf8'), `t=${v.t},v1=${v.hex}`, v.secret, { now: v.t })).toBe(
        true,
      );
    }
  });

  it('fails when any single byte of the body changes', () => {
    const v = VECTORS[0]!;
    const header = signPayload(v.body, v.secret, v.t);
    const bytes = Buffer.from(v.body, 'utf8');
    for (let i = 0; i < bytes.length; i++) {
      const changed = Buffer.from(bytes);
      changed[i] = changed[i]! ^ 0x01;
      expect(verifyWebhookSignature(changed, header, v.secret, { now: v.t })).toBe(false);
    }
    expect(verifyWebhookSignature(v.body + ' ', header, v.secret, { now: v.t })).toBe(false);
    expect(verifyWebhookSignature(v.body, header, v.secret + 'x', { now: v.t })).toBe(false);
  });

  it('accepts timestamps up to 300 s away in both directions, and no further', () => {
    const secret = generateSecret();
    const body = '{"x":1}';
    const now = 1_800_000_000;
    for (const [offset, ok] of [
      [-299, true],
      [299, true],
      [-300, true],
      [300, true],
      [-301, false],
      [301, false],
      [-86400, false],
      [86400, false],
    ] as const) {
      const t = now + offset;
      expect(verifyWebhookSignature(body, signPayload(body, secret, t), secret, { now }), `offset ${offset}`).toBe(ok);
    }
    // A custom tolerance
    expect(
      verifyWebhookSignature(body, signPayload(body, secret, now - 20), secret, { now, toleranceSeconds: 10 }),
    ).toBe(false);
  });

  it('rejects malformed headers', () => {
    const v = VECTORS[0]!;
    const good = `t=${v.t},v1=${v.hex}`;
    const bad = [
      '',
      'garbage',
      `v1=${v.hex}`,
      `t=${v.t}`,
      `t=${v.t},v1=`,
      `t=abc,v1=${v.hex}`,
      `t=${v.t}.5,v1=${v.hex}`,
      `t=-${v.t},v1=${v.hex}`,
      `t=${v.t},t=${v.t},v1=${v.hex}`,
      `t=${v.t};v1=${v.hex}`,
      `t=${v.t},v1=${v.hex.toUpperCase()}`,
      `t=${v.t},v1=${v.hex.slice(0, 63)}`,
      `t=${v.t},v0=${v.hex}`,
      `${good},=x`,
      'x'.repeat(5000),
    ];
    for (const header of bad)
      expect(verifyWebhookSignature(v.body, header, v.secret, { now: v.t }), header.slice(0, 40)).toBe(false);
    expect(verifyWebhookSignature(v.body, good, '', { now: v.t })).toBe(false);
    expect(parseSignatureHeader(`t=${v.t},v1=a,v1=b`)).toEqual({ t: v.t, v1: ['a', 'b'] });
  });

  it('passes with an extra bogus v1 value, in any position, and with unknown schemes alongside', () => {
    const v = VECTORS[0]!;
    const bogus = 'f'.repeat(64);
    for (const header of [
      `t=${v.t},v1=${bogus},v1=${v.hex}`,
      `t=${v.t},v1=${v.hex},v1=${bogus}`,
      `t=${v.t},v1=nothex,v1=${v.hex}`,
      `v1=${v.hex},t=${v.t}`,
      `t=${v.t},v0=abc,v1=${v.hex}`,
    ]) {
      expect(verifyWebhookSignature(v.body, header, v.secret, { now: v.t }), header).toBe(true);
    }
    expect(verifyWebhookSignature(v.body, `t=${v.t},v1=${bogus},v1=${bogus}`, v.secret, { now: v.t })).toBe(false);
  });

  it('signs with every active secret during a rotation; each verifies alone', () => {
    const oldS = generateSecret();
    const newS = generateSecret();
    const header = signWithSecrets('{}', [newS, oldS], 1000);
    expect(header.split(',v1=')).toHaveLength(3);
    expect(verifyWebhookSignature('{}', header, newS, { now: 1000 })).toBe(true);
    expect(verifyWebhookSignature('{}', header, oldS, { now: 1000 })).toBe(true);
    expect(verifyWebhookSignature('{}', header, generateSecret(), { now: 1000 })).toBe(false);
  });

  it('generates whsec_ secrets of 32 random bytes', () => {
    const a = generateSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a.slice(6), 'base64url')).toHaveLength(32);
    expect(generateSecret()).not.toBe(a);
  });
});

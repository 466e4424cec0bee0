import { Address } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { isValidTonAddress } from '../../../src/contracts/ton/index.js';
import { addr } from './helpers.js';

describe('isValidTonAddress', () => {
  const a = addr('someone');

  it('accepts raw addresses in workchains 0 and -1', () => {
    expect(isValidTonAddress(a.toRawString())).toBe(true);
    expect(isValidTonAddress(`0:${'ab'.repeat(32)}`)).toBe(true);
    expect(isValidTonAddress(`0:${'AB'.repeat(32)}`)).toBe(true);
    expect(isValidTonAddress(`-1:${'00'.repeat(32)}`)).toBe(true);
  });

  it('rejects malformed raw addresses', () => {
    expect(isValidTonAddress(`0:${'ab'.repeat(31)}`)).toBe(false);
    expect(isValidTonAddress(`0:${'ab'.repeat(33)}`)).toBe(false);
    expect(isValidTonAddress(`0:${'zz'.repeat(32)}`)).toBe(false);
    expect(isValidTonAddress(`5:${'ab'.repeat(32)}`)).toBe(false);
    expect(isValidTonAddress(`${'ab'.repeat(32)}`)).toBe(false);
    expect(isValidTonAddress('')).toBe(false);
    expect(isValidTonAddress('0x' + 'ab'.repeat(20))).toBe(false);
  });

  it('accepts user-friendly forms (bounceable, non-bounceable, testnet, url-safe and standard base64)', () => {
    for (const opts of [
      {},
      { bounceable: false },
      { testOnly: true },
      { urlSafe: false },
      { urlSafe: true, bounceable: false },
    ]) {
      const s = a.toString(opts);
      expect(s).toHaveLength(48);
      expect(isValidTonAddress(s)).toBe(true);
      expect(Address.parse(s).equals(a)).toBe(true);
    }
  });

  it('rejects a user-friendly address whose CRC16 does not match', () => {
    const s = a.toString();
    // change one character of the hash part: the checksum no longer matches
    const i = 20;
    const flipped = s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
    expect(flipped).not.toBe(s);
    expect(isValidTonAddress(flipped)).toBe(false);
    // and the checksum bytes themselves
    const last = s.slice(0, 47) + (s[47] === 'A' ? 'B' : 'A');
    expect(isValidTonAddress(last)).toBe(false);
  });

  it('rejects wrong lengths and foreign formats', () => {
    expect(isValidTonAddress(a.toString().slice(0, 47))).toBe(false);
    expect(isValidTonAddress(a.toString() + 'A')).toBe(false);
    expect(isValidTonAddress('So11111111111111111111111111111111111111112')).toBe(false);
    expect(isValidTonAddress('not an address at all, not an address at all!!')).toBe(false);
  });
});

import fc from 'fast-check';
import { getAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { checksumAddress } from '../../../src/contracts/evm/checksum.js';
import { addressProblem } from '../../../src/contracts/validate.js';

const hexAddress = fc
  .uint8Array({ minLength: 20, maxLength: 20 })
  .map((bytes) => `0x${Buffer.from(bytes).toString('hex')}`);

describe('EIP-55 checksum', () => {
  it('matches the examples of EIP-55', () => {
    for (const a of [
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
      '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
    ]) {
      expect(checksumAddress(a.toLowerCase())).toBe(a);
      expect(checksumAddress(a.toUpperCase().replace('0X', '0x'))).toBe(a);
    }
  });

  it('agrees with viem on any address, whatever its case', () => {
    fc.assert(
      fc.property(hexAddress, fc.boolean(), (address, upper) => {
        const written = upper ? `0x${address.slice(2).toUpperCase()}` : address;
        expect(checksumAddress(written)).toBe(getAddress(address));
      }),
      { numRuns: 300 },
    );
  });

  it('plan validation accepts the checksummed form and names it for a wrong mixed case', () => {
    const good = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
    expect(addressProblem('evm', good)).toBeUndefined();
    expect(addressProblem('evm', good.toLowerCase())).toBeUndefined();
    const bad = '0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
    expect(addressProblem('evm', bad)).toBe(`This address has a typo: did you mean ${good}?`);
  });
});

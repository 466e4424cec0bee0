import { Address, beginCell } from '@ton/core';
import { describe, expect, it } from 'vitest';
import { fromToncenter, sharesOf } from '../../src/chains/ton.js';

// toncenter v2 writes a get method's top-level stack entries as pairs and the elements of tuples and lists as
// tonlib objects; the reader turns both into @ton/core tuple items, as the generated contract's get_shares needs.

const heir = new Address(0, Buffer.alloc(32, 0x11));
const addrBoc = beginCell().storeAddress(heir).endCell().toBoc().toString('base64');
const num = (n: string) => ({ '@type': 'tvm.stackEntryNumber', number: { '@type': 'tvm.numberDecimal', number: n } });
const slice = { '@type': 'tvm.stackEntrySlice', slice: { '@type': 'tvm.slice', bytes: addrBoc } };

describe("the reader of toncenter's stacks", () => {
  it('reads numbers in hex and decimal, negative ones, cells and slices', () => {
    expect(fromToncenter(['num', '0x1e'])).toEqual({ type: 'int', value: 30n });
    expect(fromToncenter(['num', '-0x1e'])).toEqual({ type: 'int', value: -30n });
    expect(fromToncenter(['num', '42'])).toEqual({ type: 'int', value: 42n });
    const cell = fromToncenter(['cell', { bytes: addrBoc }]);
    expect(cell.type === 'cell' && cell.cell.beginParse().loadAddress().equals(heir)).toBe(true);
    expect(fromToncenter(['slice', { bytes: addrBoc }]).type).toBe('slice');
  });

  it("reads get_shares' tuple of triples, with tuples written as entries or as bare tvm.tuple", () => {
    const triple = {
      '@type': 'tvm.stackEntryTuple',
      tuple: { '@type': 'tvm.tuple', elements: [slice, num('7000'), num('12')] },
    };
    const bare = { '@type': 'tvm.tuple', elements: [slice, num('3000'), num('0')] };
    const item = fromToncenter(['tuple', { '@type': 'tvm.tuple', elements: [triple, bare] }]);
    const shares = sharesOf([item]);
    expect(shares).toHaveLength(2);
    expect(shares![0]!.address!.equals(heir)).toBe(true);
    expect(shares!.map((s) => [s.shareBps, s.claimed])).toEqual([
      [7000, 12n],
      [3000, 0n],
    ]);
    expect(fromToncenter(['list', { '@type': 'tvm.list', elements: [num('1')] }])).toEqual({
      type: 'tuple',
      items: [{ type: 'int', value: 1n }],
    });
  });

  it('refuses what is not a stack entry', () => {
    expect(() => fromToncenter(['weird', 1])).toThrow(/unknown stack entry/);
    expect(() => fromToncenter(['tuple', { elements: [{ '@type': 'tvm.nothing' }] }])).toThrow(/unknown stack element/);
    expect(() => fromToncenter('num')).toThrow();
  });
});

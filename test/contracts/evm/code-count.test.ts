import { describe, expect, it } from 'vitest';
import { addressArrayLength, constructorCallIn, stripComments } from '../../../src/contracts/evm/code-count.js';

// Reading a beneficiary count from a constructor call in Solidity source, as estimate_gas does for code that
// deploys its own contract (a deploy script or a factory).

const estate = `contract Estate {
    constructor(address owner_, address[] memory beneficiaries_, uint16[] memory shares_, uint256 days_) {}
}
`;

describe('the beneficiary count a constructor call in the code gives', () => {
  it('reads a local array created with its length, and the contract it deploys', () => {
    const src = `${estate}
contract Deploy {
    function run() external returns (Estate e) {
        address[] memory beneficiaries = new address[](7);
        uint16[] memory shares = new uint16[](7);
        e = new Estate(address(1), beneficiaries, shares, 365);
    }
}`;
    const call = constructorCallIn(src);
    expect(call).toEqual({ contract: 'Estate', args: ['address(1)', 'beneficiaries', 'shares', '365'] });
    expect(addressArrayLength(src, call!.args[1]!)).toBe(7);
  });

  it('reads an array literal and a fixed-size local; nested calls and strings do not split the arguments', () => {
    const src = `${estate}
contract Factory {
    function make(address a, address b) external returns (Estate) {
        address[2] memory pair = [a, b];
        return new Estate{value: 0}(f(a, "x,)y"), [a, b, address(uint160(3))], g(1, 2), 30);
    }
}`;
    const call = constructorCallIn(src)!;
    expect(call.contract).toBe('Estate');
    expect(call.args).toHaveLength(4);
    expect(addressArrayLength(src, call.args[1]!)).toBe(3);
    expect(addressArrayLength(src, 'pair')).toBe(2);
    expect(addressArrayLength(src, 'unknown')).toBeUndefined();
  });

  it('ignores commented-out code and calls to contracts the code does not define', () => {
    const src = `${estate}
contract Deploy {
    function run() external {
        // address[] memory beneficiaries = new address[](9);
        /* new Estate(address(1), beneficiaries, shares, 1); */
        new Other(1);
    }
}`;
    expect(constructorCallIn(src)).toBeUndefined();
    expect(addressArrayLength(src, 'beneficiaries')).toBeUndefined();
    expect(stripComments('a // b\nc /* d\ne */ f "g // h"')).toBe('a     \nc     \n     f "g // h"');
  });
});

describe('reading stays bounded on hostile code', () => {
  it('thousands of unclosed constructor calls give no count (each call is read at most a bounded length)', () => {
    const src = `contract A {}\n${'new A('.repeat(20_000)}`;
    expect(constructorCallIn(src)).toBeUndefined();
    // a closed call after the hostile part is still found
    const closed = `${src}\n;new A([address(1), address(2)]);`;
    expect(constructorCallIn(closed)).toEqual({ contract: 'A', args: ['[address(1), address(2)]'] });
  });
});

import { getAddress, type Abi, type Hex } from 'viem';
import { SOLC_VERSION } from '../../../src/contracts/evm/contract.js';
import { MOCK_ERC20_SOURCE, MOCK_ERC721_SOURCE } from '../../../src/contracts/evm/mocks.js';
import { SolcPool, type SolcPoolOptions } from '../../../src/contracts/evm/pool.js';

/**
 * A solc pool for the tests that check what is compiled and how it runs. The service's limits (20 s a compile, 120 s
 * in the queue) are tested in pool.test.ts and workers.test.ts; here they would only make the result depend on the
 * machine's load: with two test files compiling at once on two cores, beside other work, one compile of a large shape
 * took longer than 20 s. The tests' own timeouts still stop a compile that hangs.
 */
export function testSolcPool(opts: SolcPoolOptions = {}): SolcPool {
  return new SolcPool({ timeoutMs: 120_000, maxWaitMs: Infinity, ...opts });
}

/** A beneficiary contract that refuses ETH. */
export const REJECTER_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ${SOLC_VERSION};

contract Rejecter {
    receive() external payable {
        revert("no ETH");
    }
}
`;

/** A beneficiary contract that tries to claim again from inside its receive(). */
export const ATTACKER_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ${SOLC_VERSION};

interface IClaim {
    function claim() external;
}

contract Attacker {
    bool public reentered;
    uint256 public blocked;

    function attack(address target) external {
        IClaim(target).claim();
    }

    receive() external payable {
        try IClaim(msg.sender).claim() {
            reentered = true;
        } catch {
            blocked += 1;
        }
    }
}
`;

export interface Runtime {
  abi: Abi;
  runtime: Hex;
}

export interface Fixtures {
  erc20: Runtime;
  erc721: Runtime;
  rejecter: Runtime;
  attacker: Runtime;
}

export async function compileFixtures(pool: SolcPool): Promise<Fixtures> {
  const [a, b, c, d] = await Promise.all(
    [MOCK_ERC20_SOURCE, MOCK_ERC721_SOURCE, REJECTER_SOURCE, ATTACKER_SOURCE].map((s) => pool.compile(s)),
  );
  const r = (x: typeof a): Runtime => ({ abi: x!.abi as Abi, runtime: x!.deployedBytecode! });
  return { erc20: r(a), erc721: r(b), rejecter: r(c), attacker: r(d) };
}

/** Deterministic distinct addresses. */
export function address(prefix: number, i: number): Hex {
  return getAddress(`0x${prefix.toString(16).padStart(2, '0')}${i.toString(16).padStart(38, '0')}`) as Hex;
}

/** Uneven basis-point shares summing to exactly 10000 (weights 1..n). */
export function unevenShares(n: number): number[] {
  const total = (n * (n + 1)) / 2;
  const shares = Array.from({ length: n }, (_, i) => Math.floor(((i + 1) * 10_000) / total));
  let rest = 10_000 - shares.reduce((s, x) => s + x, 0);
  for (let i = n - 1; rest > 0; i = (i - 1 + n) % n, rest--) shares[i]! += 1;
  return shares;
}

import type { Hex } from 'viem';
import { ApiError } from '../../core/errors.js';
import type { EvmShape } from './shape.js';
import {
  evenShares,
  freshAddresses,
  growCount,
  shrinkCount,
  type Compiled,
  type ConstructorInputs,
  type Mocks,
  type ScenarioResult,
} from './inputs.js';
import { EvmSandbox, type TxResult } from './vm.js';

const DAY = 86_400n;
const ETH = 10n ** 18n;

class CheckFailed extends Error {}

function expect(cond: unknown, what: string): asserts cond {
  if (!cond) throw new CheckFailed(what);
}

function expectOk(r: TxResult, what: string): TxResult {
  if (!r.ok) throw new CheckFailed(`${what} failed (${r.revert ?? r.error ?? 'reverted'})`);
  return r;
}

/**
 * Executes the generated contract with the real constructor arguments:
 * deploy, fund, check in, update, pass the deadline (or release), claim for
 * every beneficiary (ETH, listed tokens and NFTs), a late deposit shared, a
 * double claim paying nothing. Any deviation throws: the contract is not
 * returned unverified.
 */
export async function runGenerationScenario(
  compiled: Compiled,
  shape: EvmShape,
  inputs: ConstructorInputs,
  deployData: Hex,
  mocks: Mocks,
): Promise<ScenarioResult> {
  try {
    return await scenario(compiled, shape, inputs, deployData, mocks);
  } catch (e) {
    if (e instanceof CheckFailed) {
      throw new ApiError(
        'INTERNAL_ERROR',
        `The generated contract failed its execution check: ${e.message}. No unverified contract is returned.`,
      );
    }
    throw e;
  }
}

/** What the scenario's phases share: the sandbox, the deployed contract and what is recorded. */
interface Run {
  vm: EvmSandbox;
  /** The deployed contract. */
  c: Hex;
  abi: Compiled['abi'];
  gas: Record<string, number>;
  checks: string[];
  inputs: ConstructorInputs;
  /** Addresses the plan uses (lower case). */
  taken: ReadonlySet<string>;
}

/** Updates before the deadline: measured to new addresses, to a longer and a shorter list, each set back. */
async function measureUpdates({ vm, c, abi, gas, checks, inputs, taken }: Run): Promise<void> {
  const { owner, beneficiaries, shares } = inputs;
  // A real update names new addresses: their share slots are cold and change from zero, the old ones are cleared.
  // It is measured that way, then the plan's own beneficiaries are set again (not measured).
  // Each measured update comes a minute after the last owner action, as a real one comes later: its proof of
  // life changes the stored time rather than rewriting the same value.
  const fresh = freshAddresses(beneficiaries.length, taken);
  vm.warp(60n);
  gas['update'] = expectOk(
    await vm.tx(owner, c, abi, 'updateBeneficiaries', [fresh, shares]),
    'update before the deadline',
  ).gasUsed;
  expectOk(await vm.tx(owner, c, abi, 'updateBeneficiaries', [beneficiaries, shares]), 'update back to the plan');
  // An update that changes the list's length costs differently (each added entry writes two empty slots, each
  // dropped one clears two): doubling and halving the list are measured as well, each from the plan's list.
  const n = beneficiaries.length;
  for (const [key, m] of [
    ['updateGrow', growCount(n)],
    ['updateShrink', shrinkCount(n)],
  ] as const) {
    if (m === n) continue;
    vm.warp(60n);
    gas[key] = expectOk(
      await vm.tx(owner, c, abi, 'updateBeneficiaries', [freshAddresses(m, taken), evenShares(m)]),
      `update to ${m} beneficiaries`,
    ).gasUsed;
    expectOk(await vm.tx(owner, c, abi, 'updateBeneficiaries', [beneficiaries, shares]), 'update back to the plan');
  }
  const [listed, listedShares] = await vm.read<[Hex[], bigint[]]>(c, abi, 'beneficiaries');
  expect(
    listed.length === beneficiaries.length && listedShares.every((s, i) => Number(s) === shares[i]),
    'beneficiaries read back as set',
  );
  checks.push('update before the deadline');
}

/** Every beneficiary claims its share of each token, and each NFT its recipient. */
async function claimTokensAndNfts(
  { vm, c, abi, gas, checks, inputs }: Run,
  mocks: Mocks,
  tokenAmount: bigint,
): Promise<void> {
  const { beneficiaries, shares } = inputs;
  for (const t of inputs.tokens) {
    for (const [i, b] of beneficiaries.entries()) {
      const r = expectOk(await vm.tx(b, c, abi, 'claimToken', [t]), 'token claim');
      gas['claimToken'] = Math.max(gas['claimToken'] ?? 0, r.gasUsed);
      const bal = await vm.read<bigint>(t, mocks.erc20Abi!, 'balanceOf', [b]);
      expect(
        bal === (tokenAmount * BigInt(shares[i]!)) / 10_000n,
        `beneficiary ${i + 1} receives exactly its token share`,
      );
    }
  }
  if (inputs.tokens.length > 0) checks.push('exact ERC-20 payouts per share');
  for (const [i, n] of inputs.nfts.entries()) {
    const r = expectOk(await vm.tx(n.recipient, c, abi, 'claimNft', [BigInt(i)]), 'NFT claim');
    gas['claimNft'] = Math.max(gas['claimNft'] ?? 0, r.gasUsed);
    const holder = await vm.read<Hex>(n.token, mocks.erc721Abi!, 'ownerOf', [n.tokenId]);
    expect(holder.toLowerCase() === n.recipient.toLowerCase(), `NFT ${i + 1} reaches its beneficiary`);
  }
  if (inputs.nfts.length > 0) checks.push('each NFT reaches its beneficiary');
}

async function scenario(
  compiled: Compiled,
  shape: EvmShape,
  inputs: ConstructorInputs,
  deployData: Hex,
  mocks: Mocks,
): Promise<ScenarioResult> {
  const vm = await EvmSandbox.create();
  const abi = compiled.abi;
  const gas: Record<string, number> = {};
  const checks: string[] = [];
  const { owner, beneficiaries, shares } = inputs;
  // Two addresses that play no role in the plan: a funder and a stranger.
  const taken = new Set(
    [owner, ...beneficiaries, ...inputs.guardians, ...inputs.tokens, ...inputs.nfts.map((n) => n.token)].map((a) =>
      a.toLowerCase(),
    ),
  );
  const free = Array.from({ length: 40 }, (_, i) => `0x${(0xf0de50 + i).toString(16).padStart(40, '0')}` as Hex).filter(
    (a) => !taken.has(a),
  );
  const funder = free[0]!;
  const stranger = free[1]!;

  // Token doubles at the plan's token addresses.
  if (shape.erc20) {
    expect(mocks.erc20Runtime && mocks.erc20Abi, 'ERC-20 test token available');
    for (const t of inputs.tokens) await vm.putCode(t, mocks.erc20Runtime!);
  }
  if (shape.erc721) {
    expect(mocks.erc721Runtime && mocks.erc721Abi, 'ERC-721 test token available');
    for (const n of inputs.nfts)
      if ((await vm.codeSize(n.token)) === 0) await vm.putCode(n.token, mocks.erc721Runtime!);
  }

  const dep = expectOk(await vm.send(owner, undefined, deployData, 0n, abi), 'deployment');
  gas['deployment'] = dep.gasUsed;
  const c = dep.createdAddress!;
  expect((await vm.read<Hex>(c, abi, 'owner')).toLowerCase() === owner.toLowerCase(), 'owner() is the plan owner');
  checks.push('deployed with the real constructor arguments');

  gas['deposit'] = expectOk(await vm.send(funder, c, '0x', ETH, abi), 'deposit').gasUsed;
  const tokenAmount = 1_000_000n * ETH + 7n;
  for (const t of inputs.tokens)
    expectOk(await vm.tx(funder, t, mocks.erc20Abi!, 'mint', [c, tokenAmount]), 'token funding');
  for (const n of inputs.nfts)
    expectOk(await vm.tx(funder, n.token, mocks.erc721Abi!, 'mint', [c, n.tokenId]), 'NFT funding');

  const notOwner = await vm.tx(stranger, c, abi, 'checkIn');
  expect(!notOwner.ok && notOwner.revert === 'NotOwner', 'a check-in by someone else reverts');
  vm.warp((BigInt(inputs.intervalDays) * DAY) / 2n);
  gas['checkIn'] = expectOk(await vm.tx(owner, c, abi, 'checkIn'), 'check-in').gasUsed;
  if (shape.deadMansSwitch) {
    const d = await vm.read<bigint>(c, abi, 'deadline');
    expect(
      d === vm.timestamp + BigInt(inputs.intervalDays) * DAY,
      'a check-in moves the deadline to now plus the interval',
    );
  }
  checks.push('check-in by the owner only');

  await measureUpdates({ vm, c, abi, gas, checks, inputs, taken });

  const early = await vm.tx(beneficiaries[0]!, c, abi, 'claim');
  expect(!early.ok && early.revert === 'NotReleased', 'a claim before release reverts');
  checks.push('claim before release refused');

  if (shape.deadMansSwitch) {
    vm.warp(BigInt(inputs.intervalDays + (shape.gracePeriod ? inputs.graceDays : 0)) * DAY + 1n);
  } else {
    gas['release'] = expectOk(await vm.tx(owner, c, abi, 'release'), 'owner release').gasUsed;
  }
  expect(await vm.read<boolean>(c, abi, 'isReleased'), 'released after the deadline');

  const late = await vm.tx(owner, c, abi, 'updateBeneficiaries', [beneficiaries, shares]);
  expect(!late.ok, 'an update after the deadline is refused');
  checks.push('update after the deadline refused');

  // First beneficiary claims, then a late deposit arrives, then everyone claims.
  const received = new Map<Hex, bigint>();
  const claimOnce = async (b: Hex) => {
    const before = await vm.balanceOf(b);
    const r = expectOk(await vm.tx(b, c, abi, 'claim'), 'claim');
    gas['claim'] = Math.max(gas['claim'] ?? 0, r.gasUsed);
    received.set(b, (received.get(b) ?? 0n) + (await vm.balanceOf(b)) - before);
  };
  await claimOnce(beneficiaries[0]!);
  const lateDeposit = ETH / 2n + 3n;
  expectOk(await vm.send(funder, c, '0x', lateDeposit, abi), 'late deposit');
  for (const b of beneficiaries) await claimOnce(b);
  const total = ETH + lateDeposit;
  beneficiaries.forEach((b, i) => {
    expect(
      received.get(b) === (total * BigInt(shares[i]!)) / 10_000n,
      `beneficiary ${i + 1} receives exactly its share`,
    );
  });
  const dust = await vm.balanceOf(c);
  expect(dust < BigInt(beneficiaries.length) + 1n, 'at most one wei per beneficiary stays unclaimed');
  checks.push('exact ETH payouts per share, late deposit shared');

  const before = await vm.balanceOf(beneficiaries[0]!);
  const again = await vm.tx(beneficiaries[0]!, c, abi, 'claim');
  expect(!again.ok && (await vm.balanceOf(beneficiaries[0]!)) === before, 'a second claim pays nothing');
  checks.push('double claim pays nothing');

  await claimTokensAndNfts({ vm, c, abi, gas, checks, inputs, taken }, mocks, tokenAmount);
  return { gas, checks, contractAddress: c };
}

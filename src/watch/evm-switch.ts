/**
 * Reads the dead man's switch of a generated EVM contract through its public views, at one block: the last
 * check-in, the interval and grace period, whether it is released, what each beneficiary has claimed, and the
 * balance. Only the views the stored contract's ABI declares are called (a contract without a switch has no
 * interval; one without a grace period has none), so a missing view never reads as a chain failure.
 */
import type { Abi, Hex } from 'viem';
import type { EvmReader } from '../chains/evm.js';
import type { SwitchSnapshot } from '../contracts/deployments.js';

const DAY = 86_400;

const hasView = (abi: Abi, name: string, inputs: number) =>
  abi.some((e) => e.type === 'function' && e.name === name && e.inputs.length === inputs);

/** The views of the switch this reader uses, as the generated contracts declare them. */
export const SWITCH_VIEWS = [
  'lastCheckIn',
  'intervalDays',
  'gracePeriodDays',
  'isReleased',
  'cancelled',
  'beneficiaries',
  'claimedBy',
  'guardianReleaseTime',
  'vetoesLeft',
] as const;

/** How many calls one read costs for a contract with `beneficiaries` beneficiaries (at most, all views present). */
export const callsPerRead = (beneficiaries: number) => SWITCH_VIEWS.length - 1 + beneficiaries + 1;

export async function readEvmSwitch(
  reader: EvmReader,
  abi: Abi,
  address: Hex,
  block: { number: bigint; timestamp: bigint; hash?: Hex },
): Promise<SwitchSnapshot> {
  const at = block.number;
  const view = async (name: string, args: readonly unknown[] = []) =>
    hasView(abi, name, args.length) ? reader.readContractAt(address, abi, name, args, at) : undefined;
  const [lastCheckIn, intervalDays, graceDays, released, cancelled, listed, balance, guardianRelease, vetoesLeft] =
    await Promise.all([
      view('lastCheckIn'),
      view('intervalDays'),
      view('gracePeriodDays'),
      view('isReleased'),
      view('cancelled'),
      view('beneficiaries'),
      reader.getBalance(address, at),
      view('guardianReleaseTime'),
      view('vetoesLeft'),
    ]);
  const beneficiaries = Array.isArray(listed) ? ((listed[0] as readonly Hex[] | undefined) ?? []) : [];
  const claimed: Record<string, string> = {};
  const amounts = await Promise.all(beneficiaries.map((b) => view('claimedBy', [b])));
  beneficiaries.forEach((b, i) => {
    const amount = amounts[i];
    if (typeof amount === 'bigint' && amount > 0n) claimed[b] = amount.toString();
  });
  return {
    block: Number(at),
    blockTime: Number(block.timestamp),
    ...(block.hash ? { blockHash: block.hash } : {}),
    lastCheckIn: Number((lastCheckIn as bigint | undefined) ?? 0n),
    intervalSeconds: Number((intervalDays as bigint | undefined) ?? 0n) * DAY,
    graceSeconds: Number((graceDays as bigint | undefined) ?? 0n) * DAY,
    triggered: released === true,
    cancelled: cancelled === true,
    claimed,
    balance: balance.toString(),
    ...(typeof guardianRelease === 'bigint' ? { guardianReleaseAt: Number(guardianRelease) } : {}),
    ...(typeof vetoesLeft === 'bigint' ? { vetoesLeft: Number(vetoesLeft) } : {}),
  };
}

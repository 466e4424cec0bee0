/**
 * Reads the dead man's switch of a generated TON contract through its get methods: the last check-in, the interval
 * and grace period, whether it is released, what each beneficiary has claimed, and the balance, with the time of the
 * state the API answered from (the chain's time, which decides warnings, as block time does on EVM).
 *
 * TON has no confirmations to wait for: a masterchain block is final once the validators commit it (there are no
 * reorgs to re-read), and a toncenter-kind API runs get methods on the latest committed state. The snapshot's block
 * is the masterchain seqno seen before the reads.
 */
import type { Address } from '@ton/core';
import { intOf, sharesOf, showTon, succeeded, type TonReader } from '../chains/ton.js';
import type { SwitchSnapshot } from '../contracts/deployments.js';

/** The get methods one read calls (plus one account read); the bench and the docs count calls with it. */
export const TON_SWITCH_METHODS = ['get_last_check_in', 'get_interval', 'get_state', 'get_shares'] as const;

/** The contract's `state::released` (get_state answers it also once the deadline and grace period passed). */
const RELEASED = 1n;

/** Runs one get method of the switch; a failing one fails the read (tried again at the next poll). */
async function run(reader: TonReader, address: Address, method: string) {
  const r = await reader.runGetMethod(address, method);
  if (!succeeded(r)) throw new Error(`${method} failed with exit code ${r.exitCode}`);
  return r.stack;
}

export async function readTonSwitch(reader: TonReader, address: Address, seqno: number): Promise<SwitchSnapshot> {
  const [account, last, interval, state, shares] = await Promise.all([
    reader.getAccount(address),
    run(reader, address, 'get_last_check_in'),
    run(reader, address, 'get_interval'),
    run(reader, address, 'get_state'),
    run(reader, address, 'get_shares'),
  ]);
  if (account.state !== 'active') throw new Error(`the contract account is ${account.state}`);
  const claimed: Record<string, string> = {};
  for (const s of sharesOf(shares) ?? [])
    if (s.address && s.claimed > 0n) claimed[showTon(s.address)] = s.claimed.toString();
  return {
    block: seqno,
    blockTime: account.syncUtime,
    lastCheckIn: Number(intOf(last[0]) ?? 0n),
    intervalSeconds: Number(intOf(interval[0]) ?? 0n),
    graceSeconds: Number(intOf(interval[1]) ?? 0n),
    triggered: intOf(state[0]) === RELEASED,
    claimed,
    balance: account.balance.toString(),
  };
}

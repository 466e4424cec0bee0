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
import { addressOf, intOf, sharesOf, showTon, succeeded, type TonReader } from '../chains/ton.js';
import type { SwitchSnapshot } from '../contracts/deployments.js';

/**
 * The get methods one read calls (plus one account read); the bench and the docs count calls with it. A contract that
 * lists jettons adds get_jettons to every read, and get_jetton_claimed per heir when a jetton's claimed total moved;
 * one with guardians adds get_guardians.
 */
export const TON_SWITCH_METHODS = ['get_last_check_in', 'get_interval', 'get_state', 'get_shares'] as const;

/** The contract's `state::released` (get_state answers it also once the deadline and grace period passed). */
const RELEASED = 1n;
/** The contract's `state::cancelled`: the owner cancelled it (final; get_state never answers released then). */
const CANCELLED = 2n;

/** Runs one get method of the switch; a failing one fails the read (tried again at the next poll). */
async function run(reader: TonReader, address: Address, method: string) {
  const r = await reader.runGetMethod(address, method);
  if (!succeeded(r)) throw new Error(`${method} failed with exit code ${r.exitCode}`);
  return r.stack;
}

/** TVM exit code of a get method the contract does not have (the method id dispatcher's "method not found"). */
const NO_SUCH_METHOD = 11;

/**
 * The jettons' claimed totals (get_jettons) and, for each jetton whose total moved since `prev`, what each heir has
 * claimed of it (get_jetton_claimed per beneficiary index). A contract without jettons has no get_jettons: it is
 * tried once (`prev` absent or from before jettons were read) and remembered as `[]`.
 */
async function readJettons(
  reader: TonReader,
  address: Address,
  heirs: Array<string | null>,
  prev: SwitchSnapshot | null | undefined,
): Promise<Pick<SwitchSnapshot, 'jettons' | 'jettonClaimed'>> {
  if (prev?.jettons && prev.jettons.length === 0) return { jettons: [] };
  const r = await reader.runGetMethod(address, 'get_jettons');
  if (!succeeded(r)) {
    // Only "method not found" means a contract without jettons; any other failure is this round's.
    if (prev?.jettons === undefined && r.exitCode === NO_SUCH_METHOD) return { jettons: [] };
    throw new Error(`get_jettons failed with exit code ${r.exitCode}`);
  }
  const list = r.stack[0]?.type === 'tuple' ? r.stack[0].items : [];
  const jettons = list.map((entry) => {
    const items = entry.type === 'tuple' ? entry.items : [];
    const master = addressOf(items[0]);
    return { master: master ? showTon(master) : '', claimed: (intOf(items[3]) ?? 0n).toString() };
  });
  const jettonClaimed: Record<string, string> = {};
  for (const [j, jetton] of jettons.entries()) {
    const before = prev?.jettons?.find((x) => x.master === jetton.master)?.claimed ?? '0';
    if (jetton.claimed === before) {
      for (const [k, v] of Object.entries(prev?.jettonClaimed ?? {}))
        if (k.endsWith(` ${jetton.master}`)) jettonClaimed[k] = v;
      continue;
    }
    for (const [i, heir] of heirs.entries()) {
      if (!heir) continue;
      const c = await reader.runGetMethod(address, 'get_jetton_claimed', [
        { type: 'int', value: BigInt(i) },
        { type: 'int', value: BigInt(j) },
      ]);
      if (!succeeded(c)) throw new Error(`get_jetton_claimed failed with exit code ${c.exitCode}`);
      const amount = intOf(c.stack[0]) ?? 0n;
      if (amount > 0n) jettonClaimed[`${heir} ${jetton.master}`] = amount.toString();
    }
  }
  return { jettons, jettonClaimed };
}

/**
 * When the release the guardians' quorum proposed takes effect (get_guardians' fifth value; 0: none pending) and the
 * vetoes they have left (its sixth), or `noGuardians` for a contract without guardians: it has no get_guardians,
 * which is tried once (`prev` absent or from before guardians were read) and remembered. Only "method not found"
 * says so; any other failure fails the read (tried again at the next poll): a guarded contract taken for one without
 * guardians after a failing first answer was never asked again, and its early releases were never announced.
 */
async function readGuardians(
  reader: TonReader,
  address: Address,
  prev: SwitchSnapshot | null | undefined,
): Promise<Pick<SwitchSnapshot, 'guardianReleaseAt' | 'vetoesLeft' | 'noGuardians'>> {
  if (prev?.noGuardians) return { noGuardians: true };
  const r = await reader.runGetMethod(address, 'get_guardians');
  if (!succeeded(r)) {
    if (prev?.guardianReleaseAt === undefined && r.exitCode === NO_SUCH_METHOD) return { noGuardians: true };
    throw new Error(`get_guardians failed with exit code ${r.exitCode}`);
  }
  const vetoesLeft = intOf(r.stack[5]);
  return {
    guardianReleaseAt: Number(intOf(r.stack[4]) ?? 0n),
    ...(vetoesLeft !== null ? { vetoesLeft: Number(vetoesLeft) } : {}),
  };
}

export async function readTonSwitch(
  reader: TonReader,
  address: Address,
  seqno: number,
  prev?: SwitchSnapshot | null,
): Promise<SwitchSnapshot> {
  const [account, last, interval, state, shares] = await Promise.all([
    reader.getAccount(address),
    run(reader, address, 'get_last_check_in'),
    run(reader, address, 'get_interval'),
    run(reader, address, 'get_state'),
    run(reader, address, 'get_shares'),
  ]);
  if (account.state !== 'active') throw new Error(`the contract account is ${account.state}`);
  const list = sharesOf(shares) ?? [];
  const heirs = list.map((s) => (s.address ? showTon(s.address) : null));
  const claimed: Record<string, string> = {};
  for (const [i, s] of list.entries()) if (heirs[i] && s.claimed > 0n) claimed[heirs[i]] = s.claimed.toString();
  const [jettons, guardians] = await Promise.all([
    readJettons(reader, address, heirs, prev),
    readGuardians(reader, address, prev),
  ]);
  return {
    block: seqno,
    blockTime: account.syncUtime,
    lastCheckIn: Number(intOf(last[0]) ?? 0n),
    intervalSeconds: Number(intOf(interval[0]) ?? 0n),
    graceSeconds: Number(intOf(interval[1]) ?? 0n),
    triggered: intOf(state[0]) === RELEASED,
    cancelled: intOf(state[0]) === CANCELLED,
    claimed,
    balance: account.balance.toString(),
    ...jettons,
    ...guardians,
  };
}

/**
 * Verification of a TON deployment against its stored contract, read through a toncenter-v2-kind API:
 *
 * - the account is active and its code cell has the hash of the generated code (TON code is the contract: no
 *   constructor runs, and the generated contract cannot replace its code);
 * - the contract's get methods answer the plan's values: owner, each beneficiary's address and share, the interval
 *   and grace period, the guardians' threshold, count, wait and veto bound, and the jetton masters;
 * - the address is the one the generated StateInit determines. Everything a get method does not show (guardian
 *   addresses, the rent reserve) is fixed by that address, since a TON address is the hash of code and initial data.
 *
 * Each mismatch is a `{field, expected, found}` difference, as on EVM. The values the owner may change later (the
 * beneficiaries, by an update) are compared as they are now: a plan that no longer matches its contract is named.
 */
import { Address, type TupleItem } from '@ton/core';
import { addressOf, intOf, sharesOf, showTon, succeeded, type TonReader } from '../chains/ton.js';
import type { DeploymentDifference } from './deployments.js';
import type { Plan } from './plan.js';
import { tonPlanData } from './ton/data.js';

export interface TonCompiled {
  codeHash: string;
  address: string;
}

export interface TonVerification {
  differences: DeploymentDifference[];
  txHash: null;
  blockNumber: number | null;
  deployer: null;
}

const STATE_NAMES: Record<string, string> = { '0': 'active', '1': 'released', '2': 'cancelled' };

async function get(reader: TonReader, address: Address, method: string, args: TupleItem[] = []) {
  const r = await reader.runGetMethod(address, method, args);
  return succeeded(r) ? r.stack : null;
}

/** Compares the get methods' answers with the plan's values, naming each difference. */
async function compareState(reader: TonReader, address: Address, plan: Plan): Promise<DeploymentDifference[]> {
  // The rent reserve shows in no compared value (the address covers it): a placeholder keeps the data's shape.
  const want = tonPlanData(plan, { reserve: 0n, rate: 0n });
  const out: DeploymentDifference[] = [];
  const diff = (field: string, expected: string, found: string) => {
    if (expected !== found) out.push({ field, expected, found });
  };
  const missing = (field: string, method: string) =>
    out.push({ field, expected: `an answer of ${method}`, found: `${method} failed` });

  const owner = await get(reader, address, 'get_owner');
  if (owner) diff('owner', showTon(want.owner), showTon(addressOf(owner[0])));
  else missing('owner', 'get_owner');

  const shares = await get(reader, address, 'get_shares');
  const found = shares ? sharesOf(shares) : null;
  if (!found) missing('beneficiaries', 'get_shares');
  else {
    diff('beneficiaries.length', `${want.beneficiaries.length}`, `${found.length}`);
    want.beneficiaries.forEach((b, i) => {
      const f = found[i];
      if (!f) return;
      diff(`beneficiaries[${i}].address`, showTon(b.address), showTon(f.address));
      diff(`beneficiaries[${i}].shareBps`, `${b.shareBps}`, `${f.shareBps ?? 'none'}`);
    });
  }

  const timing = await get(reader, address, 'get_interval');
  if (timing) {
    diff('switch.intervalSeconds', `${want.intervalSeconds}`, `${intOf(timing[0]) ?? 'none'}`);
    diff('switch.graceSeconds', `${want.graceSeconds}`, `${intOf(timing[1]) ?? 'none'}`);
  } else missing('switch', 'get_interval');

  const state = await get(reader, address, 'get_state');
  const stateName = STATE_NAMES[`${state ? intOf(state[0]) : 'none'}`] ?? 'unknown';
  // Released is where a watched plan is heading anyway; cancelled means the estate went back to the owner.
  if (stateName === 'cancelled' || stateName === 'unknown') diff('state', 'active', stateName);

  if (want.guardians) {
    const g = await get(reader, address, 'get_guardians');
    if (g) {
      diff('guardians.threshold', `${want.guardians.threshold}`, `${intOf(g[0]) ?? 'none'}`);
      diff('guardians.count', `${want.guardians.addresses.length}`, `${intOf(g[1]) ?? 'none'}`);
    } else missing('guardians', 'get_guardians');
    const rules = await get(reader, address, 'get_guardian_rules');
    if (rules) {
      diff('guardians.waitSeconds', `${want.guardians.waitSeconds}`, `${intOf(rules[0]) ?? 'none'}`);
      diff('guardians.maxVetoes', `${want.guardians.maxVetoes}`, `${intOf(rules[1]) ?? 'none'}`);
    } else missing('guardians', 'get_guardian_rules');
  }

  if (want.jettons) {
    const j = await get(reader, address, 'get_jettons');
    const list = j?.[0]?.type === 'tuple' ? j[0].items : null;
    if (!list) missing('jettons', 'get_jettons');
    else {
      diff('jettons.length', `${want.jettons.length}`, `${list.length}`);
      want.jettons.forEach((m, i) => {
        const entry = list[i];
        if (entry?.type !== 'tuple') return;
        diff(`jettons[${i}].master`, showTon(m), showTon(addressOf(entry.items[0])));
      });
    }
  }
  return out;
}

export async function verifyTonDeployment(
  reader: TonReader,
  compiled: TonCompiled,
  plan: Plan,
  address: Address,
): Promise<TonVerification> {
  const seqno = await reader.getMasterchainSeqno();
  const base = { txHash: null, blockNumber: seqno, deployer: null } as const;
  const account = await reader.getAccount(address);
  const codeDiff = (found: string) => ({
    ...base,
    differences: [{ field: 'code', expected: `the generated code (hash ${compiled.codeHash})`, found }],
  });
  if (account.state === 'uninitialized' || !account.code) return codeDiff('no contract at this address');
  if (account.state === 'frozen') return codeDiff('a frozen account (its storage rent ran out)');
  const hash = account.code.hash().toString('hex');
  // Other code answers other get methods: comparing them would only add noise to the one difference that matters.
  if (hash !== compiled.codeHash.toLowerCase()) return codeDiff(`other code (hash ${hash})`);
  const differences = await compareState(reader, address, plan);
  const planned = Address.parse(compiled.address);
  if (differences.length === 0 && !planned.equals(address))
    differences.push({
      field: 'initialData',
      expected: `the generated StateInit, at ${showTon(planned)}`,
      found: 'other initial data (guardian addresses, rent reserve or starting state the get methods do not show)',
    });
  return { ...base, differences };
}

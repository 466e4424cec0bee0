/**
 * A small reader of a TON network over an HTTP API of the toncenter v2 kind: only what deployment verification and
 * the watcher need (`getAddressInformation`, `runGetMethod`, `getMasterchainInfo`). Every failure of the endpoint
 * (refused, timed out, an error envelope, an answer of the wrong shape) becomes one 503 envelope error that never
 * repeats the endpoint URL or the API key.
 *
 * Stacks come back in toncenter's form: top-level entries as `["num", "0x.."]`, `["cell", {bytes}]`,
 * `["slice", {bytes}]`, `["tuple" | "list", {elements}]`, and the elements of a tuple in tonlib's objects
 * (`tvm.stackEntryNumber`, `tvm.stackEntrySlice`, `tvm.stackEntryCell`, `tvm.stackEntryTuple`, ...). Both become
 * @ton/core tuple items.
 */
import { type Address, Cell, type TupleItem } from '@ton/core';
import { ApiError } from '../core/errors.js';

/** How long one call may take before the endpoint counts as not answering (as for EVM endpoints). */
export const TON_TIMEOUT_MS = 10_000;

/** Kept apart from the EVM reader's (which loads viem): the same answer, without the URL. */
const unavailable = () => new ApiError('SERVICE_UNAVAILABLE', 'The chain endpoint did not answer; try again later.');

export type TonNetwork = 'ton-mainnet' | 'ton-testnet';

export interface TonAccount {
  state: 'active' | 'uninitialized' | 'frozen';
  /** Nanotons. */
  balance: bigint;
  code: Cell | null;
  data: Cell | null;
  /** Unix seconds of the state the API answered from. */
  syncUtime: number;
}

export interface TonGetResult {
  /** 0 (or 1) on success; anything else is the contract's throw or a VM error. */
  exitCode: number;
  stack: TupleItem[];
}

export interface TonReader {
  network: TonNetwork;
  getAccount(address: Address): Promise<TonAccount>;
  runGetMethod(address: Address, method: string, args?: TupleItem[]): Promise<TonGetResult>;
  /** The latest masterchain block's seqno. */
  getMasterchainSeqno(): Promise<number>;
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A base64 BoC given as a string or as `{bytes}` (toncenter writes both, depending on the depth). */
function bocOf(v: unknown): Cell {
  const text = typeof v === 'string' ? v : isObject(v) ? v.bytes : undefined;
  if (typeof text !== 'string') throw new Error('a cell without bytes');
  return Cell.fromBase64(text);
}

/** One tonlib stack object (inside a tuple or list): either a stack entry wrapping a value, or the value itself. */
function fromTonlib(e: unknown): TupleItem {
  if (!isObject(e)) throw new Error('a stack element that is not an object');
  switch (e['@type']) {
    case 'tvm.stackEntryNumber':
      return fromTonlib(e.number);
    case 'tvm.numberDecimal':
      return { type: 'int', value: BigInt(String(e.number)) };
    case 'tvm.stackEntryCell':
      return fromTonlib(e.cell);
    case 'tvm.cell':
      return { type: 'cell', cell: bocOf(e) };
    case 'tvm.stackEntrySlice':
      return fromTonlib(e.slice);
    case 'tvm.slice':
      return { type: 'slice', cell: bocOf(e) };
    case 'tvm.stackEntryTuple':
      return fromTonlib(e.tuple);
    case 'tvm.stackEntryList':
      return fromTonlib(e.list);
    case 'tvm.tuple':
    case 'tvm.list':
      return { type: 'tuple', items: elementsOf(e).map(fromTonlib) };
    case 'tvm.stackEntryUnsupported':
    case 'tvm.stackEntryNull':
      return { type: 'null' };
    default:
      throw new Error(`an unknown stack element ${String(e['@type'])}`);
  }
}

function elementsOf(v: unknown): unknown[] {
  if (isObject(v) && Array.isArray(v.elements)) return v.elements;
  throw new Error('a tuple without elements');
}

/** One top-level stack entry of a toncenter answer. */
export function fromToncenter(entry: unknown): TupleItem {
  if (!Array.isArray(entry) || entry.length < 2) throw new Error('a stack entry that is not a pair');
  const [kind, value] = entry as [string, unknown];
  switch (kind) {
    case 'num':
    case 'int':
    case 'number': {
      const text = String(value);
      const negative = text.startsWith('-');
      const magnitude = BigInt(negative ? text.slice(1) : text);
      return { type: 'int', value: negative ? -magnitude : magnitude };
    }
    case 'cell':
      return { type: 'cell', cell: bocOf(value) };
    case 'slice':
      return { type: 'slice', cell: bocOf(value) };
    case 'tuple':
    case 'list':
      return { type: 'tuple', items: elementsOf(value).map(fromTonlib) };
    case 'null':
      return { type: 'null' };
    default:
      throw new Error(`an unknown stack entry ${kind}`);
  }
}

/** A get-method argument in toncenter's request form (only numbers are needed here). */
function toToncenter(item: TupleItem): [string, string] {
  if (item.type !== 'int') throw new Error('only integer arguments are sent');
  return ['num', item.value.toString()];
}

export function createTonReader(url: string, network: TonNetwork, apiKey?: string): TonReader {
  const base = url.replace(/\/+$/, '');
  const headers: Record<string, string> = { accept: 'application/json' };
  if (apiKey) headers['x-api-key'] = apiKey;

  async function call(method: string, init: { query?: Record<string, string>; body?: Json }): Promise<unknown> {
    const target = new URL(`${base}/${method}`);
    for (const [k, v] of Object.entries(init.query ?? {})) target.searchParams.set(k, v);
    let res: Response;
    try {
      res = await fetch(target, {
        method: init.body ? 'POST' : 'GET',
        headers: init.body ? { ...headers, 'content-type': 'application/json' } : headers,
        ...(init.body ? { body: JSON.stringify(init.body) } : {}),
        signal: AbortSignal.timeout(TON_TIMEOUT_MS),
      });
    } catch {
      throw unavailable();
    }
    const answer = (await res.json().catch(() => null)) as Json | null;
    if (!res.ok || !answer || answer.ok !== true) {
      if (res.status === 401 || res.status === 403)
        throw new ApiError('SERVICE_UNAVAILABLE', 'The TON API refused the configured key; fix SVC_TON_API_KEY.');
      throw unavailable();
    }
    return answer.result;
  }

  /** Any answer of the wrong shape is the endpoint's fault, like a refused connection. */
  const shaped = async <T>(read: () => Promise<T>): Promise<T> => {
    try {
      return await read();
    } catch (err) {
      if (err instanceof ApiError) throw err;
      throw unavailable();
    }
  };

  return {
    network,
    getAccount: (address) =>
      shaped(async () => {
        const r = (await call('getAddressInformation', { query: { address: address.toString() } })) as Json;
        const raw = String(r.state);
        const state = raw === 'active' ? 'active' : raw === 'frozen' ? 'frozen' : 'uninitialized';
        const code = typeof r.code === 'string' && r.code !== '' ? Cell.fromBase64(r.code) : null;
        const data = typeof r.data === 'string' && r.data !== '' ? Cell.fromBase64(r.data) : null;
        const syncUtime = Number(r.sync_utime);
        if (!Number.isFinite(syncUtime)) throw new Error('no sync_utime');
        return { state, balance: BigInt(String(r.balance ?? '0')), code, data, syncUtime };
      }),
    runGetMethod: (address, method, args = []) =>
      shaped(async () => {
        const r = (await call('runGetMethod', {
          body: { address: address.toString(), method, stack: args.map(toToncenter) },
        })) as Json;
        const exitCode = Number(r.exit_code);
        if (!Number.isInteger(exitCode)) throw new Error('no exit_code');
        const stack = Array.isArray(r.stack) ? r.stack.map(fromToncenter) : [];
        return { exitCode, stack };
      }),
    getMasterchainSeqno: () =>
      shaped(async () => {
        const r = (await call('getMasterchainInfo', {})) as Json;
        const seqno = Number((r.last as Json | undefined)?.seqno);
        if (!Number.isInteger(seqno)) throw new Error('no seqno');
        return seqno;
      }),
  };
}

/** Whether a get method answered (TVM exit codes 0 and 1 are both success). */
export const succeeded = (r: TonGetResult) => r.exitCode === 0 || r.exitCode === 1;

/** The address a slice on the stack holds, or null (addr_none, or not an address). */
export function addressOf(item: TupleItem | undefined): Address | null {
  if (!item || (item.type !== 'slice' && item.type !== 'cell')) return null;
  try {
    return item.cell.beginParse().loadMaybeAddress();
  } catch {
    return null;
  }
}

/** The integer on the stack, or null. */
export const intOf = (item: TupleItem | undefined): bigint | null => (item?.type === 'int' ? item.value : null);

/** How an address is shown in a difference: the user-friendly bounceable form wallets display. */
export const showTon = (a: Address | null) => (a ? a.toString({ bounceable: true }) : 'none');

/** One beneficiary as the generated contract's `get_shares` answers it: a tuple [address, share in basis points, claimed]. */
export interface TonShare {
  address: Address | null;
  shareBps: number | null;
  claimed: bigint;
}

export function sharesOf(stack: TupleItem[]): TonShare[] | null {
  const list = stack[0];
  if (list?.type !== 'tuple') return null;
  return list.items.map((entry) => {
    const items = entry.type === 'tuple' ? entry.items : [];
    const share = intOf(items[1]);
    return {
      address: addressOf(items[0]),
      shareBps: share === null ? null : Number(share),
      claimed: intOf(items[2]) ?? 0n,
    };
  });
}

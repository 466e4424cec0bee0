/**
 * A local stand-in for the parts of a toncenter v2 HTTP API this service reads, backed by a real TON emulator
 * (@ton/sandbox). Tests deploy and drive contracts through `chain` and move time with `advance`; the service reads
 * them over HTTP exactly as it would read toncenter:
 *
 * - `GET  /api/v2/getAddressInformation?address=` → balance, code and data BoCs (base64), state, last transaction id;
 * - `POST /api/v2/runGetMethod {address, method, stack}` → `{exit_code, gas_used, stack}` with toncenter's stack
 *   entries (`["num", "0x.."]`, `["cell", {bytes}]`, `["slice", {bytes}]`, `["tuple", {elements}]` whose elements
 *   are tonlib objects such as `tvm.stackEntryNumber` and `tvm.stackEntrySlice`);
 * - `GET  /api/v2/getMasterchainInfo` → a seqno that grows with every message, and the emulator's time;
 * - `POST /api/v2/sendBoc {boc}` → an external message delivered to its destination.
 *
 * Answers use toncenter's envelope: `{ok: true, result}` or `{ok: false, error, code}`. With `apiKey` set, requests
 * without that `X-API-Key` answer 401. Limits (documented for the watcher): no blocks or shards — the seqno counts
 * messages; there are no real confirmations or reorgs; only the methods above exist.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Address, beginCell, Cell, loadMessage, type TupleItem } from '@ton/core';
import { Blockchain } from '@ton/sandbox';

export interface TonApiStandin {
  /** The server's root URL. */
  url: string;
  /** The API's base (`<url>/api/v2`, as toncenter's `https://toncenter.com/api/v2`): SVC_TON_API_TESTNET / _MAINNET. */
  apiUrl: string;
  chain: Blockchain;
  /** Moves the emulator's clock forward. */
  advance(seconds: number): void;
  /** Counts a new "block" (the masterchain seqno the stand-in reports). */
  bump(): void;
  /**
   * The next call of get method `method` answers `exitCode` with an empty stack, as toncenter does when a lite server
   * fails to run it (a transient failure), whatever the contract holds.
   */
  failNextGet(method: string, exitCode?: number): void;
  /** Every request seen, for assertions: method and path. */
  requests: { method: string; path: string }[];
  close(): Promise<void>;
}

type Json = Record<string, unknown>;

function stackIn(entries: unknown): TupleItem[] {
  if (!Array.isArray(entries)) return [];
  return entries.map((e) => {
    const [kind, value] = e as [string, unknown];
    if (kind === 'num') return { type: 'int', value: BigInt(String(value)) };
    if (kind === 'cell' || kind === 'slice') {
      const cell = Cell.fromBase64(String((value as Json).bytes ?? value));
      return kind === 'cell' ? { type: 'cell', cell } : { type: 'slice', cell };
    }
    throw new Error(`unsupported stack entry ${kind}`);
  });
}

/** An element inside a tuple, in tonlib's objects, as toncenter writes it below the top level. */
function tonlibOut(item: TupleItem): Json {
  switch (item.type) {
    case 'int':
      return {
        '@type': 'tvm.stackEntryNumber',
        number: { '@type': 'tvm.numberDecimal', number: item.value.toString() },
      };
    case 'cell':
    case 'builder':
      return {
        '@type': 'tvm.stackEntryCell',
        cell: { '@type': 'tvm.cell', bytes: item.cell.toBoc().toString('base64') },
      };
    case 'slice':
      return {
        '@type': 'tvm.stackEntrySlice',
        slice: { '@type': 'tvm.slice', bytes: item.cell.toBoc().toString('base64') },
      };
    case 'tuple':
      return { '@type': 'tvm.stackEntryTuple', tuple: { '@type': 'tvm.tuple', elements: item.items.map(tonlibOut) } };
    default:
      return { '@type': 'tvm.stackEntryUnsupported' };
  }
}

function stackOut(items: TupleItem[]): unknown[] {
  return items.map((item) => {
    switch (item.type) {
      case 'tuple':
        return ['tuple', { '@type': 'tvm.tuple', elements: item.items.map(tonlibOut) }];
      case 'int':
        return ['num', `${item.value < 0n ? '-' : ''}0x${(item.value < 0n ? -item.value : item.value).toString(16)}`];
      case 'cell':
      case 'slice':
      case 'builder':
        return [item.type === 'slice' ? 'slice' : 'cell', { bytes: item.cell.toBoc().toString('base64') }];
      case 'null':
        return ['null', null];
      default:
        return ['unsupported', item.type];
    }
  });
}

async function readBody(req: http.IncomingMessage): Promise<Json> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString();
  return text ? (JSON.parse(text) as Json) : {};
}

export async function startTonApiStandin(opts: { apiKey?: string; chain?: Blockchain } = {}): Promise<TonApiStandin> {
  const chain = opts.chain ?? (await Blockchain.create({ config: 'slim' }));
  if (chain.now === undefined) chain.now = Math.floor(Date.now() / 1000);
  let seqno = 1;
  const failing = new Map<string, number>();
  const requests: TonApiStandin['requests'] = [];

  async function addressInformation(raw: string): Promise<Json> {
    const contract = await chain.getContract(Address.parse(raw));
    const state = contract.accountState;
    const active = state?.type === 'active' ? state.state : undefined;
    return {
      '@type': 'raw.fullAccountState',
      balance: contract.balance.toString(),
      code: active?.code ? active.code.toBoc().toString('base64') : '',
      data: active?.data ? active.data.toBoc().toString('base64') : '',
      last_transaction_id: {
        '@type': 'internal.transactionId',
        lt: contract.lastTransactionLt.toString(),
        hash: Buffer.from(contract.lastTransactionHash.toString(16).padStart(64, '0'), 'hex').toString('base64'),
      },
      frozen_hash: '',
      sync_utime: chain.now,
      state: state === undefined || state.type === 'uninit' ? 'uninitialized' : state.type,
    };
  }

  async function route(req: http.IncomingMessage, url: URL): Promise<Json> {
    switch (url.pathname) {
      case '/api/v2/getAddressInformation':
        return addressInformation(url.searchParams.get('address') ?? '');
      case '/api/v2/getMasterchainInfo':
        return { '@type': 'blocks.masterchainInfo', last: { seqno, workchain: -1 }, sync_utime: chain.now };
      case '/api/v2/runGetMethod': {
        const body = await readBody(req);
        const failed = failing.get(String(body.method));
        if (failed !== undefined) {
          failing.delete(String(body.method));
          return { gas_used: 0, exit_code: failed, stack: [] };
        }
        try {
          const result = await chain.runGetMethod(
            Address.parse(String(body.address)),
            String(body.method),
            stackIn(body.stack),
          );
          return { gas_used: Number(result.gasUsed), exit_code: result.exitCode, stack: stackOut(result.stack) };
        } catch (err) {
          // Like toncenter: a get method that fails is still an answer, with its exit code and an empty stack.
          const exitCode = (err as { exitCode?: number }).exitCode;
          if (typeof exitCode !== 'number') throw err;
          return { gas_used: 0, exit_code: exitCode, stack: [] };
        }
      }
      case '/api/v2/sendBoc': {
        const body = await readBody(req);
        const message = loadMessage(Cell.fromBase64(String(body.boc)).beginParse());
        await chain.sendMessage(message);
        seqno++;
        return { '@type': 'ok', hash: beginCell().endCell().hash().toString('base64') };
      }
      default:
        throw Object.assign(new Error('Not Found'), { code: 404 });
    }
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    requests.push({ method: req.method ?? 'GET', path: url.pathname });
    const send = (status: number, body: Json) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (opts.apiKey && req.headers['x-api-key'] !== opts.apiKey) {
      send(401, { ok: false, error: 'API key does not exist', code: 401 });
      return;
    }
    route(req, url).then(
      (result) => send(200, { ok: true, result }),
      (err: Error & { code?: number }) => {
        const code = err.code === 404 ? 404 : 500;
        send(code, { ok: false, error: err.message, code });
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    apiUrl: `http://127.0.0.1:${port}/api/v2`,
    chain,
    advance(seconds: number) {
      chain.now = (chain.now ?? Math.floor(Date.now() / 1000)) + seconds;
      seqno++;
    },
    bump() {
      seqno++;
    },
    failNextGet(method: string, exitCode = -13) {
      failing.set(method, exitCode);
    },
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

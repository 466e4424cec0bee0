import {
  type Blockchain,
  createShardAccount,
  internal,
  type BlockchainTransaction,
  type SendMessageResult,
} from '@ton/sandbox';
import { Address, beginCell, Cell, fromNano, type TupleReader, type Builder } from '@ton/core';
import { OP } from './contract.js';
import { sandboxBlockchain } from './executor.js';

/**
 * The TON contract in @ton/sandbox: deploys it and sends it messages from any
 * address (the sandbox does not require the sender to exist). Payout
 * recipients are installed as minimal accounts (empty code: accepts and
 * keeps every message) so that their payouts do not bounce, unless a test
 * wants them to.
 */
export interface SentOp {
  result: SendMessageResult;
  /** The contract's own transaction for this message. */
  tx: BlockchainTransaction;
  exitCode: number;
  success: boolean;
}

export interface Beneficiary {
  address: Address;
  shareBps: number;
  claimed: bigint;
}

const EMPTY_CODE = new Cell();

/** Which blockchain configuration the sandbox runs: see `TonHarness.create`. */
export type TonHarnessConfig = 'slim' | 'mainnet';

export function computeExit(tx: BlockchainTransaction): { success: boolean; exitCode: number; gasFees: bigint } {
  const d = tx.description;
  if (d.type !== 'generic' || d.computePhase.type !== 'vm') return { success: false, exitCode: -1, gasFees: 0n };
  return {
    success: d.computePhase.success && (d.actionPhase?.success ?? true),
    exitCode: d.computePhase.exitCode,
    gasFees: d.computePhase.gasFees,
  };
}

export function storageFee(tx: BlockchainTransaction): bigint {
  const d = tx.description;
  return d.type === 'generic' ? (d.storagePhase?.storageFeesCollected ?? 0n) : 0n;
}

export function actionFwdFees(tx: BlockchainTransaction): bigint {
  const d = tx.description;
  return d.type === 'generic' ? (d.actionPhase?.totalFwdFees ?? 0n) : 0n;
}

export class TonHarness {
  private constructor(
    readonly blockchain: Blockchain,
    readonly address: Address,
    readonly code: Cell,
    readonly data: Cell,
  ) {}

  /**
   * `config`: 'slim' (the default; fast, for behaviour) or 'mainnet', the full mainnet configuration @ton/sandbox
   * ships (its `defaultConfig`: every parameter of a mainnet masterchain block, global id -239), for the tests that
   * must run on the network's real prices and limits.
   */
  static async create(
    code: Cell,
    data: Cell,
    address: Address,
    now: number,
    opts: { config?: TonHarnessConfig } = {},
  ): Promise<TonHarness> {
    const blockchain = await sandboxBlockchain(opts.config === 'mainnet' ? 'default' : 'slim');
    blockchain.now = now;
    return new TonHarness(blockchain, address, code, data);
  }

  get now(): number {
    return this.blockchain.now ?? 0;
  }

  set now(t: number) {
    this.blockchain.now = t;
  }

  /** Makes `addr` an existing account that accepts everything (so payouts to it do not bounce). */
  async installSink(addr: Address, balance = 0n): Promise<void> {
    await this.blockchain.setShardAccount(
      addr,
      createShardAccount({ address: addr, code: EMPTY_CODE, data: new Cell(), balance }),
    );
  }

  /** Installs a contract account with the given code and data. */
  async installContract(addr: Address, code: Cell, data: Cell, balance: bigint): Promise<void> {
    await this.blockchain.setShardAccount(addr, createShardAccount({ address: addr, code, data, balance }));
  }

  /** Jetton balance of a (test-double) jetton wallet; 0 when the wallet does not exist. */
  async jettonBalance(wallet: Address): Promise<bigint> {
    const c = await this.blockchain.getContract(wallet);
    if (c.accountState?.type !== 'active') return 0n;
    const r = await this.blockchain.runGetMethod(wallet, 'get_wallet_data', []);
    return r.stackReader.readBigNumber();
  }

  async balanceOf(addr: Address): Promise<bigint> {
    return (await this.blockchain.getContract(addr)).balance;
  }

  async balance(): Promise<bigint> {
    return this.balanceOf(this.address);
  }

  private findTx(result: SendMessageResult): BlockchainTransaction {
    const tx = result.transactions.find(
      (t) => t.inMessage?.info.dest instanceof Address && t.inMessage.info.dest.equals(this.address),
    );
    if (!tx) throw new Error('the contract did not receive the message');
    return tx;
  }

  async sendRaw(from: Address, value: bigint, body: Cell, init = false): Promise<SentOp> {
    const result = await this.blockchain.sendMessage(
      internal({
        from,
        to: this.address,
        value,
        body,
        bounce: true,
        ...(init ? { stateInit: { code: this.code, data: this.data } } : {}),
      }),
    );
    const tx = this.findTx(result);
    const { success, exitCode } = computeExit(tx);
    return { result, tx, exitCode, success };
  }

  async op(from: Address, op: number, value: bigint, fill?: (b: Builder) => Builder, queryId = 0n): Promise<SentOp> {
    let b = beginCell().storeUint(op, 32).storeUint(queryId, 64);
    if (fill) b = fill(b);
    return this.sendRaw(from, value, b.endCell());
  }

  deploy(owner: Address, value: bigint): Promise<SentOp> {
    return this.sendRaw(owner, value, beginCell().storeUint(OP.deposit, 32).storeUint(0, 64).endCell(), true);
  }

  private async get(method: string, args: Parameters<Blockchain['runGetMethod']>[2] = []): Promise<TupleReader> {
    const r = await this.blockchain.runGetMethod(this.address, method, args);
    if (r.exitCode !== 0 && r.exitCode !== 1)
      throw new Error(`get-method ${method} failed with exit code ${r.exitCode}`);
    return r.stackReader;
  }

  async owner(): Promise<Address> {
    return (await this.get('get_owner')).readAddress();
  }
  async state(): Promise<number> {
    return (await this.get('get_state')).readNumber();
  }
  async deadline(): Promise<number> {
    return (await this.get('get_deadline')).readNumber();
  }
  async releaseTime(): Promise<number> {
    return (await this.get('get_release_time')).readNumber();
  }
  async lastCheckIn(): Promise<number> {
    return (await this.get('get_last_check_in')).readNumber();
  }
  async template(): Promise<number> {
    return (await this.get('get_template')).readNumber();
  }
  async claimable(index: number): Promise<bigint> {
    return (await this.get('get_claimable', [{ type: 'int', value: BigInt(index) }])).readBigNumber();
  }
  async totals(): Promise<{ claimedTotal: bigint; available: bigint }> {
    const r = await this.get('get_totals');
    return { claimedTotal: r.readBigNumber(), available: r.readBigNumber() };
  }
  /** The rent reserve held back now, the reserve set at each check-in, the rent rate per 65536 s, its rise per added beneficiary, and the beneficiaries it covers. */
  async reserve(): Promise<{ now: bigint; base: bigint; rate: bigint; step: bigint; count: number }> {
    const r = await this.get('get_reserve');
    return {
      now: r.readBigNumber(),
      base: r.readBigNumber(),
      rate: r.readBigNumber(),
      step: r.readBigNumber(),
      count: r.readNumber(),
    };
  }
  /** Threshold, count, vote masks, when the guardians' early release takes effect (0 none), vetoes left. */
  async guardians(): Promise<{
    threshold: number;
    count: number;
    approvals: number;
    vetoes: number;
    releaseAt: number;
    vetoesLeft: number;
  }> {
    const r = await this.get('get_guardians');
    return {
      threshold: r.readNumber(),
      count: r.readNumber(),
      approvals: r.readNumber(),
      vetoes: r.readNumber(),
      releaseAt: r.readNumber(),
      vetoesLeft: r.readNumber(),
    };
  }
  /** The plan's guardian wait (seconds) and veto bound, from get_guardian_rules. */
  async guardianRules(): Promise<{ waitSeconds: number; maxVetoes: number }> {
    const r = await this.get('get_guardian_rules');
    return { waitSeconds: r.readNumber(), maxVetoes: r.readNumber() };
  }

  async beneficiary(index: number): Promise<Beneficiary> {
    const r = await this.get('get_beneficiary', [{ type: 'int', value: BigInt(index) }]);
    return { address: r.readAddress(), shareBps: r.readNumber(), claimed: r.readBigNumber() };
  }
  async jettons(): Promise<Array<{ master: Address; wallet: Address | null; received: bigint; claimed: bigint }>> {
    const list = (await this.get('get_jettons')).readTuple();
    const out = [];
    while (list.remaining > 0) {
      const t = list.readTuple();
      out.push({
        master: t.readAddress(),
        wallet: t.readAddressOpt(),
        received: t.readBigNumber(),
        claimed: t.readBigNumber(),
      });
    }
    return out;
  }
  async jettonClaimed(index: number, jetton: number): Promise<bigint> {
    const r = await this.get('get_jetton_claimed', [
      { type: 'int', value: BigInt(index) },
      { type: 'int', value: BigInt(jetton) },
    ]);
    return r.readBigNumber();
  }
  async shares(): Promise<Beneficiary[]> {
    const r = await this.get('get_shares');
    const list = r.readTuple();
    const out: Beneficiary[] = [];
    while (list.remaining > 0) {
      const t = list.readTuple();
      out.push({ address: t.readAddress(), shareBps: t.readNumber(), claimed: t.readBigNumber() });
    }
    return out;
  }
}

/** Nanotons as a TON decimal string. */
export function ton(n: bigint): string {
  return fromNano(n);
}

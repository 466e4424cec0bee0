/**
 * One poll of one TON network: the same work list, decisions and writes as an EVM poll (./watcher.ts), with the
 * switch read through the TON API's get methods (./ton-switch.ts). Loaded by the watcher only for a TON network, so
 * @ton/core stays out of a watcher that follows EVM chains only.
 */
import { Address } from '@ton/core';
import type { TonReader } from '../chains/ton.js';
import type { Logger } from '../core/log.js';
import type { Store } from '../store/port.js';
import { DEPLOYMENTS, type DeploymentRecord, type SwitchSnapshot } from '../contracts/deployments.js';
import { eachLimited } from './each-limited.js';
import { readTonSwitch } from './ton-switch.js';

/** Deployments read at the same time (each read is five calls to the API, one more each with jettons or guardians). */
const TON_READ_CONCURRENCY = 4;

export interface TonPollDeps {
  store: Store;
  network: string;
  reader: TonReader;
  /** Records what a snapshot means (the watcher's one transaction per deployment); resolves with the events' count. */
  apply(deploymentId: string, snapshot: SwitchSnapshot): Promise<number>;
  /** Whether the stored snapshot already says all the new one does, and nothing falls due: then nothing is written. */
  quiet(d: DeploymentRecord, snapshot: SwitchSnapshot): boolean;
  stopped(): boolean;
  log?: Logger | undefined;
}

export interface TonPoll {
  result: { block: number | null; read: number; events: number; failed: number };
  /** The network's watched deployments (their linked plans are marked by the watcher). */
  watched: DeploymentRecord[];
}

export async function pollTonNetwork(deps: TonPollDeps): Promise<TonPoll> {
  const { store, network, reader } = deps;
  const seqno = await reader.getMasterchainSeqno();
  const all = await store.findBy<DeploymentRecord>(DEPLOYMENTS, 'status', 'verified');
  const watched = all.filter((d) => d.network === network && d.chain === 'ton' && d.watch !== null);
  // Unlike a block on EVM, the same seqno does not mean the same answer: time moves the switch, so every poll reads.
  const due = watched.filter((d) => d.watch?.paused !== true);
  const result = { block: seqno, read: 0, events: 0, failed: 0 };
  const readOne = async (d: DeploymentRecord) => {
    try {
      const snapshot = await readTonSwitch(reader, Address.parse(d.address), seqno, d.watch?.snapshot);
      result.read += 1;
      if (deps.quiet(d, snapshot)) return;
      result.events += await deps.apply(d.id, snapshot);
    } catch (err) {
      result.failed += 1;
      deps.log?.warn(
        { network, deploymentId: d.id, err: (err as Error).message },
        'the chain watcher could not follow a deployment this round',
      );
    }
  };
  await eachLimited(due, TON_READ_CONCURRENCY, readOne, deps.stopped);
  return { result, watched };
}

/**
 * Shared by the TON watcher tests: a service whose only chain is the TON API stand-in, a watcher reading it, and a
 * contract generated, deployed on the stand-in's sandbox and registered (verified) in one step.
 */
import type { Address } from '@ton/core';
import type { SandboxContract, TreasuryContract } from '@ton/sandbox';
import { expect } from 'vitest';
import { createTonReader } from '../../src/chains/ton.js';
import { systemClock } from '../../src/core/clock.js';
import { Watcher } from '../../src/watch/watcher.js';
import { startTestServer, type TestServer } from '../helpers.js';
import type { TonApiStandin } from '../support/ton-api.js';
import { call, deployTon, generateTon } from '../contracts/ton-register-support.js';

/** The service, not listening, with `ton-testnet` served by the stand-in (`extra` adds to its config). */
export function startTonWatchServer(
  api: TonApiStandin,
  apiKey: string,
  pollMs = 60_000,
  extra: Record<string, unknown> = {},
): Promise<TestServer> {
  return startTestServer({
    config: {
      ...extra,
      chains: {
        evmRpcUrls: {},
        tonApis: { 'ton-testnet': api.apiUrl },
        tonApiKey: apiKey,
        watchPollMs: pollMs,
        watchConfirmations: 2,
      },
    },
    listen: false,
  });
}

/** A watcher of `ton-testnet` only, on the service's store, reading through the stand-in. */
export function tonWatcher(server: TestServer, api: TonApiStandin, apiKey: string, pollMs = 60_000): Watcher {
  return new Watcher({
    store: server.services.store,
    clock: systemClock,
    networks: ['ton-testnet'],
    pollMs,
    confirmations: 2,
    readerFor: () => Promise.reject(new Error('no EVM network here')),
    tonReaderFor: async (network) => createTonReader(api.apiUrl, network, apiKey),
  });
}

/** Generates `plan`, deploys it from `owner` with `deposit` TON and registers it: the contract and its deployment. */
export async function deployWatched(
  server: TestServer,
  api: TonApiStandin,
  owner: SandboxContract<TreasuryContract>,
  plan: object,
  deposit = '20',
): Promise<{ contract: Address; deploymentId: string }> {
  const g = await generateTon(server, plan);
  // The owner's first message (the deploy) starts the contract's clock.
  const contract = await deployTon(api, owner, g, deposit);
  const res = await call(server, 'POST', `/contracts/${g.id}/deployments`, {
    network: 'ton-testnet',
    address: g.compiled.address,
  });
  expect(res.body.data?.status, JSON.stringify(res.body)).toBe('verified');
  return { contract, deploymentId: res.body.data.id as string };
}

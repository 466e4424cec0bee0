import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ContractEngine } from '../../src/contracts/engine.js';
import { loadConfig } from '../../src/core/config.js';
import { SVC_BIN, tmpDir } from '../helpers.js';
import { cleanEnv } from '../support/cli.js';

// The contract engines start in the background once the service is up (SVC_WARM_ENGINES, on by default), so that
// the first generation does not wait for solc, the VM, the TON sandbox and the Rust parser to load.

describe('SVC_WARM_ENGINES', () => {
  it('is on by default, off with 0, and refuses anything but 1 or 0', () => {
    expect(loadConfig({}, {}).warmEngines).toBe(true);
    expect(loadConfig({}, { SVC_WARM_ENGINES: '0' }).warmEngines).toBe(false);
    expect(loadConfig({}, { SVC_WARM_ENGINES: '1' }).warmEngines).toBe(true);
    expect(() => loadConfig({}, { SVC_WARM_ENGINES: 'yes' })).toThrow(/SVC_WARM_ENGINES must be 1 or 0/);
  });
});

describe('ContractEngine.warm', () => {
  let engine: ContractEngine | undefined;
  afterEach(async () => {
    await engine?.close();
    engine = undefined;
  });

  it('starts every pool before any job', async () => {
    engine = new ContractEngine();
    await engine.warm();
    expect(engine.pool.stats.workersStarted).toBeGreaterThanOrEqual(1);
    for (const pool of [engine.evm, engine.ton, engine.solana]) expect(pool.stats.workersStarted).toBe(1);
    // Warmed, not run: no job has completed in the VM, TON or Rust pools.
    for (const pool of [engine.evm, engine.ton, engine.solana]) expect(pool.stats.completed).toBe(0);
  });

  it('stops between pools when the engine closes meanwhile, and never throws', async () => {
    engine = new ContractEngine();
    const warming = engine.warm();
    await engine.close();
    await expect(warming).resolves.toBeGreaterThanOrEqual(0);
    engine = undefined;
  });
});

describe('svc mcp', () => {
  it('starts the engines after initialize, before any request asks for them', async () => {
    const dir = await tmpDir();
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [SVC_BIN, 'mcp', '--data-dir', path.join(dir.dir, 'data')],
      env: cleanEnv({ SVC_WARM_ENGINES: '1', SVC_LOG_LEVEL: 'info' }),
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'warm-test', version: '1.0.0' });
    try {
      await client.connect(transport);
      // Nothing asked for a contract: the engines come up on their own.
      await expect
        .poll(() => /"msg":"contract engines ready"/.test(stderr), { timeout: 60_000, interval: 200 })
        .toBe(true);
      expect(stderr).not.toMatch(/could not be started ahead of use/);
    } finally {
      await client.close();
      await dir.cleanup();
    }
  });
});

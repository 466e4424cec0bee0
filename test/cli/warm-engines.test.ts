import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ContractEngine } from '../../src/contracts/engine.js';
import { loadConfig } from '../../src/core/config.js';
import { svcArgs, tmpDir } from '../helpers.js';
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
    // solc came from its cache of decoded WebAssembly, or was decoded and cached (src/contracts/evm/solc-load.mjs).
    const solc = await engine.solcLoadInfo();
    expect(solc?.from).toMatch(/^(cache|decoded)$/);
    if (solc?.from === 'decoded') expect(solc.cached).toBe(true);
    await engine.close();
    expect(await engine.solcLoadInfo()).toBeUndefined();
  });

  it('says nothing of solc before its pool has started', async () => {
    engine = new ContractEngine();
    expect(await engine.solcLoadInfo()).toBeUndefined();
  });

  it('stops between pools when the engine closes meanwhile, never throws, and says it did not finish', async () => {
    engine = new ContractEngine();
    const warming = engine.warm();
    await engine.close();
    await expect(warming).resolves.toBeUndefined();
    engine = undefined;
  });
});

describe('svc mcp', () => {
  /** Starts `svc mcp` with these extra variables and resolves with its stderr once its engines are ready. */
  async function untilReady(dir: string, env: Record<string, string> = {}): Promise<string> {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: svcArgs('mcp', '--data-dir', path.join(dir, 'data')),
      env: cleanEnv({ SVC_WARM_ENGINES: '1', SVC_LOG_LEVEL: 'info', ...env }),
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
      // A warning would follow the line at once, before the answer to a request sent now.
      await client.ping();
      return stderr;
    } finally {
      await client.close();
    }
  }

  it('starts the engines after initialize, before any request asks for them', async () => {
    const dir = await tmpDir();
    try {
      const stderr = await untilReady(dir.dir);
      expect(stderr).toMatch(/"solc":"(cache|decoded)"[^\n]*"msg":"contract engines ready"/);
      expect(stderr).not.toMatch(/solc was loaded without its cache|could not be written to its cache directory/);
      expect(stderr).not.toMatch(/could not be started ahead of use/);
    } finally {
      await dir.cleanup();
    }
  });

  it("warns when solc's decoded WebAssembly cannot be cached, and still starts", async () => {
    const dir = await tmpDir();
    try {
      const blocked = path.join(dir.dir, 'a-file');
      await writeFile(blocked, 'not a directory');
      const stderr = await untilReady(dir.dir, { SVC_CACHE_DIR: path.join(blocked, 'cache') });
      expect(stderr).toMatch(/"solc":"decoded"[^\n]*"msg":"contract engines ready"/);
      expect(stderr).toMatch(/"level":40[^\n]*could not be written to its cache directory \(SVC_CACHE_DIR\)/);
    } finally {
      await dir.cleanup();
    }
  });
});

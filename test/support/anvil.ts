/**
 * A real EVM node for tests: anvil (npm @foundry-rs/anvil) started on 127.0.0.1 on a free port, with its
 * well-known development accounts, stopped by the test. Time moves only when a test moves it
 * (`increaseTime` + `mine`), so deadlines are reached without waiting.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import net from 'node:net';

const require = createRequire(import.meta.url);

/** anvil's default development keys (the first three accounts of its test mnemonic), each funded with 10,000 ETH. */
export const ANVIL_KEYS = [
  '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9e8f2f5b4a7fd',
] as const;

export const ANVIL_CHAIN_ID = 31337;

export interface Anvil {
  url: string;
  chainId: number;
  /** One JSON-RPC call; throws with the node's message on an error answer. */
  rpc<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  /** Moves the next block's time forward by `seconds` and mines it. */
  advance(seconds: number): Promise<void>;
  /** Mines `blocks` empty blocks. */
  mine(blocks?: number): Promise<void>;
  /** Stops the node (SIGKILL after 2 s). */
  stop(): Promise<void>;
}

function anvilBinary(): string {
  return require.resolve('@foundry-rs/anvil-linux-amd64/bin/anvil');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function call<T>(url: string, method: string, params: unknown[]): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await res.json()) as { result?: T; error?: { message: string } };
  if (body.error) throw new Error(`anvil ${method}: ${body.error.message}`);
  return body.result as T;
}

/** Starts anvil; `args` are extra command-line options (e.g. `['--block-time', '1']`). */
export async function startAnvil(args: string[] = []): Promise<Anvil> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(
    anvilBinary(),
    ['--host', '127.0.0.1', '--port', String(port), '--silent', ...args],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`anvil exited with ${child.exitCode}: ${stderr.slice(0, 500)}`);
    try {
      await call<string>(url, 'eth_chainId', []);
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`anvil did not answer on ${url} within 20 s: ${stderr.slice(0, 500)}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    url,
    chainId: ANVIL_CHAIN_ID,
    rpc: <T>(method: string, params: unknown[] = []) => call<T>(url, method, params),
    async advance(seconds: number) {
      await call(url, 'evm_increaseTime', [seconds]);
      await call(url, 'evm_mine', []);
    },
    async mine(blocks = 1) {
      await call(url, 'anvil_mine', [`0x${blocks.toString(16)}`]);
    },
    async stop() {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/**
 * A JSON-RPC stand-in for EVM chain 31337 with no code anywhere: examples of register_deployment answer (an unverified
 * deployment, "no code at this address") without a real node. Verification itself is tested against anvil.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export async function startEmptyEvmNode(): Promise<{ url: string; close(): Promise<void> }> {
  const node = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const { id, method } = JSON.parse(body) as { id: number; method: string };
      const result = method === 'eth_chainId' ? '0x7a69' : method === 'eth_getCode' ? '0x' : null;
      res.setHeader('content-type', 'application/json').end(JSON.stringify({ jsonrpc: '2.0', id, result }));
    });
  });
  await new Promise<void>((resolve) => node.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(node.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => node.close(() => resolve())),
  };
}

/** The chains setting pointing chain 31337 at `url`. */
export const chainsAt = (url: string) => ({
  evmRpcUrls: { '31337': url },
  tonApis: {},
  watchPollMs: 15_000,
  watchConfirmations: 2,
});

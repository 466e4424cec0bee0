import { chromium, type Browser, type BrowserContext, type Frame, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers.js';
import { type Anvil, startAnvil } from '../support/anvil.js';
import {
  CHROMIUM,
  CHROMIUM_FLAGS,
  embedToken,
  type Events,
  events,
  hostSite,
  partnerKey,
  requireChromium,
  tabTo,
  waitEvent,
  waitStep,
} from './support.js';

// Deploying from the host page's wallet, in Chromium: the partner page hands the SDK an EIP-1193 provider that
// forwards to anvil (whose dev accounts are unlocked, so anvil signs); the wizard never sees a key. A keyboard-only
// walk ends with the contract on anvil, registered and verified, and svc:wizard:complete carrying the deployment.

let anvil: Anvil;
let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let host: Awaited<ReturnType<typeof hostSite>>;
let key: string;

/** The partner's page: the SDK with `ethereum`, a provider whose calls go to anvil through the test (window.rpc). */
const page = (svcUrl: string) => () =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Partner</title></head>
<body><main><h1>Plan your estate</h1><div id="wizard"></div></main>
<script src="${svcUrl}/api/v1/embed/sdk.js"></script>
<script>
  window.events = [];
  window.asked = [];
  const q = new URLSearchParams(location.search);
  const ethereum = {
    async request({ method, params }) {
      window.asked.push(method);
      if (q.get('reject') === method) throw Object.assign(new Error('User rejected the request.'), { code: 4001 });
      return window.rpc(method === 'eth_requestAccounts' ? 'eth_accounts' : method, params || []);
    },
  };
  window.wizard = new SvcWizard({
    container: '#wizard',
    token: q.get('token'),
    ethereum,
    onReady: (p) => window.events.push(['ready', p]),
    onStep: (p) => window.events.push(['step', p]),
    onComplete: (p) => window.events.push(['complete', p]),
    onError: (p) => window.events.push(['error', p]),
  });
</script></body></html>`;

beforeAll(async () => {
  requireChromium();
  anvil = await startAnvil();
  server = await startTestServer({
    config: {
      chains: { evmRpcUrls: { '31337': anvil.url }, tonApis: {}, watchPollMs: 15_000, watchConfirmations: 2 },
    },
  });
  host = await hostSite(page(server.url));
  ({ key } = await partnerKey(server, [host.origin]));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
  context = await browser.newContext({ viewport: { width: 900, height: 900 } });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await server?.close();
  await anvil?.stop();
});

async function openHost(query = ''): Promise<{ page: Page; frame: Frame }> {
  const p = await context.newPage();
  // The host's provider reaches anvil through the test process: anvil signs with its unlocked dev account.
  await p.exposeFunction('rpc', (method: string, params: unknown[]) => anvil.rpc(method, params));
  const t = await embedToken(server, key, host.origin);
  await p.goto(`${host.origin}/?token=${encodeURIComponent(t)}${query}`);
  const frame = (await (await p.waitForSelector('#wizard iframe')).contentFrame())!;
  return { page: p, frame };
}

const OWNER = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
const PREFILL = {
  ownerAddress: OWNER,
  beneficiaries: [
    { name: 'Alice', address: '0x52908400098527886E0F7030069857D2E4169EE7', percentage: 60 },
    { name: 'Bob', address: '0x8617e340b3d01fa5f11f306f4090fd50e238070d', percentage: 40 },
  ],
};

/** Keyboard only, from the first step to the result of a generated EVM contract. */
async function walkToResult(p: Page, frame: Frame): Promise<void> {
  await waitEvent(p, 'ready');
  await waitStep(frame, 1, 60_000);
  await p.keyboard.press('Tab');
  await tabTo(p, frame, '#chain-evm');
  await p.keyboard.press('Space');
  await tabTo(p, frame, 'button.svc-primary');
  await p.keyboard.press('Enter');
  await waitStep(frame, 2, 60_000);
  await frame.waitForSelector('#template-common-law');
  await tabTo(p, frame, 'button.svc-primary');
  await p.keyboard.press('Enter');
  await waitStep(frame, 3, 60_000);
  await p.evaluate(
    (d) => (window as unknown as { wizard: { setData: (x: unknown) => void } }).wizard.setData(d),
    PREFILL,
  );
  await frame.waitForFunction(
    (o) => (document.getElementById('f-ownerAddress') as HTMLInputElement | null)?.value === o,
    OWNER,
  );
  for (const n of [4, 5, 6]) {
    await tabTo(p, frame, 'button.svc-primary');
    await p.keyboard.press('Enter');
    await waitStep(frame, n, 60_000);
    // The review's button waits for the review (and its measured gas).
    if (n === 5) await frame.waitForSelector('dl.svc-gas', { timeout: 60_000 });
  }
  await tabTo(p, frame, 'button.svc-primary');
  await p.keyboard.press('Enter');
  await waitEvent(p, 'complete', 1, 120_000);
  await waitStep(frame, 7, 60_000);
}

describe("deploying from the host page's wallet", () => {
  it('walks by keyboard to a contract deployed on anvil and verified, and says so in complete', async () => {
    const { page: p, frame } = await openHost();
    await walkToResult(p, frame);
    await tabTo(p, frame, '#svc-deploy');
    await p.keyboard.press('Enter');
    const complete = (await waitEvent(p, 'complete', 2, 120_000)) as {
      compiled: { bytecode: string };
      deployment: { address: string; transactionHash: string; verified: boolean };
    };
    expect(complete.deployment).toEqual({
      address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
      transactionHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      verified: true,
    });
    expect(complete.compiled.bytecode).toMatch(/^0x[0-9a-f]+$/);
    // The code is on the chain, at the address the receipt gave, from the transaction the wallet sent.
    const code = await anvil.rpc<string>('eth_getCode', [complete.deployment.address, 'latest']);
    expect(code.length).toBeGreaterThan(2);
    const receipt = await anvil.rpc<{ contractAddress: string; from: string }>('eth_getTransactionReceipt', [
      complete.deployment.transactionHash,
    ]);
    expect(receipt.contractAddress.toLowerCase()).toBe(complete.deployment.address.toLowerCase());
    expect(receipt.from.toLowerCase()).toBe(OWNER.toLowerCase());
    // svc stored it verified, for this account.
    const get = async (url: string) =>
      (
        await server.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { authorization: `Bearer ${key}` } })
      ).json();
    const contracts = (await get('/contracts?limit=100')).data as Array<{ id: string }>;
    const deployments = (
      await Promise.all(contracts.map(async (c) => (await get(`/contracts/${c.id}/deployments`)).data))
    ).flat() as Array<{ address: string; status: string; txHash: string }>;
    expect(deployments.map((d) => [d.address, d.status, d.txHash])).toEqual([
      [complete.deployment.address, 'verified', complete.deployment.transactionHash],
    ]);
    // Shown in words, and only the relayed methods were asked of the wallet.
    await frame.waitForSelector('#svc-deploy-status .svc-ok');
    expect(await frame.textContent('#svc-deploy-status')).toContain('Deployed and verified');
    expect(new Set(await p.evaluate(() => (window as unknown as { asked: string[] }).asked))).toEqual(
      new Set(['eth_requestAccounts', 'eth_chainId', 'eth_sendTransaction', 'eth_getTransactionReceipt']),
    );
    expect((await events(p)).filter((e: Events[number]) => e[0] === 'error')).toEqual([]);
    await p.close();
  }, 300_000);

  it('a transaction the user declines in the wallet is said in words, and nothing is deployed', async () => {
    const { page: p, frame } = await openHost('&reject=eth_sendTransaction');
    await walkToResult(p, frame);
    const before = await anvil.rpc<string>('eth_getTransactionCount', [OWNER, 'latest']);
    await tabTo(p, frame, '#svc-deploy');
    await p.keyboard.press('Enter');
    await frame.waitForFunction(() => /declined/.test(document.getElementById('svc-deploy-status')?.textContent ?? ''));
    expect(await anvil.rpc<string>('eth_getTransactionCount', [OWNER, 'latest'])).toBe(before);
    expect((await events(p)).filter((e: Events[number]) => e[0] === 'complete')).toHaveLength(1);
    await p.close();
  }, 300_000);
});

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Frame, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ar } from '../../src/embed/ui/i18n/ar.js';
import { en } from '../../src/embed/ui/i18n/en.js';
import { REPO_ROOT, startTestServer, type TestServer } from '../helpers.js';
import { type Anvil, startAnvil } from '../support/anvil.js';
import {
  axeViolations,
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
  waitStepEvent,
} from './support.js';

// Deploying from the host page's wallet, in Chromium: the partner page hands the SDK an EIP-1193 provider that
// forwards to anvil (whose dev accounts are unlocked, so anvil signs); the wizard never sees a key. A keyboard-only
// walk ends with the contract on anvil, registered and verified, and svc:wizard:complete carrying the deployment.
// The provider can also be on another chain (and decline a first switch), send other code than the wizard's, or
// send code that reverts: the wizard says each in words and never reports a deployment it could not verify.
// The deploy step and its outcomes are axe-checked and photographed into test-artifacts/.

const ARTIFACTS = path.join(REPO_ROOT, 'test-artifacts');

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
  window.switches = [];
  const q = new URLSearchParams(location.search);
  const declined = () => Object.assign(new Error('User rejected the request.'), { code: 4001 });
  // chain: the chain id the wallet says it is on until it switches (anvil's own when absent).
  let chain = q.get('chain');
  let declineSwitch = q.get('switch') === 'declineFirst';
  const ethereum = {
    async request({ method, params }) {
      window.asked.push(method);
      if (q.get('reject') === method) throw declined();
      if (method === 'eth_chainId' && chain) return chain;
      if (method === 'wallet_switchEthereumChain') {
        window.switches.push(params);
        if (declineSwitch) { declineSwitch = false; throw declined(); }
        chain = params[0].chainId === '0x7a69' ? null : params[0].chainId;
        return null;
      }
      // data: the wallet sends this creation code instead of the wizard's (with a fixed gas: it may revert).
      if (method === 'eth_sendTransaction' && q.get('data')) params = [{ ...params[0], data: q.get('data'), gas: '0x30000' }];
      return window.rpc(method === 'eth_requestAccounts' ? 'eth_accounts' : method, params || []);
    },
  };
  window.wizard = new SvcWizard({
    container: '#wizard',
    token: q.get('token'),
    locale: q.get('locale') || undefined,
    ethereum,
    onReady: (p) => window.events.push(['ready', p]),
    onStep: (p) => window.events.push(['step', p]),
    onComplete: (p) => window.events.push(['complete', p]),
    onError: (p) => window.events.push(['error', p]),
  });
</script></body></html>`;

beforeAll(async () => {
  requireChromium();
  mkdirSync(ARTIFACTS, { recursive: true });
  anvil = await startAnvil();
  server = await startTestServer({
    config: {
      chains: { evmRpcUrls: { '31337': anvil.url }, tonApis: {}, watchPollMs: 15_000, watchConfirmations: 2 },
    },
  });
  host = await hostSite(page(server.url));
  ({ key } = await partnerKey(server, [host.origin]));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
  context = await browser.newContext({ viewport: { width: 900, height: 900 }, locale: 'en-US' });
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
  await waitStepEvent(p, 1, 60_000);
  await p.keyboard.press('Tab');
  await tabTo(p, frame, '#chain-evm');
  await p.keyboard.press('Space');
  await tabTo(p, frame, 'button.svc-primary');
  await p.keyboard.press('Enter');
  await waitStepEvent(p, 2, 60_000);
  await frame.waitForSelector('#template-common-law');
  await tabTo(p, frame, 'button.svc-primary');
  await p.keyboard.press('Enter');
  await waitStepEvent(p, 3, 60_000);
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
    await waitStepEvent(p, n, 60_000);
    // The review's button waits for the review (and its measured gas).
    if (n === 5) await frame.waitForSelector('dl.svc-gas', { timeout: 60_000 });
  }
  await tabTo(p, frame, 'button.svc-primary');
  await p.keyboard.press('Enter');
  await waitEvent(p, 'complete', 1, 120_000);
  await waitStepEvent(p, 7, 60_000);
}

/** axe's serious and critical findings on the page as it is now, and a full-page screenshot of it. */
async function shoot(p: Page, frame: Frame, name: string): Promise<string[]> {
  const found = await axeViolations(frame);
  await p.screenshot({ path: path.join(ARTIFACTS, `wizard-wallet-${name}.png`), fullPage: true });
  return found;
}

/** Every deployment svc stored for the partner's contracts, as [address, status, txHash]. */
async function storedDeployments(): Promise<Array<[string, string, string]>> {
  const get = async (url: string) =>
    (
      await server.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { authorization: `Bearer ${key}` } })
    ).json();
  const contracts = (await get('/contracts?limit=100')).data as Array<{ id: string }>;
  const deployments = (
    await Promise.all(contracts.map(async (c) => (await get(`/contracts/${c.id}/deployments`)).data))
  ).flat() as Array<{ address: string; status: string; txHash: string }>;
  return deployments.map((d) => [d.address, d.status, d.txHash]);
}

const statusText = async (frame: Frame) => (await frame.textContent('#svc-deploy-status')) ?? '';
const completes = async (p: Page) => (await events(p)).filter((e: Events[number]) => e[0] === 'complete');

describe("deploying from the host page's wallet", () => {
  it('walks by keyboard to a contract deployed on anvil and verified, and says so in complete', async () => {
    const { page: p, frame } = await openHost();
    await walkToResult(p, frame);
    const before = await storedDeployments();
    const a11y: Record<string, string[]> = {};
    a11y.deploy = await shoot(p, frame, '7-deploy');
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
    expect(await storedDeployments()).toEqual([
      ...before,
      [complete.deployment.address, 'verified', complete.deployment.transactionHash],
    ]);
    // Shown in words, and only the relayed methods were asked of the wallet.
    await frame.waitForSelector('#svc-deploy-status .svc-ok');
    expect(await statusText(frame)).toContain(en.deployVerified(complete.deployment.address));
    a11y.deployed = await shoot(p, frame, '7-deployed');
    expect(a11y).toEqual({ deploy: [], deployed: [] });
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

  it('a wallet on another chain is told so in words and offered a switch; nothing is sent until it is on anvil', async () => {
    // The wallet says Ethereum mainnet; svc reads only anvil (31337). The first switch is declined in the wallet.
    const { page: p, frame } = await openHost('&chain=0x1&switch=declineFirst');
    await walkToResult(p, frame);
    const nonce = await anvil.rpc<string>('eth_getTransactionCount', [OWNER, 'latest']);
    const stored = await storedDeployments();
    await tabTo(p, frame, '#svc-deploy');
    await p.keyboard.press('Enter');
    await frame.waitForSelector('#svc-switch-31337');
    const onMainnet = en.deployWrongChain(en.networkName('1', 'Ethereum'), en.networkName('31337'));
    expect(await statusText(frame)).toBe(onMainnet);
    expect(await frame.textContent('#svc-switch-31337')).toBe(en.deploySwitchTo(en.networkName('31337')));
    const a11y: Record<string, string[]> = { wrongChain: await shoot(p, frame, '7-wrong-chain') };
    const asked = () => p.evaluate(() => (window as unknown as { asked: string[] }).asked);
    expect(await asked()).not.toContain('eth_sendTransaction');

    // Declined in the wallet: still on mainnet, still nothing sent, the offer stays.
    await tabTo(p, frame, '#svc-switch-31337');
    await p.keyboard.press('Enter');
    const stayed = en.deploySwitchRefused(en.networkName('1', 'Ethereum'), en.networkName('31337'));
    await frame.waitForFunction((t) => document.getElementById('svc-deploy-status')?.textContent === t, stayed);
    // Pressing deploy again is refused again, before the wallet is asked to send.
    await tabTo(p, frame, '#svc-deploy');
    await p.keyboard.press('Enter');
    await frame.waitForFunction((t) => document.getElementById('svc-deploy-status')?.textContent === t, onMainnet);
    expect(await asked()).not.toContain('eth_sendTransaction');
    expect(await anvil.rpc<string>('eth_getTransactionCount', [OWNER, 'latest'])).toBe(nonce);
    expect(await storedDeployments()).toEqual(stored);
    expect(await completes(p)).toHaveLength(1);

    // Accepted: the wallet is on anvil, then the deployment goes through and verifies.
    await tabTo(p, frame, '#svc-switch-31337');
    await p.keyboard.press('Enter');
    const switched = en.deploySwitched(en.networkName('31337'));
    await frame.waitForFunction((t) => document.getElementById('svc-deploy-status')?.textContent === t, switched);
    expect(await p.evaluate(() => (window as unknown as { switches: unknown[] }).switches)).toEqual([
      [{ chainId: '0x7a69' }],
      [{ chainId: '0x7a69' }],
    ]);
    expect(await frame.$('#svc-switch-31337')).toBeNull();
    a11y.switched = await shoot(p, frame, '7-switched');
    await tabTo(p, frame, '#svc-deploy');
    await p.keyboard.press('Enter');
    const complete = (await waitEvent(p, 'complete', 2, 120_000)) as {
      deployment: { address: string; verified: boolean };
    };
    expect(complete.deployment.verified).toBe(true);
    expect((await storedDeployments()).length).toBe(stored.length + 1);
    expect(a11y).toEqual({ wrongChain: [], switched: [] });
    await p.close();
  }, 300_000);

  it('a wallet that deploys other code: verification failed, said in words, and complete says verified: false', async () => {
    // Creation code whose runtime is the single byte 0xfe: a contract, but not the one generated.
    const { page: p, frame } = await openHost(`&data=${encodeURIComponent('0x60fe60005360016000f3')}`);
    await walkToResult(p, frame);
    const stored = await storedDeployments();
    await tabTo(p, frame, '#svc-deploy');
    await p.keyboard.press('Enter');
    const complete = (await waitEvent(p, 'complete', 2, 120_000)) as {
      deployment: { address: string; transactionHash: string; verified: boolean };
    };
    expect(complete.deployment.verified).toBe(false);
    // Other code really is there, at the address reported.
    expect(await anvil.rpc<string>('eth_getCode', [complete.deployment.address, 'latest'])).toBe('0xfe');
    await frame.waitForSelector('#svc-deploy-status .svc-sev-critical');
    expect(await statusText(frame)).toContain(en.deployUnverified(complete.deployment.address));
    expect(await statusText(frame)).not.toContain(en.deployVerified(complete.deployment.address));
    expect(await storedDeployments()).toEqual([
      ...stored,
      [complete.deployment.address, 'unverified', complete.deployment.transactionHash],
    ]);
    expect(await shoot(p, frame, '7-unverified')).toEqual([]);
    await p.close();
  }, 300_000);

  it('a creation that reverts (receipt status 0, no contract) is said in words: no deployment is reported or stored', async () => {
    // PUSH1 0 PUSH1 0 REVERT: the transaction is mined and fails.
    const { page: p, frame } = await openHost(`&data=${encodeURIComponent('0x60006000fd')}`);
    await walkToResult(p, frame);
    const stored = await storedDeployments();
    const nonce = Number(await anvil.rpc<string>('eth_getTransactionCount', [OWNER, 'latest']));
    await tabTo(p, frame, '#svc-deploy');
    await p.keyboard.press('Enter');
    await frame.waitForFunction(
      (t) => document.getElementById('svc-deploy-status')?.textContent === t,
      en.deployFailed.txFailed,
      { timeout: 60_000 },
    );
    // It was sent and mined (the nonce moved) and failed: nothing registered, no second complete.
    expect(Number(await anvil.rpc<string>('eth_getTransactionCount', [OWNER, 'latest']))).toBe(nonce + 1);
    expect(await storedDeployments()).toEqual(stored);
    expect(await completes(p)).toHaveLength(1);
    await p.close();
  }, 300_000);

  it('in Arabic, right to left, the deploy step reaches a verified contract in Arabic words only', async () => {
    const { page: p, frame } = await openHost('&locale=ar');
    await walkToResult(p, frame);
    expect(await frame.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([
      'ar',
      'rtl',
    ]);
    expect(await frame.textContent('#svc-deploy')).toBe(ar.deployButton);
    const a11y: Record<string, string[]> = { deploy: await shoot(p, frame, 'ar-7-deploy') };
    await tabTo(p, frame, '#svc-deploy');
    await p.keyboard.press('Enter');
    const complete = (await waitEvent(p, 'complete', 2, 120_000)) as {
      deployment: { address: string; verified: boolean };
    };
    expect(complete.deployment.verified).toBe(true);
    await frame.waitForSelector('#svc-deploy-status .svc-ok');
    expect(await statusText(frame)).toContain(ar.deployVerified(complete.deployment.address));
    a11y.deployed = await shoot(p, frame, 'ar-7-deployed');
    // No English on the deploy section: once the hex (address, hash) is taken out, no Latin letter is left.
    const words = (await frame.textContent('.svc-deploy')) ?? '';
    expect(words).toContain(ar.deployTitle);
    expect(words.replace(/0x[0-9a-fA-F]+/g, '')).not.toMatch(/[A-Za-z]/);
    expect(a11y).toEqual({ deploy: [], deployed: [] });
    await p.close();
  }, 300_000);
});

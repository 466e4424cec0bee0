import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Frame, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock, REPO_ROOT, startTestServer, type TestServer } from '../helpers.js';
import {
  axeViolations,
  CHROMIUM,
  CHROMIUM_FLAGS,
  embedToken,
  events,
  hostPage,
  hostSite,
  partnerKey,
  requireChromium,
  tabTo,
  waitEvent,
  waitStep,
} from './support.js';

// The wizard in a real browser: a partner page on a second loopback
// origin embeds it through the SDK; everything is done by keyboard.

const ARTIFACTS = path.join(REPO_ROOT, 'test-artifacts');

const clock = new FakeClock(Date.now());
let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let host: Awaited<ReturnType<typeof hostSite>>;
let stranger: Awaited<ReturnType<typeof hostSite>>;
let key: string;

beforeAll(async () => {
  requireChromium();
  server = await startTestServer({ clock });
  host = await hostSite(hostPage(server.url));
  stranger = await hostSite(hostPage(server.url));
  ({ key } = await partnerKey(server, [host.origin]));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
  context = await browser.newContext({ viewport: { width: 900, height: 900 } });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await stranger?.close();
  await server?.close();
});

async function openHost(opts: Record<string, unknown> = {}, token?: string): Promise<{ page: Page; frame: Frame }> {
  const page = await context.newPage();
  const t = token ?? (await embedToken(server, key, host.origin));
  await page.goto(`${host.origin}/?token=${encodeURIComponent(t)}&opts=${encodeURIComponent(JSON.stringify(opts))}`);
  const handle = await page.waitForSelector('#wizard iframe');
  const frame = (await handle.contentFrame())!;
  return { page, frame };
}

const OWNER = '0x27b1fdb04752bbc536007a920d24acb045561c26';
const PREFILL = {
  ownerAddress: OWNER,
  beneficiaries: [
    { name: 'Alice', address: '0x52908400098527886E0F7030069857D2E4169EE7', percentage: 60, relationship: 'daughter' },
    { name: 'Bob', address: '0x8617e340b3d01fa5f11f306f4090fd50e238070d', percentage: 40 },
  ],
};

describe('the wizard embedded through the SDK on another origin', () => {
  it('goes by keyboard through every step to a compiled EVM contract, with ready, step, resize and complete, no serious axe violation', async () => {
    const { page, frame } = await openHost();
    expect(await waitEvent(page, 'ready')).toEqual({ version: expect.any(String) });
    await waitStep(frame, 1);
    const a11y: Record<string, string[]> = {};
    a11y.chain = await axeViolations(frame);

    // Step 1: choose EVM with the keyboard.
    await page.keyboard.press('Tab');
    await tabTo(page, frame, '#chain-evm');
    await page.keyboard.press('Space');
    await tabTo(page, frame, 'button.svc-primary');
    await page.keyboard.press('Enter');
    await waitStep(frame, 2);
    a11y.template = await axeViolations(frame);

    // Step 2: the template list comes from the API; keep "custom", no jurisdiction.
    await frame.waitForSelector('#template-common-law');
    await tabTo(page, frame, 'button.svc-primary');
    await page.keyboard.press('Enter');
    await waitStep(frame, 3);

    // Step 3: setData prefills owner and beneficiaries.
    await page.evaluate(
      (d) => (window as unknown as { wizard: { setData: (x: unknown) => void } }).wizard.setData(d),
      PREFILL,
    );
    await frame.waitForFunction(
      (o) => (document.getElementById('f-ownerAddress') as HTMLInputElement | null)?.value === o,
      OWNER,
    );
    expect(await frame.inputValue('#f-beneficiaries-1-name')).toBe('Bob');
    expect(await frame.inputValue('#f-beneficiaries-0-percentage')).toBe('60');
    a11y.beneficiaries = await axeViolations(frame);
    // A share typed by keyboard is checked live by the API's rules: 60 + 50 is not 100.
    await tabTo(page, frame, '#f-beneficiaries-1-percentage');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('50');
    await frame.waitForSelector('#e-beneficiaries', { timeout: 15_000 });
    expect(await frame.textContent('#e-beneficiaries')).toMatch(/100/);
    a11y.beneficiariesWithError = await axeViolations(frame);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('40');
    await frame.waitForSelector('#e-beneficiaries', { state: 'detached', timeout: 15_000 });
    await tabTo(page, frame, 'button.svc-primary');
    await page.keyboard.press('Enter');
    await waitStep(frame, 4);
    a11y.switch = await axeViolations(frame);

    // Step 4: keep the default switch (365 days).
    await tabTo(page, frame, 'button.svc-primary');
    await page.keyboard.press('Enter');
    await waitStep(frame, 5);

    // Step 5: review, with measured gas.
    await frame.waitForSelector('dl.svc-gas', { timeout: 60_000 });
    expect(await frame.textContent('dl.svc-gas')).toMatch(/gas/i);
    a11y.review = await axeViolations(frame);
    await tabTo(page, frame, 'button.svc-primary');
    await page.keyboard.press('Enter');
    await waitStep(frame, 6);
    a11y.generate = await axeViolations(frame);

    // Step 6: generate.
    await tabTo(page, frame, 'button.svc-primary');
    expect(await frame.evaluate(() => document.activeElement?.textContent)).toBe('Generate contract');
    await page.keyboard.press('Enter');
    const complete = (await waitEvent(page, 'complete', 1, 120_000)) as {
      contractCode: string;
      compiled: { abi: unknown[]; bytecode: string };
      contractInfo: { blockchain: string };
    };
    expect(complete.contractCode).toMatch(/pragma solidity/);
    expect(complete.compiled.bytecode).toMatch(/^0x[0-9a-f]+$/);
    expect(complete.compiled.abi.length).toBeGreaterThan(0);
    expect(complete.contractInfo.blockchain).toBe('evm');

    // Step 7: the result, with the code, ABI and bytecode.
    await waitStep(frame, 7);
    expect(await frame.textContent('pre')).toContain('pragma solidity');
    expect(await frame.locator('a[download]').count()).toBe(3);
    a11y.result = await axeViolations(frame);

    const all = await events(page);
    const steps = all.filter((e) => e[0] === 'step').map((e) => e[1]);
    expect(steps.map((s) => s.step)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(steps.every((s) => s.total === 7)).toBe(true);
    const resizes = all.filter((e) => e[0] === 'resize').map((e) => e[1].height as number);
    expect(resizes.length).toBeGreaterThan(0);
    // The SDK sized the frame to the wizard's last reported height.
    const frameHeight = await page.evaluate(
      () => document.querySelector('#wizard iframe')!.getBoundingClientRect().height,
    );
    expect(Math.abs(frameHeight - resizes[resizes.length - 1]!)).toBeLessThanOrEqual(1);
    expect(all.filter((e) => e[0] === 'error')).toEqual([]);
    expect(a11y).toEqual(Object.fromEntries(Object.keys(a11y).map((k) => [k, []])));
    await page.close();
  }, 240_000);

  it("setTheme('dark') switches the theme (screenshot kept in test-artifacts/); the container's --svc-* variables reach the wizard", async () => {
    const { page, frame } = await openHost({ theme: 'light' });
    await waitEvent(page, 'ready');
    await frame.waitForFunction(
      () => getComputedStyle(document.documentElement).getPropertyValue('--svc-primary').trim() === '#6d28d9',
    );
    expect(await frame.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(255, 255, 255)');
    await page.evaluate(() =>
      (window as unknown as { wizard: { setTheme: (t: string) => void } }).wizard.setTheme('dark'),
    );
    await frame.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    expect(await frame.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(17, 24, 39)');
    expect(await axeViolations(frame)).toEqual([]);
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: path.join(ARTIFACTS, 'wizard-dark.png'), fullPage: true });
    await page.close();
  }, 60_000);

  it('ignores messages from a window that is not its parent, and messages with a bad payload', async () => {
    const { page, frame } = await openHost({ blockchain: 'evm', steps: 'beneficiaries' });
    await waitEvent(page, 'ready');
    await waitStep(frame, 1);
    // A sibling frame of the same allowed origin posts setData to the wizard.
    await page.evaluate(
      (origin) =>
        new Promise<void>((resolve) => {
          const sib = document.createElement('iframe');
          sib.title = 'sibling';
          sib.src = `${origin}/sibling`;
          window.addEventListener('message', (e) => e.data === 'sibling-sent' && resolve());
          sib.onload = () => sib.contentWindow!.postMessage('go', '*');
          document.body.appendChild(sib);
        }),
      host.origin,
    );
    // The parent posts payloads that do not validate, straight to the frame.
    await page.evaluate((svc) => {
      const w = document.querySelector<HTMLIFrameElement>('#wizard iframe')!.contentWindow!;
      w.postMessage({ type: 'svc:wizard:setData', payload: { ownerAddress: 42 } }, svc);
      w.postMessage(
        {
          type: 'svc:wizard:setData',
          payload: { ownerAddress: '0xBAD', beneficiaries: [{ name: 'x', address: 'y', percentage: 500 }] },
        },
        svc,
      );
      w.postMessage({ type: 'svc:wizard:setData', payload: { ownerAddress: '0xBAD', extra: true } }, svc);
      w.postMessage(
        {
          type: 'svc:wizard:setTheme',
          payload: { theme: 'dark', variables: { primary: 'url(https://evil.example/x)' } },
        },
        svc,
      );
      w.postMessage('svc:wizard:reset', svc);
      // Then a valid one: once it shows, every message before it was handled.
      w.postMessage(
        {
          type: 'svc:wizard:setData',
          payload: {
            beneficiaries: [{ name: 'Carol', address: '0x8617e340b3d01fa5f11f306f4090fd50e238070d', percentage: 100 }],
          },
        },
        svc,
      );
    }, server.url);
    await frame.waitForFunction(
      () => (document.getElementById('f-beneficiaries-0-name') as HTMLInputElement | null)?.value === 'Carol',
    );
    expect(await frame.inputValue('#f-ownerAddress')).toBe('');
    expect(await frame.evaluate(() => document.documentElement.dataset.theme)).toBe('auto');
    await page.close();
  }, 60_000);

  it('a page on an origin that is not allowed cannot frame it', async () => {
    const token = await embedToken(server, key, host.origin);
    // Through the SDK: the server refuses the origin and forbids framing.
    const sdkPage = await context.newPage();
    await sdkPage.goto(`${stranger.origin}/?token=${encodeURIComponent(token)}`);
    // A bare iframe without the SDK's origin parameter: the browser enforces frame-ancestors.
    const plain = await context.newPage();
    await plain.goto(`${stranger.origin}/plain?token=${encodeURIComponent(token)}`);
    for (const page of [sdkPage, plain]) {
      const handle = await page.waitForSelector('iframe');
      const frame = (await handle.contentFrame())!;
      await frame.waitForLoadState('load');
      expect(frame.url()).toMatch(/^chrome-error:/);
      await page.close();
    }
    // The same token on its own origin works.
    const { page } = await openHost({}, token);
    await waitEvent(page, 'ready');
    await page.close();
  }, 60_000);

  it('a garbage or tampered token shows the error page and tells the parent (svc:wizard:error with its code)', async () => {
    const good = await embedToken(server, key, host.origin);
    for (const token of ['garbage', `${good.slice(0, -4)}AAAA`]) {
      const { page, frame } = await openHost({}, token);
      expect(await waitEvent(page, 'error'), token).toEqual({
        code: 'API_KEY_INVALID',
        message: 'The embed token is invalid.',
      });
      expect(await frame.textContent('main'), token).toMatch(/API_KEY_INVALID.*invalid/);
      // The error page only: no wizard, no ready event.
      expect(
        (await events(page)).some((e) => e[0] === 'ready'),
        token,
      ).toBe(false);
      await page.close();
    }
  }, 60_000);

  it('a token whose origin left the key is dead for good: the page tells the parent, also after the origin is back', async () => {
    const { key: own, id } = await partnerKey(server, [host.origin]);
    const token = await embedToken(server, own, host.origin);
    const patch = (allowedOrigins: string[]) =>
      server.app.inject({
        method: 'PATCH',
        url: `/api/v1/api-keys/${id}`,
        headers: { authorization: `Bearer ${own}` },
        payload: { allowedOrigins },
      });
    expect((await patch([stranger.origin])).statusCode).toBe(200);
    expect((await patch([host.origin])).statusCode).toBe(200);
    const { page, frame } = await openHost({}, token);
    expect(await waitEvent(page, 'error')).toEqual({
      code: 'API_KEY_INVALID',
      message: expect.stringMatching(/revoked.*origin was removed/),
    });
    expect(await frame.textContent('main')).toMatch(/revoked/);
    await page.close();
  }, 60_000);

  it('an expired embed token gets an error event, while in use and when the page is loaded with it', async () => {
    const token = await embedToken(server, key, host.origin, 60);
    const { page, frame } = await openHost({ blockchain: 'evm', steps: 'beneficiaries' }, token);
    await waitEvent(page, 'ready');
    await waitStep(frame, 1);
    clock.advance(61_000);
    // Typing makes the wizard check the plan with the API, which refuses the token now.
    await page.evaluate(
      (d) => (window as unknown as { wizard: { setData: (x: unknown) => void } }).wizard.setData(d),
      PREFILL,
    );
    const error = await waitEvent(page, 'error');
    expect(error).toEqual({ code: 'API_KEY_INVALID', message: expect.stringMatching(/expired/) });
    await page.close();

    const again = await openHost({}, token);
    expect(await waitEvent(again.page, 'error')).toEqual({
      code: 'API_KEY_INVALID',
      message: expect.stringMatching(/expired/),
    });
    expect(await again.frame.textContent('main')).toMatch(/expired/);
    await again.page.close();
  }, 60_000);
});

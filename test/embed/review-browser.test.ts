import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, startTestServer, type TestServer } from '../helpers.js';
import {
  axeViolations,
  CHROMIUM,
  CHROMIUM_FLAGS,
  embedToken,
  hostPage,
  hostSite,
  partnerKey,
  requireChromium,
  waitEvent,
} from './support.js';

// The review and result steps in Chromium, in French: the review's costs are estimate_gas's figures for this very
// plan (not the default contract's), its code preview is the plan's source, collapsed until opened; relationships
// are offered in French; and the result states generation's warnings and advice in French.

const ARTIFACTS = path.join(REPO_ROOT, 'test-artifacts');
const OWNER = '0x27b1fdb04752bbc536007a920d24acb045561c26';
const GUARDIANS = ['0xde709f2102306220921060314715629080e2fb77', '0x27b1fdb04752bbc536007a920d24acb045561c27'];
const PREFILL = {
  ownerAddress: OWNER,
  beneficiaries: [
    { name: 'Alice', address: '0x52908400098527886E0F7030069857D2E4169EE7', percentage: 60, relationship: 'daughter' },
    { name: 'Bob', address: '0x8617e340b3d01fa5f11f306f4090fd50e238070d', percentage: 40 },
  ],
};

let server: TestServer;
let browser: Browser;
let host: Awaited<ReturnType<typeof hostSite>>;
let key: string;

beforeAll(async () => {
  requireChromium();
  mkdirSync(ARTIFACTS, { recursive: true });
  server = await startTestServer();
  host = await hostSite(hostPage(server.url));
  ({ key } = await partnerKey(server, [host.origin]));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await server?.close();
});

async function openHost(opts: Record<string, unknown>): Promise<{ page: Page; frame: Frame }> {
  const page = await browser.newPage({ viewport: { width: 900, height: 900 } });
  const t = await embedToken(server, key, host.origin);
  await page.goto(`${host.origin}/?token=${encodeURIComponent(t)}&opts=${encodeURIComponent(JSON.stringify(opts))}`);
  const handle = await page.waitForSelector('#wizard iframe');
  return { page, frame: (await handle.contentFrame())! };
}

const next = (frame: Frame) => frame.click('.svc-nav button.svc-primary');

describe('review and result', () => {
  it("shows this plan's measured costs and code, relationships and advice in the reader's language", async () => {
    const { page, frame } = await openHost({
      locale: 'fr',
      blockchain: 'evm',
      steps: 'template,beneficiaries,switch,review,generate,result',
    });
    await waitEvent(page, 'ready');
    await frame.waitForSelector('#template-custom');
    await next(frame);
    await waitEvent(page, 'step', 2);
    await page.evaluate(
      (d) => (window as unknown as { wizard: { setData: (x: unknown) => void } }).wizard.setData(d),
      PREFILL,
    );
    await frame.waitForFunction(
      () =>
        (document.getElementById('f-beneficiaries-0-relationship') as HTMLSelectElement | null)?.value === 'daughter',
    );
    // The relationship is chosen in French; the plan carries the word the API reads.
    const options = await frame.$$eval('#f-beneficiaries-1-relationship option', (os) =>
      os.map((o) => [(o as HTMLOptionElement).value, o.textContent]),
    );
    expect(options).toContainEqual(['son', 'fils']);
    expect(options).toContainEqual(['wife', 'épouse']);
    await frame.selectOption('#f-beneficiaries-1-relationship', 'son');
    await frame.waitForFunction(() => document.querySelector('.svc-plan')?.textContent?.includes('Bob (fils)'));
    expect(await frame.textContent('.svc-plan')).toContain('Alice (fille) reçoit 60\u00a0% du patrimoine.');
    await next(frame);
    await waitEvent(page, 'step', 3);
    await frame.fill('#f-deadMansSwitch-intervalDays', '180');
    await frame.fill('#f-deadMansSwitch-gracePeriodDays', '30');
    await frame.fill('#f-guardians-addresses', GUARDIANS.join('\n'));
    await frame.fill('#f-guardians-threshold', '1');
    await next(frame);
    await waitEvent(page, 'step', 4);
    await frame.waitForSelector('dl.svc-gas', { timeout: 120_000 });

    // The figures are estimate_gas's for the same plan.
    const plan = {
      blockchain: 'evm',
      ownerAddress: OWNER,
      beneficiaries: [{ ...PREFILL.beneficiaries[0]! }, { ...PREFILL.beneficiaries[1]!, relationship: 'son' }],
      inheritanceTemplate: 'custom',
      deadMansSwitch: { enabled: true, intervalDays: 180, gracePeriodDays: 30 },
      guardians: { addresses: GUARDIANS, threshold: 1 },
    };
    const direct = await server.app.inject({
      method: 'POST',
      url: '/api/v1/contracts/estimate-gas',
      headers: { authorization: `Bearer ${key}` },
      payload: { blockchain: 'evm', plan },
    });
    expect(direct.statusCode, direct.body).toBe(200);
    const shown = await frame.$$eval('dl.svc-gas dd', (dds) => dds.map((d) => d.textContent));
    const { estimate, contractCode, figures, gasPriceGwei } = direct.json();
    // Written by Intl in French (narrow no-break space between thousands), not the service's English "1,726,812".
    const fr = new Intl.NumberFormat('fr', { maximumFractionDigits: 2 });
    const eth = (g: number) =>
      new Intl.NumberFormat('fr', { maximumSignificantDigits: 4 }).format((g * gasPriceGwei) / 1e9);
    expect(shown).toEqual(
      ['deployment', 'claim', 'update'].map(
        (k) => `${fr.format(figures[k])} gaz ≈ ${eth(figures[k])} ETH à ${fr.format(gasPriceGwei)} gwei`,
      ),
    );
    expect(shown[0]).not.toBe(estimate.deployment);
    expect(shown[0]).toMatch(/^\d{1,3}(\u202f\d{3})+ gaz/);
    const plain = await server.app.inject({
      method: 'POST',
      url: '/api/v1/contracts/estimate-gas',
      headers: { authorization: `Bearer ${key}` },
      payload: { blockchain: 'evm' },
    });
    expect(figures.deployment).not.toBe(plain.json().figures.deployment);

    // The code preview: the plan's source, collapsed until opened, then focusable for scrolling.
    expect(await frame.getAttribute('#svc-code-preview', 'open')).toBeNull();
    expect(await frame.isVisible('#svc-code-preview pre')).toBe(false);
    await frame.focus('#svc-code-preview summary');
    await page.keyboard.press('Enter');
    await frame.waitForSelector('#svc-code-preview pre', { state: 'visible' });
    expect(await frame.textContent('#svc-code-preview pre')).toBe(contractCode);
    expect(await frame.$$eval('#svc-code-preview .svc-k', (k) => k.length)).toBeGreaterThan(50);
    expect(await frame.textContent('#svc-code-preview summary')).toContain('Solidity');
    expect(await axeViolations(frame)).toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS, 'wizard-fr-review-code.png'), fullPage: true });

    await next(frame);
    await waitEvent(page, 'step', 5);
    await frame.click('.svc-step button.svc-primary');
    await waitEvent(page, 'complete', 1, 180_000);
    await waitEvent(page, 'step', 6);
    await frame.waitForSelector('.svc-analysis');
    const analysis = (await frame.textContent('.svc-analysis'))!;
    expect(analysis).toContain('N’importe lequel de vos 2 gardiens peut lancer une libération anticipée');
    expect(analysis).toContain('Manifestez-vous au moins une fois tous les 180 jours.');
    expect(analysis).toContain('Dites à vos gardiens');
    // What has no words yet is offered as technical notes, marked English.
    expect(await frame.getAttribute('.svc-technical ul', 'lang')).toBe('en');
    expect(await axeViolations(frame)).toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS, 'wizard-fr-result-analysis.png'), fullPage: true });
    await page.close();
  }, 400_000);

  it("says the law's findings in the reader's language, each once", async () => {
    const { page, frame } = await openHost({
      locale: 'fr',
      blockchain: 'evm',
      steps: 'template,beneficiaries,switch,review',
    });
    await waitEvent(page, 'ready');
    await frame.waitForSelector('#f-jurisdiction option[value="fr"]', { state: 'attached' });
    await frame.selectOption('#f-jurisdiction', 'fr');
    await next(frame);
    await waitEvent(page, 'step', 2);
    await page.evaluate(
      (d) => (window as unknown as { wizard: { setData: (x: unknown) => void } }).wizard.setData(d),
      PREFILL,
    );
    await frame.waitForFunction(
      () =>
        (document.getElementById('f-beneficiaries-0-relationship') as HTMLSelectElement | null)?.value === 'daughter',
    );
    await next(frame);
    await waitEvent(page, 'step', 3);
    await frame.fill('#f-guardians-addresses', GUARDIANS.join('\n'));
    await frame.fill('#f-guardians-threshold', '1');
    await next(frame);
    await waitEvent(page, 'step', 4);
    await frame.waitForSelector('.svc-findings', { timeout: 120_000 });
    const items = await frame.$$eval('.svc-findings li', (lis) => lis.map((li) => li.textContent ?? ''));
    // France's community of property (no spouse is named) and Bob's missing relationship, from their params.
    const community = items.filter((t) => t.includes('le régime légal en vigueur (France) est la communauté de biens'));
    expect(community).toHaveLength(1);
    expect(community[0]).toMatch(/^Remarque: Si vous êtes marié, /);
    expect(items).toContainEqual(expect.stringContaining('Bénéficiaires sans lien de parenté indiqué\u00a0: 1.'));
    // Neither is left in the service's English.
    expect(items.join('\n')).not.toMatch(/If you are married|beneficiary has no relationship/);
    expect(await axeViolations(frame)).toEqual([]);
    await page.screenshot({ path: path.join(ARTIFACTS, 'wizard-fr-review-law.png'), fullPage: true });
    await page.close();
  }, 300_000);
});

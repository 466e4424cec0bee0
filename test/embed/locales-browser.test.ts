import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Frame, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { humanMessage, type Locale } from '../../src/core/messages/index.js';
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

// The wizard in each of its languages, in Chromium, embedded through the SDK with its `locale` option: every step
// axe-clean, a screenshot of each in test-artifacts/, the document's lang and dir (Arabic right to left, with the
// buttons in mirrored order), and the validation messages in the same language.

const ARTIFACTS = path.join(REPO_ROOT, 'test-artifacts');

let server: TestServer;
let browser: Browser;
let context: BrowserContext;
let host: Awaited<ReturnType<typeof hostSite>>;
let key: string;

beforeAll(async () => {
  requireChromium();
  mkdirSync(ARTIFACTS, { recursive: true });
  server = await startTestServer();
  host = await hostSite(hostPage(server.url));
  ({ key } = await partnerKey(server, [host.origin]));
  // The first measurement in a fresh process starts solc and the EVM workers: done here, so that no step of a
  // locale waits on it (on a busy machine it can outlast a worker's time limit).
  for (let i = 0; i < 3; i++) {
    const warm = await server.app.inject({
      method: 'POST',
      url: '/api/v1/contracts/estimate-gas',
      headers: { authorization: `Bearer ${key}` },
      payload: { blockchain: 'evm' },
    });
    if (warm.statusCode === 200) break;
  }
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
  context = await browser.newContext({ viewport: { width: 900, height: 900 }, locale: 'en-US' });
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await host?.close();
  await server?.close();
});

async function openHost(opts: Record<string, unknown>): Promise<{ page: Page; frame: Frame }> {
  const page = await context.newPage();
  const t = await embedToken(server, key, host.origin);
  await page.goto(`${host.origin}/?token=${encodeURIComponent(t)}&opts=${encodeURIComponent(JSON.stringify(opts))}`);
  const handle = await page.waitForSelector('#wizard iframe');
  return { page, frame: (await handle.contentFrame())! };
}

const OWNER = '0x27b1fdb04752bbc536007a920d24acb045561c26';
const PREFILL = {
  ownerAddress: OWNER,
  beneficiaries: [
    { name: 'Alice', address: '0x52908400098527886E0F7030069857D2E4169EE7', percentage: 60 },
    { name: 'Bob', address: '0x8617e340b3d01fa5f11f306f4090fd50e238070d', percentage: 40 },
  ],
};

const CASES: Array<{ locale: Locale; dir: 'ltr' | 'rtl'; next: string }> = [
  { locale: 'en', dir: 'ltr', next: 'Next' },
  { locale: 'ar', dir: 'rtl', next: 'التالي' },
  { locale: 'es', dir: 'ltr', next: 'Siguiente' },
  { locale: 'fr', dir: 'ltr', next: 'Suivant' },
];

/** Whether Back sits after Next in reading order: left of it in a right-to-left layout, right of it otherwise. */
async function mirrored(frame: Frame): Promise<boolean> {
  const back = (await frame.locator('button.svc-secondary', { hasText: /./ }).last().boundingBox())!;
  const next = (await frame.locator('.svc-nav button.svc-primary').boundingBox())!;
  return next.x < back.x;
}

describe('the wizard in each language', () => {
  it('the page shell carries lang and dir for the locale asked for; an unknown language falls back to English', async () => {
    const token = await embedToken(server, key, host.origin);
    const shell = async (locale: string) =>
      (
        await server.app.inject({
          method: 'GET',
          url: `/api/v1/embed/wizard?token=${encodeURIComponent(token)}&locale=${locale}`,
        })
      ).body.slice(0, 60);
    expect(await shell('ar')).toContain('<html lang="ar" dir="rtl">');
    expect(await shell('fr-CA')).toContain('<html lang="fr" dir="ltr">');
    expect(await shell('de-DE')).toContain('<html lang="en" dir="ltr">');
  });

  it("the country preselects its template and school; the fara'id calculator fills the shares", async () => {
    const { page, frame } = await openHost({ locale: 'fr', blockchain: 'evm', steps: 'template,beneficiaries' });
    await waitEvent(page, 'ready');
    await frame.waitForSelector('#template-custom');
    // Regions sit under their country, whose name is in French.
    expect(await frame.getAttribute('#f-jurisdiction optgroup:has(option[value="ca-qc"])', 'label')).toBe('Canada');
    expect(await frame.textContent('#f-jurisdiction option[value="eg"]')).toBe('Égypte');
    await frame.selectOption('#f-jurisdiction', 'eg');
    await frame.waitForFunction(() => (document.getElementById('template-islamic-mirth') as HTMLInputElement)?.checked);
    expect(await frame.isChecked('#madhhab-hanafi')).toBe(true);
    await frame.selectOption('#f-jurisdiction', 'fr');
    await frame.waitForFunction(() => (document.getElementById('template-civil-law') as HTMLInputElement)?.checked);
    await frame.selectOption('#f-jurisdiction', 'eg');
    await frame.waitForFunction(() => (document.getElementById('template-islamic-mirth') as HTMLInputElement)?.checked);
    await frame.click('.svc-nav button.svc-primary');
    await waitEvent(page, 'step', 2);
    await page.evaluate((d) => (window as unknown as { wizard: { setData: (x: unknown) => void } }).wizard.setData(d), {
      ownerAddress: OWNER,
      beneficiaries: [
        { ...PREFILL.beneficiaries[0]!, percentage: 50, relationship: 'son' },
        { ...PREFILL.beneficiaries[1]!, percentage: 50, relationship: 'daughter' },
      ],
    });
    await frame.waitForFunction(
      () =>
        (document.getElementById('f-beneficiaries-1-relationship') as HTMLInputElement | null)?.value === 'daughter',
    );
    await frame.click('#svc-faraid');
    await frame.waitForFunction(
      () => (document.getElementById('f-beneficiaries-0-percentage') as HTMLInputElement).value !== '50',
    );
    // A son takes twice a daughter's share.
    expect(await frame.inputValue('#f-beneficiaries-0-percentage')).toBe('66.67');
    expect(await frame.inputValue('#f-beneficiaries-1-percentage')).toBe('33.33');
    // The plan in words follows the form: the shares, the law and the country, the switch, the guardians.
    const plan = (await frame.textContent('.svc-plan'))!;
    // (with each relationship in French)
    expect(plan).toContain('Alice (fils) reçoit 66,67\u00a0% du patrimoine.');
    expect(plan).toContain('Bob (fille) reçoit 33,33\u00a0% du patrimoine.');
    expect(plan).toContain('Égypte');
    expect(plan).toContain('365 jours');
    expect(await axeViolations(frame)).toEqual([]);
    await page.close();
  }, 120_000);

  for (const { locale, dir, next } of CASES) {
    it(`${locale}: every step axe-clean and photographed, ${dir}, errors in ${locale}`, async () => {
      const { page, frame } = await openHost({ locale });
      await waitEvent(page, 'ready');
      const a11y: Record<string, string[]> = {};
      const shoot = async (name: string) => {
        a11y[name] = await axeViolations(frame);
        await page.screenshot({ path: path.join(ARTIFACTS, `wizard-${locale}-${name}.png`), fullPage: true });
      };
      expect(await frame.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([
        locale,
        dir,
      ]);
      expect(await frame.textContent('.svc-nav button.svc-primary')).toBe(next);
      await shoot('1-chain');
      await frame.click('#chain-evm');
      await frame.click('.svc-nav button.svc-primary');
      await waitEvent(page, 'step', 2);
      await frame.waitForSelector('#template-custom');
      await shoot('2-template');
      expect(await mirrored(frame)).toBe(dir === 'rtl');
      await frame.click('.svc-nav button.svc-primary');
      await waitEvent(page, 'step', 3);

      // Every field's problem at once, in the locale, beside its field and in the summary.
      await page.evaluate(
        (d) => (window as unknown as { wizard: { setData: (x: unknown) => void } }).wizard.setData(d),
        { ...PREFILL, beneficiaries: [{ ...PREFILL.beneficiaries[0]!, name: '' }, PREFILL.beneficiaries[1]] },
      );
      await frame.waitForFunction(
        (o) => (document.getElementById('f-ownerAddress') as HTMLInputElement | null)?.value === o,
        OWNER,
      );
      await frame.fill('#f-beneficiaries-0-percentage', 'abc');
      await frame.click('.svc-nav button.svc-primary');
      await frame.waitForSelector('#svc-error-summary');
      const summary = (await frame.textContent('#svc-error-summary'))!;
      expect(summary).toContain(humanMessage({ code: 'percentage_format' }, locale));
      expect(summary).toContain(humanMessage({ code: 'name_required' }, locale));
      expect(await frame.getAttribute('#f-beneficiaries-0-percentage', 'aria-describedby')).toContain(
        'e-beneficiaries-0-percentage',
      );
      expect(await frame.textContent('#e-beneficiaries-0-name')).toBe(humanMessage({ code: 'name_required' }, locale));
      await shoot('3-beneficiaries-errors');
      // A decimal comma is understood: 59,5 + 40,5 is 100.
      await frame.fill('#f-beneficiaries-0-name', 'Alice');
      await frame.fill('#f-beneficiaries-0-percentage', '59,5');
      await frame.fill('#f-beneficiaries-1-percentage', '40,5');
      await frame.waitForSelector('#svc-error-summary', { state: 'detached' });
      await shoot('3-beneficiaries');
      await frame.click('.svc-nav button.svc-primary');
      await waitEvent(page, 'step', 4);
      await shoot('4-switch');
      await frame.click('.svc-nav button.svc-primary');
      await waitEvent(page, 'step', 5);
      await frame.waitForSelector('dl.svc-gas', { timeout: 120_000 });
      await shoot('5-review');
      await frame.click('.svc-nav button.svc-primary');
      await waitEvent(page, 'step', 6);
      await shoot('6-generate');
      await frame.click('.svc-step button.svc-primary');
      await waitEvent(page, 'complete', 1, 180_000);
      await waitEvent(page, 'step', 7);
      await shoot('7-result');
      expect(a11y).toEqual(Object.fromEntries(Object.keys(a11y).map((k) => [k, []])));
      await page.close();
    }, 400_000);
  }
});

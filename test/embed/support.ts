import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { REPO_ROOT, type TestServer } from '../helpers.js';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Fails (never skips) when Debian's chromium is missing. */
export function requireChromium(): void {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `The browser tests need Debian's chromium at ${CHROMIUM}: run \`apt-get update && apt-get install -y chromium\` (never \`npx playwright install\`).`,
    );
  }
}

/** A partner key (scope embed and contracts) whose allowed origins are given; returns its value and id. */
export async function partnerKey(
  server: TestServer,
  allowedOrigins: string[],
  scopes: Array<'embed' | 'contracts'> = ['embed', 'contracts'],
): Promise<{ key: string; id: string }> {
  const key = await server.key({ tier: 'partner', scopes, allowedOrigins });
  const res = await server.app.inject({
    method: 'GET',
    url: '/api/v1/api-keys?limit=100',
    headers: { authorization: `Bearer ${key}` },
  });
  const id = (res.json().data as Array<{ id: string; displayPrefix: string }>).find((r) =>
    key.startsWith(r.displayPrefix),
  )!.id;
  return { key, id };
}

export async function embedToken(server: TestServer, key: string, origin: string, ttlSeconds = 900): Promise<string> {
  const res = await server.app.inject({
    method: 'POST',
    url: '/api/v1/embed/sessions',
    headers: { authorization: `Bearer ${key}` },
    payload: { origin, ttlSeconds },
  });
  if (res.statusCode !== 201) throw new Error(`create_embed_session failed: ${res.body}`);
  return res.json().data.token;
}

/** A partner's site on its own loopback origin: every path answers `html(url)`. */
export async function hostSite(html: (url: URL) => string): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html(url));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * The partner's page: loads the SDK from svc and embeds the wizard with the
 * token (or options) from its own query string, recording every event in
 * window.events (resize messages are read off the wire).
 */
export function hostPage(svcUrl: string): (url: URL) => string {
  return (url) => {
    if (url.pathname === '/sibling') {
      // A second frame of the same (allowed) origin that is not the wizard's parent.
      return `<!doctype html><html lang="en"><head><title>sibling</title></head><body><script>
        window.addEventListener('message', (e) => { if (e.data === 'go') parent.frames[0].postMessage({ type: 'svc:wizard:setData', payload: { ownerAddress: '0xEVIL' } }, '*'); parent.postMessage('sibling-sent', '*'); });
      </script></body></html>`;
    }
    if (url.pathname === '/plain') {
      // A bare iframe, no SDK: what a page on a non-allowed origin would try.
      return `<!doctype html><html lang="en"><head><title>plain</title></head><body><iframe title="wizard" src="${svcUrl}/api/v1/embed/wizard?token=${encodeURIComponent(url.searchParams.get('token') ?? '')}"></iframe></body></html>`;
    }
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Partner site</title></head>
<body><main><h1>Plan your estate</h1><div id="wizard" style="--svc-primary:#6d28d9;--svc-border-radius:10px"></div></main>
<script src="${svcUrl}/api/v1/embed/sdk.js"></script>
<script>
  window.events = [];
  const q = new URLSearchParams(location.search);
  window.addEventListener('message', (e) => {
    if (e.data && e.data.type === 'svc:wizard:resize') window.events.push(['resize', e.data.payload]);
  });
  window.wizard = new SvcWizard(Object.assign({
    container: '#wizard',
    token: q.get('token'),
    onReady: (p) => window.events.push(['ready', p]),
    onStep: (p) => window.events.push(['step', p]),
    onComplete: (p) => window.events.push(['complete', p]),
    onError: (p) => window.events.push(['error', p]),
  }, JSON.parse(q.get('opts') || '{}')));
</script></body></html>`;
  };
}

export type Events = Array<[string, Record<string, unknown>]>;
export const events = (page: Page): Promise<Events> =>
  page.evaluate(() => (window as unknown as { events: Events }).events);

export async function waitEvent(
  page: Page,
  name: string,
  count = 1,
  timeout = 60_000,
): Promise<Record<string, unknown>> {
  await page.waitForFunction(
    ([n, c]) => (window as unknown as { events: Events }).events.filter((e) => e[0] === n).length >= (c as number),
    [name, count] as const,
    { timeout },
  );
  return (await events(page)).filter((e) => e[0] === name)[count - 1]![1];
}

const AXE = readFileSync(path.join(REPO_ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

/** axe-core in the wizard's frame: serious and critical violations only. */
export async function axeViolations(frame: Frame): Promise<string[]> {
  if (!(await frame.evaluate(() => 'axe' in window))) await frame.evaluate(AXE);
  const result = await frame.evaluate(async () => {
    const r = await (
      window as unknown as {
        axe: {
          run: (
            ctx: Document,
            o: object,
          ) => Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }>;
        };
      }
    ).axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      targets: v.nodes.map((n) => n.target.join(' ')).join(', '),
    }));
  });
  return result
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.targets}`);
}

/** Presses Tab (keyboard only) until the focused element in the frame matches `selector`. */
export async function tabTo(page: Page, frame: Frame, selector: string): Promise<void> {
  for (let i = 0; i < 60; i++) {
    if (await frame.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${selector}`);
}

/** Waits until the wizard shows step `n` (its heading reads "Step n ..."). */
export async function waitStep(frame: Frame, n: number, timeout = 30_000): Promise<void> {
  await frame.waitForFunction((k) => document.querySelector('h2')?.textContent?.startsWith(`Step ${k} `), n, {
    timeout,
  });
}

/**
 * Waits until the wizard has said (svc:wizard:step, recorded by the host page) that it shows step `n`: the same in
 * every language, where waitStep reads the English heading.
 */
export async function waitStepEvent(page: Page, n: number, timeout = 30_000): Promise<void> {
  await page.waitForFunction(
    (k) => {
      const steps = (window as unknown as { events: Events }).events.filter((e) => e[0] === 'step');
      return steps.length > 0 && steps[steps.length - 1]![1].step === k;
    },
    n,
    { timeout },
  );
}

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY } from '@modelcontextprotocol/ext-apps/app-bridge';
import { MCP_APP_MIME_TYPE, WIZARD_APP_URI } from '../../src/resources/apps.js';
import { REPO_ROOT, startTestServer, type TestServer } from '../helpers.js';
import { CHROMIUM, CHROMIUM_FLAGS, requireChromium, waitStep } from './support.js';

// The wizard inside an assistant (MCP Apps): a host page on its own
// loopback origin runs the ext-apps host-side bridge (AppBridge) over a real
// MCP client, shows open_contract_wizard's ui:// resource in a sandboxed frame,
// and a contract is completed in it. Every svc call of the app goes through
// the host's MCP connection; the key stays on the host's server.

let server: TestServer;
let browser: Browser;
let key: string;
let hostJs = '';
let site: http.Server;
let siteOrigin = '';
/** JSON-RPC methods (and tool names) that reached svc through the host's /mcp. */
const proxied: string[] = [];

const OWNER = '0x27b1fdb04752bbc536007a920d24acb045561c26';
const TOOL_ARGS = {
  blockchain: 'evm',
  ownerAddress: OWNER,
  beneficiaries: [
    { name: 'Alice', address: '0x52908400098527886E0F7030069857D2E4169EE7', percentage: 60 },
    { name: 'Bob', address: '0x8617e340b3d01fa5f11f306f4090fd50e238070d', percentage: 40 },
  ],
};

/** The host's site: its page, its bundled script, and /mcp forwarded to svc with the user's key added here, server side. */
async function startHostSite(): Promise<void> {
  site = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/host.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(hostJs);
    if (url.pathname === '/mcp') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const body = Buffer.concat(chunks);
        if (body.length) {
          const msg = JSON.parse(body.toString('utf8')) as { method?: string; params?: { name?: string } };
          proxied.push(msg.method === 'tools/call' ? `tools/call:${msg.params?.name}` : String(msg.method));
        }
        const headers: Record<string, string> = { authorization: `Bearer ${key}` };
        for (const h of ['content-type', 'accept', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id']) {
          const v = req.headers[h];
          if (typeof v === 'string') headers[h] = v;
        }
        const answer = await fetch(`${server.url}/mcp`, {
          method: req.method,
          headers,
          ...(body.length ? { body } : {}),
        });
        const out: Record<string, string> = {};
        for (const h of ['content-type', 'mcp-session-id']) {
          const v = answer.headers.get(h);
          if (v) out[h] = v;
        }
        res.writeHead(answer.status, out);
        res.end(Buffer.from(await answer.arrayBuffer()));
      });
      return;
    }
    const args = url.searchParams.get('args') ?? '{}';
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Assistant</title></head><body><h1>Assistant</h1>` +
          `<script>window.toolArgs = ${args.replace(/</g, '\\u003c')};</script><script src="/host.js"></script></body></html>`,
      );
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteOrigin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  requireChromium();
  server = await startTestServer();
  key = await server.key({ tier: 'partner', scopes: ['contracts'] });
  const esbuild = await import('esbuild');
  const built = await esbuild.build({
    entryPoints: [path.join(REPO_ROOT, 'test', 'embed', 'app-host', 'host.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: ['es2020'],
    logLevel: 'silent',
  });
  hostJs = built.outputFiles[0]!.text;
  await startHostSite();
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS, headless: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()));
  await server?.close();
});

type Events = Array<[string, Record<string, unknown>]>;

async function hostEvent(page: Page, name: string, timeout = 30_000): Promise<Record<string, unknown>> {
  await page.waitForFunction(
    (n) => {
      const w = window as unknown as { events?: Events; hostError?: string };
      if (w.hostError) throw new Error(w.hostError);
      return (w.events ?? []).some((e) => e[0] === n);
    },
    name,
    { timeout },
  );
  return (await page.evaluate(() => (window as unknown as { events: Events }).events)).find((e) => e[0] === name)![1];
}

async function next(frame: Frame, n: number): Promise<void> {
  await frame.click('button.svc-primary');
  await waitStep(frame, n);
}

describe('open_contract_wizard as an MCP App', () => {
  it('uses the MCP Apps names of the extension', () => {
    expect(MCP_APP_MIME_TYPE).toBe(RESOURCE_MIME_TYPE);
    expect(RESOURCE_URI_META_KEY).toBe('ui/resourceUri');
  });

  it('is shown by a host with the ext-apps bridge, prefilled from the tool input, and completes a contract through the host', async () => {
    const page = await browser.newPage({ viewport: { width: 900, height: 1000 } });
    const consoleErrors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    await page.goto(`${siteOrigin}/?args=${encodeURIComponent(JSON.stringify(TOOL_ARGS))}`);

    const tool = await hostEvent(page, 'tool');
    expect(tool).toMatchObject({ uri: WIZARD_APP_URI, meta: { ui: { resourceUri: WIZARD_APP_URI } } });
    const resource = await hostEvent(page, 'resource');
    expect(resource).toMatchObject({ mimeType: 'text/html;profile=mcp-app', meta: { ui: { prefersBorder: true } } });
    expect(resource.bytes as number).toBeGreaterThan(10_000);
    expect(await hostEvent(page, 'initialized')).toMatchObject({ name: 'svc contract wizard' });
    const result = (await hostEvent(page, 'result')) as {
      structuredContent: { resourceUri: string; prefill: unknown };
    };
    expect(result.structuredContent).toMatchObject({ resourceUri: WIZARD_APP_URI, prefill: TOOL_ARGS });

    const frame = (await (await page.waitForSelector('iframe')).contentFrame())!;
    await waitStep(frame, 1);
    // The host's theme (dark) applies; the chain comes from the tool input.
    expect(await frame.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await frame.waitForFunction(
      () => (document.getElementById('chain-evm') as HTMLInputElement | null)?.checked === true,
    );
    // Templates came through the host: list_templates.
    await next(frame, 2);
    await frame.waitForSelector('#template-common-law');
    await next(frame, 3);
    expect(await frame.inputValue('#f-ownerAddress')).toBe(OWNER);
    expect(await frame.inputValue('#f-beneficiaries-1-name')).toBe('Bob');
    // A bad share is refused by validate_plan, called through the host, and shown next to the field.
    await frame.fill('#f-beneficiaries-1-percentage', '50');
    await frame.waitForSelector('#e-beneficiaries', { timeout: 15_000 });
    expect(await frame.textContent('#e-beneficiaries')).toMatch(/100/);
    await frame.fill('#f-beneficiaries-1-percentage', '40');
    await frame.waitForSelector('#e-beneficiaries', { state: 'detached', timeout: 15_000 });
    await next(frame, 4);
    await next(frame, 5);
    // Review: gas measured by estimate_gas.
    await frame.waitForSelector('dl.svc-gas', { timeout: 30_000 });
    await next(frame, 6);
    await frame.click('button.svc-primary');
    await waitStep(frame, 7);
    const code = await frame.textContent('section[aria-label="Source code"] code');
    expect(code).toContain('pragma solidity');
    expect(await frame.textContent('section[aria-label="Bytecode"] code')).toMatch(/^(0x)?[0-9a-f]{100,}/);

    // The model hears about the result.
    const context = (await hostEvent(page, 'context')) as {
      structuredContent: { contractInfo: { blockchain: string } };
    };
    expect(context.structuredContent.contractInfo.blockchain).toBe('evm');

    // Every call went through the host's MCP connection; the key never reached the browser.
    for (const call of [
      'tools/call:list_templates',
      'tools/call:list_jurisdictions',
      'tools/call:validate_plan',
      'tools/call:estimate_gas',
      'tools/call:generate_contract',
    ]) {
      expect(proxied).toContain(call);
    }
    expect(await page.content()).not.toContain(key);
    expect(await frame.content()).not.toContain(key);
    // The app runs sandboxed, in an opaque origin of its own: it can reach svc only through the host.
    expect(await frame.evaluate(() => window.origin)).toBe('null');
    // The host's client asks for the optional GET stream, which the stateless /mcp answers 405: that is the only error.
    expect(consoleErrors.filter((e) => !/favicon|status of 405/.test(e))).toEqual([]);
    await page.close();
  }, 120_000);
});

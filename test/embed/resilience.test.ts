import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ANONYMOUS_LIMIT } from '../../src/keys/limits.js';
import { FakeClock, startTestServer, type TestServer } from '../helpers.js';
import { embedToken, partnerKey } from './support.js';

// The wizard page past the per-address guard (it once left the guard's 429 un-awaited, and the process died of
// the unhandled rejection after about 50 anonymous loads), garbage and tampered tokens telling the parent window,
// and embed tokens that die for good when their origin leaves the key's list.

const clock = new FakeClock(Date.now());
let server: TestServer;
const SITE = 'https://partner.example';
const OTHER = 'https://second.example';
let address = 0;
/** A client address of its own per test, so each starts with a fresh per-address budget. */
const nextAddress = () => `10.77.0.${++address}`;

/** Unhandled rejections seen while a test ran: the process must see none. */
const rejections: unknown[] = [];
const onRejection = (reason: unknown) => rejections.push(reason);

beforeAll(async () => {
  server = await startTestServer({ clock, listen: false });
});
afterAll(async () => {
  await server?.close();
});
beforeEach(() => {
  rejections.length = 0;
  process.on('unhandledRejection', onRejection);
});
afterEach(async () => {
  // Rejections are reported after the microtask queue drains: give them a turn of the event loop.
  await new Promise((resolve) => setImmediate(resolve));
  process.off('unhandledRejection', onRejection);
  expect(rejections.map(String)).toEqual([]);
});

const page = (query: string, remoteAddress: string) =>
  server.app.inject({ method: 'GET', url: `/api/v1/embed/wizard?${query}`, remoteAddress });
const auth = (key: string) => ({ authorization: `Bearer ${key}` });
const frameAncestors = (res: { headers: Record<string, unknown> }) =>
  String(res.headers['content-security-policy'])
    .split('; ')
    .find((d) => d.startsWith('frame-ancestors'));
/** The `error` of the page's configuration block. */
const pageError = (body: string) =>
  (
    JSON.parse(/<script type="application\/json" id="svc-wizard-config">(.*?)<\/script>/.exec(body)![1]!) as {
      error: { code: string; message: string } | null;
    }
  ).error;

describe('the wizard page past the per-address limit', () => {
  for (const [name, query] of [
    ['without credentials', ''],
    ['with a garbage token', 'token=garbage'],
    ['with a well-formed unknown token', `token=svc_et_emb_01J00000000000000000000000.${'A'.repeat(43)}`],
    ['with an unknown key', 'key=svc_pt_nope'],
  ] as const) {
    it(`${name}: answers its error, then 429 with Retry-After, never 5xx, and nothing rejects unhandled`, async () => {
      const from = nextAddress();
      const statuses: number[] = [];
      let last;
      for (let i = 0; i < ANONYMOUS_LIMIT + 20; i++) {
        last = await page(query, from);
        statuses.push(last.statusCode);
      }
      expect(statuses.filter((s) => s >= 500)).toEqual([]);
      expect(new Set(statuses.slice(0, ANONYMOUS_LIMIT))).toEqual(new Set([401]));
      expect(new Set(statuses.slice(ANONYMOUS_LIMIT))).toEqual(new Set([429]));
      expect(pageError(last!.body)?.code).toBe('RATE_LIMIT_EXCEEDED');
      expect(Number(last!.headers['retry-after'])).toBeGreaterThan(0);
      expect(last!.headers['x-ratelimit-remaining']).toBe('0');
      // Another address is not affected.
      expect((await page(query, nextAddress())).statusCode).toBe(401);
    });
  }
});

describe('a page whose credential names no key tells the parent it claims', () => {
  it('a garbage or tampered token, or none: framable by the `origin` the SDK sends, which receives the error', async () => {
    const { key } = await partnerKey(server, [SITE]);
    const token = await embedToken(server, key, SITE);
    const tampered = `${token.slice(0, -4)}AAAA`;
    const from = nextAddress();
    for (const query of [`token=garbage`, `token=${encodeURIComponent(tampered)}`, '']) {
      const res = await page(`${query}&origin=${encodeURIComponent(SITE)}`, from);
      expect(res.statusCode, query).toBe(401);
      expect(frameAncestors(res), query).toBe(`frame-ancestors ${SITE}`);
      expect(res.headers['x-frame-options'], query).toBeUndefined();
      const error = pageError(res.body)!;
      expect(error.code, query).toBe(query ? 'API_KEY_INVALID' : 'API_KEY_MISSING');
      // The page's script posts config.error to config.origins (src/embed/ui/main.ts); the origin is that one only.
      expect(res.body).toContain(`"origins":["${SITE}"]`);
    }
    // Without a (well-formed) claimed origin, nobody may frame it, as before.
    for (const query of [
      'token=garbage',
      'token=garbage&origin=javascript%3Aalert(1)',
      'token=garbage&origin=https%3A%2F%2Fa.example%2Fpath',
    ]) {
      const res = await page(query, from);
      expect(frameAncestors(res), query).toBe("frame-ancestors 'none'");
      expect(res.headers['x-frame-options'], query).toBe('DENY');
    }
  });

  it('a valid token on an origin it is not bound to still may not be framed there', async () => {
    const { key } = await partnerKey(server, [SITE, OTHER]);
    const token = await embedToken(server, key, SITE);
    const res = await page(`token=${token}&origin=${encodeURIComponent(OTHER)}`, nextAddress());
    expect(res.statusCode).toBe(403);
    expect(frameAncestors(res)).toBe("frame-ancestors 'none'");
  });
});

describe('an embed token dies for good when its origin leaves the key', () => {
  const patch = (key: string, id: string, allowedOrigins: string[]) =>
    server.app.inject({
      method: 'PATCH',
      url: `/api/v1/api-keys/${id}`,
      headers: auth(key),
      payload: { allowedOrigins },
    });
  const templates = (token: string) =>
    server.app.inject({ method: 'GET', url: '/api/v1/contracts/templates', headers: auth(token) });

  it('removing the origin revokes its tokens; adding it back does not revive them; other origins keep theirs', async () => {
    const { key, id } = await partnerKey(server, [SITE, OTHER]);
    const onSite = await embedToken(server, key, SITE);
    const onOther = await embedToken(server, key, OTHER);
    expect((await templates(onSite)).statusCode).toBe(200);

    expect((await patch(key, id, [OTHER])).statusCode).toBe(200);
    const gone = await templates(onSite);
    expect(gone.statusCode).toBe(401);
    expect(gone.json().error).toMatchObject({
      code: 'API_KEY_INVALID',
      message: expect.stringMatching(/revoked.*origin was removed/),
    });
    expect((await templates(onOther)).statusCode).toBe(200);

    // Back on the list: the old token stays dead, on the API and on the page (which explains why, to its claimed origin).
    expect((await patch(key, id, [OTHER, SITE])).statusCode).toBe(200);
    expect((await templates(onSite)).json().error.code).toBe('API_KEY_INVALID');
    const res = await page(`token=${onSite}&origin=${encodeURIComponent(SITE)}`, nextAddress());
    expect(res.statusCode).toBe(401);
    expect(pageError(res.body)?.message).toMatch(/revoked/);
    // A new token for the re-added origin works.
    expect((await templates(await embedToken(server, key, SITE))).statusCode).toBe(200);
    expect((await templates(onOther)).statusCode).toBe(200);
  });

  it("a ?key= page's token (bound to the key's whole list) dies when any origin is removed, not when one is added", async () => {
    const { key, id } = await partnerKey(server, [SITE, OTHER]);
    const tokenOf = async () => {
      const res = await page(`key=${key}`, nextAddress());
      expect(res.statusCode, res.body).toBe(200);
      return /"token":"(svc_et_[^"]+)"/.exec(res.body)![1]!;
    };
    const first = await tokenOf();
    expect((await patch(key, id, [SITE, OTHER, 'https://third.example'])).statusCode).toBe(200);
    expect((await templates(first)).statusCode).toBe(200);
    expect((await patch(key, id, [SITE, 'https://third.example'])).statusCode).toBe(200);
    expect((await templates(first)).json().error.code).toBe('API_KEY_INVALID');
    expect((await templates(await tokenOf())).statusCode).toBe(200);
  });

  it("another key's tokens are left alone", async () => {
    const a = await partnerKey(server, [SITE]);
    const b = await partnerKey(server, [SITE]);
    const tokenB = await embedToken(server, b.key, SITE);
    expect((await patch(a.key, a.id, [])).statusCode).toBe(200);
    expect((await templates(tokenB)).statusCode).toBe(200);
  });
});

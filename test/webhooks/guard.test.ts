import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/core/errors.js';
import { blockedReason, checkUrl, parseAllowList, resolveCheckedUrl } from '../../src/webhooks/index.js';

/** A resolver that must not be called (literal addresses never resolve). */
const noDns = async (host: string): Promise<string[]> => {
  throw new Error(`unexpected DNS lookup of ${host}`);
};

async function refused(url: string, opts: Parameters<typeof checkUrl>[1] = {}): Promise<string> {
  try {
    await checkUrl(url, { allow: '', resolve: noDns, ...opts });
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    const e = err as ApiError;
    expect(e.code).toBe('VALIDATION_ERROR');
    expect(e.details?.[0]?.field).toBe('url');
    return e.details?.[0]?.reason ?? '';
  }
  throw new Error(`${url} was accepted`);
}

// [URL host part, why it must be refused]
const REFUSED: Array<[string, RegExp]> = [
  ['127.0.0.1', /loopback/],
  ['127.255.255.254', /loopback/],
  ['2130706433', /loopback/], // decimal
  ['0x7f000001', /loopback/], // hex
  ['0x7f.0x0.0x0.0x1', /loopback/], // dotted hex
  ['0177.0.0.1', /loopback/], // octal
  ['017700000001', /loopback/], // octal whole
  ['127.1', /loopback/], // short form
  ['127.0.1', /loopback/],
  ['0.0.0.0', /this network/],
  ['0', /this network/],
  ['10.0.0.1', /private/],
  ['10.255.255.255', /private/],
  ['172.16.0.1', /private/],
  ['172.31.255.254', /private/],
  ['192.168.1.1', /private/],
  ['0xc0.0xa8.1.1', /private/],
  ['3232235777', /private/], // 192.168.1.1 decimal
  ['169.254.169.254', /link-local/], // cloud metadata
  ['0xa9fea9fe', /link-local/], // metadata in hex
  ['169.254.0.1', /link-local/],
  ['100.64.0.1', /carrier-grade/],
  ['100.127.255.254', /carrier-grade/],
  ['192.0.0.8', /IETF/],
  ['192.0.2.10', /documentation/],
  ['198.51.100.7', /documentation/],
  ['203.0.113.9', /documentation/],
  ['198.18.0.1', /benchmarking/],
  ['224.0.0.1', /multicast/],
  ['239.255.255.250', /multicast/],
  ['240.0.0.1', /reserved/],
  ['255.255.255.255', /reserved/],
  ['[::1]', /loopback|unspecified/],
  ['[::]', /unspecified/],
  ['[0:0:0:0:0:0:0:1]', /loopback|unspecified/],
  ['[::ffff:127.0.0.1]', /IPv4-mapped.*loopback/],
  ['[::ffff:7f00:1]', /IPv4-mapped.*loopback/],
  ['[::ffff:169.254.169.254]', /IPv4-mapped.*link-local/],
  ['[::ffff:10.0.0.1]', /IPv4-mapped.*private/],
  ['[::ffff:0:10.0.0.1]', /IPv4-translated.*private/],
  ['[::127.0.0.1]', /IPv4-compatible/],
  ['[64:ff9b::7f00:1]', /NAT64.*loopback/],
  ['[64:ff9b::a9fe:a9fe]', /NAT64.*link-local/],
  ['[64:ff9b:1::1]', /local-use NAT64/],
  ['[2002:7f00:1::1]', /6to4.*loopback/],
  ['[2002:c0a8:101::1]', /6to4.*private/],
  ['[fc00::1]', /unique-local/],
  ['[fd12:3456:789a::1]', /unique-local/],
  ['[fe80::1]', /link-local/],
  ['[febf::1]', /link-local/],
  ['[fec0::1]', /site-local/],
  ['[ff02::1]', /multicast/],
  ['[2001:db8::1]', /documentation/],
  ['[2001::1]', /IETF/], // Teredo
  ['[100::1]', /discard/],
  ['[4000::1]', /outside global unicast/],
];

const ACCEPTED = [
  '8.8.8.8',
  '1.1.1.1',
  '93.184.216.34',
  '172.32.0.1',
  '100.128.0.1',
  '192.169.0.1',
  '[2606:4700:4700::1111]',
  '[2a00:1450:4001::200e]',
  '[64:ff9b::808:808]',
  '[2002:808:808::1]',
  '[::ffff:8.8.8.8]',
];

describe.concurrent('address guard', () => {
  it(`refuses ${REFUSED.length} non-public addresses and spellings`, async () => {
    expect(REFUSED.length).toBeGreaterThanOrEqual(40);
    for (const [host, why] of REFUSED) {
      const reason = await refused(`https://${host}/hook`);
      expect(reason, host).toMatch(why);
    }
  });

  it('accepts public addresses, including public IPv4 inside NAT64, 6to4 and mapped forms', async () => {
    for (const host of ACCEPTED)
      await expect(checkUrl(`https://${host}/hook`, { allow: '', resolve: noDns }), host).resolves.toBeUndefined();
  });

  it('classifies bare addresses', () => {
    expect(blockedReason('8.8.8.8')).toBeNull();
    expect(blockedReason('::ffff:192.168.0.1')).toMatch(/private/);
    expect(blockedReason('fe80::1%eth0')).toMatch(/link-local/);
    expect(blockedReason('not-an-ip')).toMatch(/not an IP/);
  });

  it('requires https and a valid URL', async () => {
    expect(await refused('http://8.8.8.8/hook')).toMatch(/https/);
    expect(await refused('ftp://8.8.8.8/')).toMatch(/https/);
    expect(await refused('not a url')).toMatch(/valid/);
    expect(await refused(`https://8.8.8.8/${'a'.repeat(3000)}`)).toMatch(/2048/);
  });

  it('resolves host names and refuses when any resolved address is not public', async () => {
    const resolver = async (host: string) =>
      ({
        'good.example': ['93.184.216.34', '2606:2800:220:1::1'],
        'evil.example': ['93.184.216.34', '10.0.0.5'],
        'meta.example': ['169.254.169.254'],
        'v6.example': ['::1'],
      })[host] ?? [];
    await expect(checkUrl('https://good.example/x', { allow: '', resolve: resolver })).resolves.toBeUndefined();
    // The name is told, and why; what it resolves to is not.
    expect(await refused('https://evil.example/x', { resolve: resolver })).toBe(
      'host "evil.example" resolves to a private address',
    );
    expect(await refused('https://meta.example/x', { resolve: resolver })).toMatch(/link-local/);
    expect(await refused('https://v6.example/x', { resolve: resolver })).toMatch(/v6\.example.*loopback/);
    for (const url of ['https://evil.example/x', 'https://meta.example/x', 'https://v6.example/x'])
      expect(await refused(url, { resolve: resolver })).not.toMatch(/10\.0\.0\.5|169\.254|::1/);
    expect(await refused('https://nothing.example/x', { resolve: resolver })).toMatch(/no addresses/);
    expect(
      await refused('https://fail.example/x', { resolve: async () => Promise.reject(new Error('ENOTFOUND')) }),
    ).toMatch(/could not be resolved/);
    expect(await refused('https://localhost/x', { resolve: resolver })).toMatch(/localhost/);
    expect(await refused('https://a.localhost./x', { resolve: resolver })).toMatch(/localhost/);
  });

  it('lets the operator allow specific hosts and ranges', async () => {
    const resolver = async () => ['10.1.2.3'];
    await expect(checkUrl('https://127.0.0.1:8443/x', { allow: '127.0.0.1', resolve: noDns })).resolves.toBeUndefined();
    expect(await refused('https://127.0.0.2/x', { allow: '127.0.0.1' })).toMatch(/loopback/);
    await expect(checkUrl('https://127.0.0.2/x', { allow: '127.0.0.0/8', resolve: noDns })).resolves.toBeUndefined();
    await expect(checkUrl('https://[::1]/x', { allow: '::1', resolve: noDns })).resolves.toBeUndefined();
    await expect(
      checkUrl('https://internal.corp/x', { allow: 'internal.corp', resolve: resolver }),
    ).resolves.toBeUndefined();
    await expect(
      checkUrl('https://other.corp/x', { allow: '10.0.0.0/8, internal.corp', resolve: resolver }),
    ).resolves.toBeUndefined();
    expect(await refused('https://other.corp/x', { allow: 'internal.corp', resolve: resolver })).toMatch(/private/);
    // Still HTTPS only
    expect(await refused('http://127.0.0.1/x', { allow: '127.0.0.1' })).toMatch(/https/);
    expect(() => parseAllowList('10.0.0.0/33')).toThrow(/prefix/);
    expect(() => parseAllowList('not valid!')).toThrow(/neither/);
  });

  it('reads SVC_WEBHOOK_ALLOW when no allow-list is passed', async () => {
    const before = process.env.SVC_WEBHOOK_ALLOW;
    try {
      process.env.SVC_WEBHOOK_ALLOW = '192.168.50.0/24';
      await expect(checkUrl('https://192.168.50.7/x', { resolve: noDns })).resolves.toBeUndefined();
      process.env.SVC_WEBHOOK_ALLOW = '';
      await expect(checkUrl('https://192.168.50.7/x', { resolve: noDns })).rejects.toThrow(ApiError);
    } finally {
      if (before === undefined) delete process.env.SVC_WEBHOOK_ALLOW;
      else process.env.SVC_WEBHOOK_ALLOW = before;
    }
  });

  it('remembers only literal-address verdicts: a host name is resolved and checked every time', async () => {
    let answer = '93.184.216.34';
    let lookups = 0;
    const resolver = async () => {
      lookups++;
      return [answer];
    };
    await expect(checkUrl('https://moving.example/x', { allow: '', resolve: resolver })).resolves.toBeUndefined();
    answer = '10.0.0.8'; // now points inside
    const inside = await refused('https://moving.example/x', { resolve: resolver });
    expect(inside).toBe('host "moving.example" resolves to a private address');
    // The address a name resolves to is not told: it would map the service's own network for anyone asking.
    expect(inside).not.toContain('10.0.0.8');
    expect(lookups).toBe(2);
    // The same literal URL under a narrower allow-list is checked afresh.
    await expect(checkUrl('https://10.9.9.9/x', { allow: '10.0.0.0/8', resolve: noDns })).resolves.toBeUndefined();
    expect(await refused('https://10.9.9.9/x', { allow: '' })).toMatch(/private/);
  });

  it('returns the checked addresses to pin the connection', async () => {
    const r = await resolveCheckedUrl('https://Good.Example./p?q=1', {
      allow: '',
      resolve: async () => ['93.184.216.34'],
    });
    expect(r.host).toBe('good.example');
    expect(r.addresses).toEqual(['93.184.216.34']);
  });
});

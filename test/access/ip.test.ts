import { afterAll, describe, expect, it } from 'vitest';
import { ipAllowed, normalizeIp, validateWhitelist } from '../../src/core/ip.js';
import { startTestServer, type TestServer } from '../helpers.js';

describe('IP whitelist matching', () => {
  it.each([
    [['203.0.113.7'], '203.0.113.7', true],
    [['203.0.113.7'], '203.0.113.8', false],
    [['10.0.0.0/8'], '10.255.1.2', true],
    [['10.0.0.0/8'], '11.0.0.1', false],
    [['10.1.2.3/8'], '10.9.9.9', true], // host bits are ignored
    [['0.0.0.0/0'], '198.51.100.1', true],
    [['2001:db8::/32'], '2001:db8:1::5', true],
    [['2001:db8::/32'], '2001:db9::5', false],
    [['::1'], '::1', true],
    [['::1'], '127.0.0.1', false],
    [['203.0.113.7'], '::ffff:203.0.113.7', true], // mapped address is the IPv4 address
    [['::ffff:203.0.113.7'], '203.0.113.7', true],
    [['::ffff:10.0.0.0/104'], '10.20.30.40', true],
    [['10.0.0.0/8'], '::ffff:10.1.1.1', true],
    [['10.0.0.0/8'], '::ffff:0a01:0101', true], // the hex spelling of a mapped address is the same IPv4 address
    [['fe80::/10'], 'fe80::1%eth0', true],
    [[], '8.8.8.8', true],
    [['10.0.0.0/8'], undefined, false],
    [['10.0.0.0/8'], 'not-an-ip', false],
  ] as Array<[string[], string | undefined, boolean]>)('%j allows %s: %s', (list, address, allowed) => {
    expect(ipAllowed(list, address)).toBe(allowed);
  });

  it('normalizes mapped addresses and zones', () => {
    expect(normalizeIp('::FFFF:1.2.3.4')).toBe('1.2.3.4');
    expect(normalizeIp('fe80::1%lo')).toBe('fe80::1');
  });

  it('reports each invalid entry', () => {
    expect(validateWhitelist(['1.2.3.4', '1.2.3', '1.2.3.4/33', '::/129', 'a/b/c', '1.2.3.4/-1'])).toEqual([
      { field: 'ipWhitelist.1', reason: '"1.2.3" is not an IPv4 or IPv6 address' },
      { field: 'ipWhitelist.2', reason: 'prefix length must be 0 to 32 for IPv4' },
      { field: 'ipWhitelist.3', reason: 'prefix length must be 0 to 128 for IPv6' },
      { field: 'ipWhitelist.4', reason: 'expected an IP address or a CIDR range such as 203.0.113.0/24' },
      { field: 'ipWhitelist.5', reason: 'prefix length "-1" is not a number' },
    ]);
  });
});

describe('IP whitelist on requests', () => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  async function server(trustProxy?: string[]) {
    const s = await startTestServer({ listen: false, config: { trustProxy } });
    servers.push(s);
    return s;
  }

  it('uses the socket address; a forged X-Forwarded-For never passes', async () => {
    const s = await server();
    const key = await s.key({ tier: 'partner', scopes: ['contracts'], ipWhitelist: ['10.0.0.0/8', '2001:db8::/32'] });
    const req = (remoteAddress: string, xff?: string) =>
      s.app.inject({
        url: '/api/v1/contracts/templates',
        remoteAddress,
        headers: { authorization: `Bearer ${key}`, ...(xff ? { 'x-forwarded-for': xff } : {}) },
      });
    expect((await req('10.1.2.3')).statusCode).toBe(200);
    expect((await req('::ffff:10.1.2.3')).statusCode).toBe(200);
    expect((await req('2001:db8::7')).statusCode).toBe(200);
    const outside = await req('198.51.100.4');
    expect(outside.statusCode).toBe(403);
    expect(outside.json().error.code).toBe('IP_NOT_ALLOWED');
    expect((await req('198.51.100.4', '10.1.2.3')).json().error.code).toBe('IP_NOT_ALLOWED');
    expect((await req('198.51.100.4', '10.1.2.3, 10.1.2.4')).statusCode).toBe(403);
  });

  it('believes X-Forwarded-For only from configured proxies', async () => {
    const s = await server(['192.0.2.1']);
    const key = await s.key({ tier: 'partner', scopes: ['contracts'], ipWhitelist: ['10.0.0.0/8'] });
    const req = (remoteAddress: string, xff: string) =>
      s.app.inject({
        url: '/api/v1/contracts/templates',
        remoteAddress,
        headers: { authorization: `Bearer ${key}`, 'x-forwarded-for': xff },
      });
    expect((await req('192.0.2.1', '10.1.2.3')).statusCode).toBe(200);
    // Not from the proxy: the header is ignored.
    expect((await req('192.0.2.99', '10.1.2.3')).statusCode).toBe(403);
    // A client prepending a forged entry: the proxy appended the real address last.
    expect((await req('192.0.2.1', '10.1.2.3, 198.51.100.4')).statusCode).toBe(403);
  });

  it('applies to MCP calls as well', async () => {
    const s = await startTestServer({});
    servers.push(s);
    const key = await s.key({ tier: 'partner', scopes: ['contracts'], ipWhitelist: ['10.0.0.0/8'] });
    const { mcpHttpCall } = await import('../mcp-clients.js');
    // Refused before the MCP server sees the request, like every credential problem on /mcp.
    expect(await mcpHttpCall(s.url, key, 'list_templates', {})).toMatchObject({
      ok: false,
      status: 403,
      body: { error: { code: 'IP_NOT_ALLOWED' } },
    });
  });
});

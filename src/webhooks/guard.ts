/**
 * Address guard for webhook URLs (server-side request forgery protection).
 *
 * A URL must be HTTPS, and every address its host resolves to must be a public
 * unicast address. The check runs at registration and again before every
 * delivery attempt; the addresses checked are the ones the connection then uses
 * (see `pinnedLookup`), so a DNS answer that changes between check and connect
 * (rebinding) cannot slip a private address through.
 *
 * Numeric spellings (decimal `2130706433`, hex `0x7f.1`, octal `0177.0.0.1`,
 * short forms `127.1`) are normalized by the WHATWG URL parser before the check;
 * IPv6 forms that embed an IPv4 address (IPv4-mapped, IPv4-compatible, NAT64,
 * 6to4) are checked on the embedded address.
 */
import { promises as dns } from 'node:dns';
import net from 'node:net';
import { ApiError } from '../core/errors.js';
import { cachedResolver, type Resolver } from './resolver.js';

export type { Resolver } from './resolver.js';

/** getaddrinfo's answer for a host, every address. */
const lookupAll: Resolver = async (host) => {
  const found = await dns.lookup(host, { all: true, verbatim: true });
  return found.map((a) => a.address);
};

/** The system's lookup, bounded, fair by account and kept for a while (./resolver.ts). */
export const systemResolver: Resolver = cachedResolver(lookupAll);

/** Ranges no webhook may reach: IANA special-purpose registries plus multicast and reserved space. */
const V4_BLOCKED: Array<[string, number, string]> = [
  ['0.0.0.0', 8, 'this network'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.31.196.0', 24, 'AS112'],
  ['192.52.193.0', 24, 'AMT'],
  ['192.88.99.0', 24, '6to4 relay anycast'],
  ['192.168.0.0', 16, 'private'],
  ['192.175.48.0', 24, 'AS112'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'],
];

/** IPv6 ranges refused outright (the mapped/translated forms are handled before these). */
const V6_BLOCKED: Array<[string, number, string]> = [
  ['::', 96, 'unspecified, loopback or IPv4-compatible'],
  ['64:ff9b:1::', 48, 'local-use NAT64'],
  ['100::', 64, 'discard-only'],
  ['2001::', 23, 'IETF protocol assignments (Teredo, ORCHID, benchmarking)'],
  ['2001:db8::', 32, 'documentation'],
  ['3fff::', 20, 'documentation'],
  ['5f00::', 16, 'segment routing'],
  ['fc00::', 7, 'unique-local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'site-local'],
  ['ff00::', 8, 'multicast'],
];

function buildList(
  entries: Array<[string, number, string]>,
  family: 'ipv4' | 'ipv6',
): Array<{ list: net.BlockList; reason: string }> {
  return entries.map(([addr, prefix, reason]) => {
    const list = new net.BlockList();
    list.addSubnet(addr, prefix, family);
    return { list, reason };
  });
}

const V4_LISTS = buildList(V4_BLOCKED, 'ipv4');
const V6_LISTS = buildList(V6_BLOCKED, 'ipv6');
const V6_GLOBAL = new net.BlockList();
V6_GLOBAL.addSubnet('2000::', 3, 'ipv6');

/** Expands an IPv6 literal (already validated by net.isIPv6) to eight 16-bit groups. */
export function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const zone = text.indexOf('%');
  if (zone >= 0) text = text.slice(0, zone);
  // A trailing dotted quad becomes two groups.
  const lastColon = text.lastIndexOf(':');
  const tail = text.slice(lastColon + 1);
  if (tail.includes('.')) {
    const o = tail.split('.').map(Number);
    text = `${text.slice(0, lastColon + 1)}${((o[0]! << 8) | o[1]!).toString(16)}:${((o[2]! << 8) | o[3]!).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = rest !== undefined && rest !== '' ? rest.split(':') : [];
  const fill = rest === undefined ? 0 : 8 - left.length - right.length;
  const groups = [...left, ...Array<string>(fill).fill('0'), ...right].map((g) => parseInt(g, 16));
  return groups;
}

function v4FromGroups(hi: number, lo: number): string {
  return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
}

/**
 * Why an address may not be reached, or null when it is a public unicast
 * address. Accepts IPv4 and IPv6 literals (IPv6 without brackets).
 */
export function blockedReason(address: string): string | null {
  const family = net.isIP(address);
  if (family === 4) {
    for (const { list, reason } of V4_LISTS) if (list.check(address, 'ipv4')) return `${reason} address`;
    return null;
  }
  if (family !== 6) return 'not an IP address';
  const g = ipv6Groups(address);
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  // IPv4-mapped ::ffff:a.b.c.d and the SIIT form ::ffff:0:a.b.c.d
  if (zeros(0, 5) && g[5] === 0xffff) return embedded(v4FromGroups(g[6]!, g[7]!), 'IPv4-mapped');
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return embedded(v4FromGroups(g[6]!, g[7]!), 'IPv4-translated');
  // NAT64 well-known prefix 64:ff9b::/96
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return embedded(v4FromGroups(g[6]!, g[7]!), 'NAT64');
  // 6to4 2002:AABB:CCDD::/48
  if (g[0] === 0x2002) return embedded(v4FromGroups(g[1]!, g[2]!), '6to4');
  for (const { list, reason } of V6_LISTS) if (list.check(address, 'ipv6')) return `${reason} address`;
  if (!V6_GLOBAL.check(address, 'ipv6')) return 'reserved address (outside global unicast 2000::/3)';
  return null;
}

function embedded(v4: string, form: string): string | null {
  const reason = blockedReason(v4);
  return reason ? `${form} form of a ${reason} (${v4})` : null;
}

/** Operator allow-list (`SVC_WEBHOOK_ALLOW`): host names and addresses/CIDR ranges exempt from the range checks. */
export interface AllowList {
  hosts: Set<string>;
  ranges: net.BlockList;
  empty: boolean;
}

const allowCache = new Map<string, AllowList>();

/** Parses `host,10.0.0.0/8,::1,...`. Invalid entries throw, so a typo is noticed at startup. */
export function parseAllowList(spec: string | undefined): AllowList {
  const key = spec ?? '';
  const cached = allowCache.get(key);
  if (cached) return cached;
  const hosts = new Set<string>();
  const ranges = new net.BlockList();
  for (const raw of key.split(',')) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    const slash = entry.indexOf('/');
    const addr = (slash >= 0 ? entry.slice(0, slash) : entry).replace(/^\[|\]$/g, '');
    const fam = net.isIP(addr);
    if (fam) {
      const max = fam === 4 ? 32 : 128;
      const prefix = slash >= 0 ? Number(entry.slice(slash + 1)) : max;
      if (!Number.isInteger(prefix) || prefix < 0 || prefix > max)
        throw new Error(`SVC_WEBHOOK_ALLOW: bad prefix in "${raw.trim()}"`);
      ranges.addSubnet(addr, prefix, fam === 4 ? 'ipv4' : 'ipv6');
    } else if (slash < 0 && /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/.test(entry)) {
      hosts.add(entry.replace(/\.$/, ''));
    } else {
      throw new Error(`SVC_WEBHOOK_ALLOW: "${raw.trim()}" is neither a host name, an address nor a CIDR range`);
    }
  }
  const list: AllowList = { hosts, ranges, empty: hosts.size === 0 && key.trim() === '' };
  allowCache.set(key, list);
  return list;
}

function allowedAddress(allow: AllowList, address: string): boolean {
  const fam = net.isIP(address);
  return fam !== 0 && allow.ranges.check(address, fam === 4 ? 'ipv4' : 'ipv6');
}

export interface CheckUrlOptions {
  /** Comma-separated allow-list; defaults to the `SVC_WEBHOOK_ALLOW` environment variable. */
  allow?: string | undefined;
  resolve?: Resolver | undefined;
}

/** A URL that passed the guard, with the addresses the connection may use. */
export interface CheckedUrl {
  /** Read it only: an accepted IP-literal URL is remembered and handed out again. */
  readonly url: URL;
  /** `url.origin` and `url.pathname + url.search`, computed once. */
  readonly origin: string;
  readonly path: string;
  /** Host name as used for SNI and Host (no brackets). */
  readonly host: string;
  /** Every address the host resolved to; all of them passed. */
  readonly addresses: readonly string[];
}

const MAX_URL_LENGTH = 2048;

function refuse(reason: string): ApiError {
  return ApiError.validation('The webhook URL is not allowed', [{ field: 'url', reason }]);
}

/**
 * Checks a webhook URL and resolves its host. Throws ApiError VALIDATION_ERROR
 * (field `url`) when the URL is not HTTPS, cannot be resolved, or any address
 * it resolves to is not public (unless allowed by the operator).
 */
export async function resolveCheckedUrl(raw: string, opts: CheckUrlOptions = {}): Promise<CheckedUrl> {
  if (raw.length > MAX_URL_LENGTH) throw refuse(`must be at most ${MAX_URL_LENGTH} characters`);
  // A URL whose host is an IP literal always gets the same verdict under the same
  // allow-list (nothing is resolved), so an accepted one is remembered: the
  // dispatcher checks the URL again at every attempt.
  const known = knownCheckedUrl(raw, opts);
  if (known) return known;
  const spec = allowSpec(opts);
  const checked = await checkFresh(raw, opts);
  if (net.isIP(checked.host)) {
    if (literalCache.size >= LITERAL_CACHE_SIZE) literalCache.clear();
    literalCache.set(raw, {
      spec,
      checked: Object.freeze({ ...checked, addresses: Object.freeze([...checked.addresses]) }),
    });
  }
  return checked;
}

/** The remembered verdict for an accepted IP-literal URL under this allow-list, if any (no await needed). */
export function knownCheckedUrl(raw: string, opts: CheckUrlOptions = {}): CheckedUrl | undefined {
  const known = literalCache.get(raw);
  return known && known.spec === allowSpec(opts) ? known.checked : undefined;
}

/** The allow-list in force: the one passed, else `SVC_WEBHOOK_ALLOW`. */
function allowSpec(opts: CheckUrlOptions): string {
  return opts.allow ?? process.env.SVC_WEBHOOK_ALLOW ?? '';
}

/** Accepted URLs with an IP-literal host, with the allow-list they were checked under. */
const literalCache = new Map<string, { spec: string; checked: CheckedUrl }>();
const LITERAL_CACHE_SIZE = 1024;

async function checkFresh(raw: string, opts: CheckUrlOptions): Promise<CheckedUrl> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('is not a valid absolute URL');
  }
  if (url.protocol !== 'https:') throw refuse('must use https://');
  // Credentials in the URL would be stored, shown in listings and sent in the clear to every proxy and log on the way;
  // the URL is never repeated in this answer, so the password goes nowhere.
  if (url.username !== '' || url.password !== '') {
    throw refuse(
      'must not contain a user name or password (user:pass@host); deliveries are authenticated by their signature (X-Webhook-Signature)',
    );
  }
  const host = normalHost(url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname);
  return { url, origin: url.origin, path: url.pathname + url.search, host, addresses: await checkHost(host, opts) };
}

/** A host name as compared and resolved: lower case, without a trailing dot. */
function normalHost(raw: string): string {
  const host = raw.replace(/\.$/, '').toLowerCase();
  if (!host) throw refuse('has no host');
  return host;
}

/**
 * Resolves a host (name or IP literal, without brackets) and checks every
 * address it resolves to; returns the addresses. Throws like resolveCheckedUrl.
 * The delivery client runs this again when it opens a connection (async, so a
 * bad host is a rejection, never a throw into the connector).
 */
export async function resolveCheckedHost(rawHost: string, opts: CheckUrlOptions = {}): Promise<string[]> {
  return checkHost(normalHost(rawHost), opts);
}

async function checkHost(host: string, opts: CheckUrlOptions): Promise<string[]> {
  const allow = parseAllowList(allowSpec(opts));
  const hostAllowed = allow.hosts.has(host);
  let addresses: string[];
  if (net.isIP(host)) {
    addresses = [host];
  } else {
    if (!hostAllowed && (host === 'localhost' || host.endsWith('.localhost')))
      throw refuse('host "localhost" is a loopback name');
    try {
      addresses = await (opts.resolve ?? systemResolver)(host);
    } catch {
      throw refuse(`host "${host}" could not be resolved`);
    }
    if (addresses.length === 0) throw refuse(`host "${host}" has no addresses`);
  }
  if (!hostAllowed) {
    for (const address of addresses) {
      if (net.isIP(address) === 0) throw refuse(`host "${host}" resolved to something that is not an IP address`);
      if (allowedAddress(allow, address)) continue;
      const reason = blockedReason(address);
      // A name's address is not told: anyone may submit any name (a webhook, a photo URL), and the answer would tell
      // them what the service's own network resolves it to ("db.internal" to 10.0.0.5).
      if (reason) throw refuse(net.isIP(host) ? `${address} is a ${reason}` : `host "${host}" resolves to a ${reason}`);
    }
  }
  return addresses;
}

/** The required API: throws ApiError VALIDATION_ERROR when the URL may not be used. */
export async function checkUrl(url: string, opts: CheckUrlOptions = {}): Promise<void> {
  await resolveCheckedUrl(url, opts);
}

/** A `lookup` for net/tls/https answering with the addresses already checked (./wire.ts, shared with the sender thread). */
export { pinnedLookup } from './wire.js';

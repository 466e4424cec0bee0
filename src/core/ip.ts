import { BlockList, isIP } from 'node:net';
import type { ErrorDetail } from './errors.js';

/**
 * IP whitelists: single addresses and CIDR ranges, IPv4 and IPv6, matched with
 * Node's own net.BlockList. An IPv4-mapped IPv6 address (`::ffff:a.b.c.d`) is
 * treated as the IPv4 address it carries, both in entries and in requests.
 */

const MAPPED = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i;

/** The address as matched: IPv4-mapped IPv6 becomes plain IPv4; zone ids are dropped. */
export function normalizeIp(address: string): string {
  const bare = address.trim().replace(/%.*$/, '');
  const m = MAPPED.exec(bare);
  return m ? m[1]! : bare;
}

interface ParsedEntry {
  address: string;
  family: 'ipv4' | 'ipv6';
  prefix: number | undefined;
}

function parseEntry(entry: string): ParsedEntry | string {
  const [rawAddr, rawPrefix, ...rest] = entry.trim().split('/');
  if (rest.length > 0 || !rawAddr) return 'expected an IP address or a CIDR range such as 203.0.113.0/24';
  const address = normalizeIp(rawAddr);
  const version = isIP(address);
  if (version === 0) return `"${rawAddr}" is not an IPv4 or IPv6 address`;
  const family = version === 4 ? 'ipv4' : 'ipv6';
  if (rawPrefix === undefined) return { address, family, prefix: undefined };
  if (!/^\d{1,3}$/.test(rawPrefix)) return `prefix length "${rawPrefix}" is not a number`;
  let prefix = Number(rawPrefix);
  // A mapped address written with an IPv6 prefix (::ffff:10.0.0.0/104) becomes the IPv4 prefix.
  if (family === 'ipv4' && MAPPED.test(rawAddr)) prefix -= 96;
  const max = family === 'ipv4' ? 32 : 128;
  if (prefix < 0 || prefix > max) return `prefix length must be 0 to ${max} for ${family === 'ipv4' ? 'IPv4' : 'IPv6'}`;
  return { address, family, prefix };
}

/** One `details` entry per invalid whitelist entry (field `ipWhitelist.<index>`). */
export function validateWhitelist(entries: readonly string[], field = 'ipWhitelist'): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  entries.forEach((entry, i) => {
    const parsed = parseEntry(entry);
    if (typeof parsed === 'string') details.push({ field: `${field}.${i}`, reason: parsed });
  });
  return details;
}

const cache = new Map<string, BlockList>();

function listFor(entries: readonly string[]): BlockList {
  const cacheKey = entries.join(',');
  let list = cache.get(cacheKey);
  if (!list) {
    list = new BlockList();
    for (const entry of entries) {
      const p = parseEntry(entry);
      if (typeof p === 'string') continue; // refused at creation; never matches
      if (p.prefix === undefined) list.addAddress(p.address, p.family);
      else list.addSubnet(p.address, p.prefix, p.family);
    }
    if (cache.size > 10_000) cache.clear();
    cache.set(cacheKey, list);
  }
  return list;
}

/** Whether `address` is allowed by the whitelist (an empty whitelist allows every address). */
export function ipAllowed(entries: readonly string[], address: string | undefined): boolean {
  if (entries.length === 0) return true;
  if (!address) return false;
  const ip = normalizeIp(address);
  const version = isIP(ip);
  if (version === 0) return false;
  return listFor(entries).check(ip, version === 4 ? 'ipv4' : 'ipv6');
}

/** An entry as a network: family, the address as a number, the prefix length (full length for one address). */
function network(entry: string): { family: 'ipv4' | 'ipv6'; bits: bigint; prefix: number } | undefined {
  const p = parseEntry(entry);
  if (typeof p === 'string') return undefined;
  const width = p.family === 'ipv4' ? 32 : 128;
  const prefix = p.prefix ?? width;
  let bits = 0n;
  if (p.family === 'ipv4') {
    for (const part of p.address.split('.')) bits = (bits << 8n) | BigInt(Number(part));
  } else {
    bits = ipv6Bits(p.address);
  }
  const mask = prefix === 0 ? 0n : ((1n << BigInt(prefix)) - 1n) << BigInt(width - prefix);
  return { family: p.family, bits: bits & mask, prefix };
}

/** The 128 bits of an IPv6 address (valid per isIP), embedded IPv4 tail included. */
function ipv6Bits(address: string): bigint {
  let text = address.toLowerCase();
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const n = (Number(v4[1]) << 24) + (Number(v4[2]) << 16) + (Number(v4[3]) << 8) + Number(v4[4]);
    text = text.slice(0, v4.index) + ((n >>> 16) & 0xffff).toString(16) + ':' + (n & 0xffff).toString(16);
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const groups = tail === undefined ? h : [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(parseInt(g || '0', 16)), 0n);
}

/** Whether every address `child` allows is also allowed by `parent` (an empty list allows every address). */
export function whitelistWithin(child: readonly string[], parent: readonly string[]): boolean {
  if (parent.length === 0) return true;
  if (child.length === 0) return false;
  const parents = parent.map(network).filter((n) => n !== undefined);
  return child.every((entry) => {
    const c = network(entry);
    if (!c) return false;
    const width = c.family === 'ipv4' ? 32 : 128;
    return parents.some((p) => {
      if (p.family !== c.family || c.prefix < p.prefix) return false;
      const mask = p.prefix === 0 ? 0n : ((1n << BigInt(p.prefix)) - 1n) << BigInt(width - p.prefix);
      return (c.bits & mask) === p.bits;
    });
  });
}

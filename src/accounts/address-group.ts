/** Client addresses as the guessing counters key them (sign-in, password reset). */
import ipaddr from 'ipaddr.js';

/** The counter key of a client address: IPv4 as it is (IPv4-mapped IPv6 included), IPv6 by its /64 network. */
export function addressGroup(clientIp: string | undefined): string {
  if (!clientIp || !ipaddr.isValid(clientIp.replace(/%.*$/, ''))) return 'unknown';
  const parsed = ipaddr.process(clientIp.replace(/%.*$/, ''));
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${(parsed as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((p) => p.toString(16))
    .join(':')}::/64`;
}

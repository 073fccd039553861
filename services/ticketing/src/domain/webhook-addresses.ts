import ipaddr from 'ipaddr.js';

/**
 * Where CRM webhooks may go. A webhook's URL is chosen by whoever registers it, and the service
 * POSTs from inside the deployment's network, so only global unicast addresses are reached:
 * loopback, private (RFC 1918), link-local (cloud metadata at 169.254.169.254 included),
 * unique-local, unspecified, carrier-grade NAT, multicast, broadcast, 0/8, documentation and
 * every other special-purpose range (ipaddr.js's list) are refused, in any notation and in their
 * IPv6 forms (IPv4-mapped, IPv4-compatible), unless an operator allows a range.
 */

export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;
export type AddressRange = [IpAddress, number];

/**
 * The IPv4 address an IPv6 one stands for when the connection would reach that IPv4 address
 * (`::ffff:a.b.c.d` mapped, `::a.b.c.d` compatible), else the address itself.
 */
function canonical(address: IpAddress): IpAddress {
  if (address.kind() === 'ipv4') return address;
  const ipv6 = address as ipaddr.IPv6;
  if (ipv6.isIPv4MappedAddress()) return ipv6.toIPv4Address();
  const parts = ipv6.parts;
  // ::/96 except :: and ::1 (unspecified and loopback stay IPv6, both refused below)
  if (parts.slice(0, 6).every((part) => part === 0) && (parts[6] !== 0 || parts[7]! > 1)) {
    return new ipaddr.IPv4([parts[6]! >> 8, parts[6]! & 0xff, parts[7]! >> 8, parts[7]! & 0xff]);
  }
  return ipv6;
}

/** An address in any notation ipaddr.js reads (`2130706433`, `0x7f.1`, `0177.0.0.1`, `[::1]`, ...), or null. */
export function parseAddress(text: string): IpAddress | null {
  const bare = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (!ipaddr.isValid(bare)) return null;
  try {
    return ipaddr.parse(bare);
  } catch {
    return null;
  }
}

/** One CIDR of WEBHOOK_ALLOWED_CIDRS (an IPv4-mapped IPv6 range is read as its IPv4 range). Throws on a bad one. */
export function parseRange(text: string): AddressRange {
  if (!ipaddr.isValidCIDR(text)) throw new Error(`'${text}' is not a CIDR range (e.g. 10.20.0.0/16 or fd00:1::/64)`);
  const [network, bits] = ipaddr.parseCIDR(text);
  if (network.kind() === 'ipv6' && (network as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) return [(network as ipaddr.IPv6).toIPv4Address(), bits - 96];
  return [network, bits];
}

/** Comma-separated CIDR ranges (empty: none). Throws naming the first bad one. */
export function parseRanges(text: string): AddressRange[] {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map(parseRange);
}

/** Whether a webhook may connect to this address: global unicast, or inside a range the operator allowed. */
export function isAllowedAddress(address: IpAddress, allowed: readonly AddressRange[]): boolean {
  const target = canonical(address);
  if (allowed.some(([network, bits]) => network.kind() === target.kind() && target.match(network, bits))) return true;
  return target.range() === 'unicast';
}

/**
 * At registration: the literal address a URL names when it is refused (the IPv4 address an IPv6
 * form stands for; the API may say it, as it is what the admin wrote), else null. Hostnames pass here; the address they resolve to is checked
 * when a delivery connects.
 */
export function refusedLiteralAddress(url: string, allowed: readonly AddressRange[]): string | null {
  let hostname: string;
  try {
    hostname = new URL(url).hostname;
  } catch {
    return null;
  }
  const address = parseAddress(hostname);
  return address && !isAllowedAddress(address, allowed) ? canonical(address).toString() : null;
}

/**
 * Whether an IP address is this machine or a private network (loopback, RFC 1918, link-local,
 * unique-local IPv6). Such an address has no place in the world: the console and account settings
 * say "local" instead of the geolocation a development server invents for it ("Austin, TX").
 * No imports.
 */

function ipv4Parts(ip: string): number[] | null {
  const m = ip.match(/^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  return parts.every((n) => n <= 255) ? parts : null;
}

function isLocalIpv4([a, b]: number[]): boolean {
  return (
    a === 127 || // loopback
    a === 10 ||
    (a === 172 && b !== undefined && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) || // RFC 1918
    (a === 169 && b === 254) || // link-local
    a === 0
  );
}

/** True for loopback and private addresses (IPv4, IPv6 and IPv4-mapped IPv6); false for public ones and for what is no address. */
export function isLocalAddress(ip: string | null | undefined): boolean {
  if (!ip) return false;
  const address = ip
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, "");
  if (address === "localhost") return true;
  const v4 = ipv4Parts(address);
  if (v4) return isLocalIpv4(v4);
  if (!address.includes(":")) return false;
  const mapped = address.match(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/);
  if (mapped?.[1]) {
    const parts = ipv4Parts(mapped[1]);
    return parts ? isLocalIpv4(parts) : false;
  }
  if (address === "::1" || address === "::") return true;
  // fc00::/7 (unique local) and fe80::/10 (link-local).
  return /^f[cd][0-9a-f]{0,2}:/.test(address) || /^fe[89ab][0-9a-f]?:/.test(address);
}

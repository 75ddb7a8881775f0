/**
 * Which URLs a webhook may be sent to: checked when an endpoint is created or updated, and again
 * before every send. Outside development: https only, and no private, loopback, link-local,
 * carrier-grade NAT or cloud metadata address, whether written as a literal IP or an obvious name.
 */

export type UrlCheck = { ok: true; url: URL } | { ok: false; message: string };

/** Names that always point inside the host or its network. */
const INTERNAL_NAMES = [/^localhost$/, /\.localhost$/, /\.local$/, /\.internal$/, /^metadata(\.google\.internal)?$/, /\.home\.arpa$/];

function ipv4Octets(host: string): number[] | null {
  const parts = host.split(".");
  if (parts.length !== 4) return null;
  const octets = parts.map((p) => (/^\d{1,3}$/.test(p) ? Number(p) : Number.NaN));
  return octets.every((o) => o >= 0 && o <= 255) ? octets : null;
}

function isPrivateIpv4([a, b]: number[]): boolean {
  if (a === undefined || b === undefined) return true;
  return (
    a === 0 || // "this" network
    a === 10 ||
    a === 127 || // loopback
    (a === 100 && b >= 64 && b <= 127) || // carrier-grade NAT
    (a === 169 && b === 254) || // link-local, including the 169.254.169.254 metadata service
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0) ||
    (a === 198 && (b === 18 || b === 19)) || // benchmarking
    a >= 224 // multicast and reserved
  );
}

function isPrivateIpv6(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  if (h === "::" || h === "::1") return true;
  // IPv4-mapped (::ffff:a.b.c.d or ::ffff:xxxx:xxxx as the URL parser writes it): judge the IPv4 address.
  const mapped = h.match(/^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/);
  if (mapped?.[1] && mapped[2]) {
    const hi = Number.parseInt(mapped[1], 16);
    const lo = Number.parseInt(mapped[2], 16);
    return isPrivateIpv4([hi >> 8, hi & 255, lo >> 8, lo & 255]);
  }
  return /^f[cd]/.test(h) || /^fe[89ab]/.test(h) || /^ff/.test(h) || h.startsWith("fec0") || h === "fd00:ec2::254";
}

/** Whether the host is a loopback, private, link-local or metadata address or name. */
export function isInternalHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  if (host.startsWith("[")) return isPrivateIpv6(host);
  const v4 = ipv4Octets(host);
  if (v4) return isPrivateIpv4(v4);
  // A bare number or hex form is an IP address some resolvers accept: refuse it outright.
  if (/^(0x[0-9a-f]+|\d+)$/.test(host)) return true;
  return INTERNAL_NAMES.some((re) => re.test(host));
}

/**
 * Checks a webhook URL. Why: the worker POSTs to it with the project's data, so outside
 * development it must not reach the platform's own network (SSRF) and must be encrypted in transit.
 */
export function checkWebhookUrl(raw: string, options: { development: boolean }): UrlCheck {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: "url must be an absolute http(s) URL." };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { ok: false, message: "url must use https." };
  if (url.username || url.password) return { ok: false, message: "url must not contain a user name or password." };
  if (options.development) return { ok: true, url };
  if (url.protocol !== "https:") return { ok: false, message: "url must use https." };
  if (isInternalHost(url.hostname))
    return { ok: false, message: "url must not point at a private, loopback, link-local or metadata address." };
  return { ok: true, url };
}

/**
 * Which URLs a webhook may be sent to: checked when an endpoint is created or updated, and again
 * before every send. Outside development: https only, and no private, loopback, link-local,
 * carrier-grade NAT or cloud metadata address, whether written as a literal IP or an obvious name.
 */

export type UrlCheck = { ok: true; url: URL } | { ok: false; message: string };

/**
 * Names that always point inside the host or its network. Single-label names (`intranet`,
 * `instance-data`, `metadata`) are refused as a whole: a public name always has a dot.
 */
const INTERNAL_NAMES = [
  /^[^.]+$/,
  /\.localhost$/,
  /\.local$/,
  /\.internal$/,
  /\.home\.arpa$/,
  /^metadata\.goog$/, // Google Cloud's metadata server, beside metadata.google.internal
];

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

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 counts as two), or null. */
function ipv6Groups(text: string): number[] | null {
  let h = text;
  const tail: number[] = [];
  const dotted = h.match(/^(.*:)(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted?.[1] && dotted[2]) {
    const v4 = ipv4Octets(dotted[2]);
    if (!v4) return null;
    tail.push(((v4[0]! << 8) | v4[1]!) >>> 0, ((v4[2]! << 8) | v4[3]!) >>> 0);
    h = dotted[1].endsWith("::") ? dotted[1] : dotted[1].slice(0, -1);
  }
  const halves = h.split("::");
  if (halves.length > 2) return null;
  const parse = (s: string) => (s === "" ? [] : s.split(":").map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? Number.parseInt(g, 16) : Number.NaN)));
  const head = parse(halves[0]!);
  const rest = halves.length === 2 ? parse(halves[1]!) : [];
  const given = head.length + rest.length + tail.length;
  if ([...head, ...rest].some(Number.isNaN)) return null;
  if (halves.length === 1 ? given !== 8 : given > 7) return null;
  return [...head, ...Array(8 - given).fill(0), ...rest, ...tail];
}

const v4Of = (hi: number, lo: number) => [hi >> 8, hi & 255, lo >> 8, lo & 255];

/**
 * Why IPv4 inside IPv6 is unwrapped: `[::127.0.0.1]`, `[::ffff:0:127.0.0.1]`, `[64:ff9b::7f00:1]`
 * (NAT64) and `[2002:7f00:1::]` (6to4) all lead to 127.0.0.1 on a host or network that routes them.
 */
function isPrivateIpv6(host: string): boolean {
  const g = ipv6Groups(host.replace(/^\[|\]$/g, "").toLowerCase());
  if (!g) return true; // not an address we can read: refuse rather than guess
  const [a, b, c, d, e, f, hi, lo] = g as [number, number, number, number, number, number, number, number];
  const zeroTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeroTo(6)) return isPrivateIpv4(v4Of(hi, lo)); // ::, ::1 (0.0.0.1) and IPv4-compatible ::a.b.c.d
  if (zeroTo(5) && f === 0xffff) return isPrivateIpv4(v4Of(hi, lo)); // IPv4-mapped ::ffff:a.b.c.d
  if (zeroTo(4) && e === 0xffff && f === 0) return isPrivateIpv4(v4Of(hi, lo)); // IPv4-translated ::ffff:0:a.b.c.d
  if (a === 0x64 && b === 0xff9b && c === 0 && d === 0 && e === 0 && f === 0) return isPrivateIpv4(v4Of(hi, lo)); // NAT64 64:ff9b::/96
  if (a === 0x64 && b === 0xff9b && c === 1) return true; // local-use NAT64 64:ff9b:1::/48: a network's own translator
  if (a === 0x2002) return isPrivateIpv4(v4Of(b, c)); // 6to4 2002:AABB:CCDD::/48
  if (a === 0x2001 && (b === 0 || b === 0xdb8)) return true; // Teredo, documentation
  if (a === 0x100 && b === 0 && c === 0 && d === 0) return true; // discard-only 100::/64
  // Unique local fc00::/7, link-local fe80::/10, site-local fec0::/10, multicast ff00::/8.
  return (a & 0xfe00) === 0xfc00 || (a & 0xffc0) === 0xfe80 || (a & 0xffc0) === 0xfec0 || (a & 0xff00) === 0xff00;
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

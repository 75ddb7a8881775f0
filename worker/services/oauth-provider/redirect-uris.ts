/**
 * Matching a request's redirect_uri against the client's registered ones: exact string comparison
 * (RFC 9700 §4.1.3; no prefix or pattern), except that a loopback IP literal's port may differ
 * (RFC 8252 §7.3: native apps listen on whatever port the OS gives them).
 */

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]"]);

function loopbackParts(uri: string): { path: string; search: string; host: string } | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" || !LOOPBACK_HOSTS.has(url.hostname) || url.username || url.password || url.hash) return null;
  return { host: url.hostname, path: url.pathname, search: url.search };
}

/** True when `given` is one of `registered`, or the same loopback http URL with another port. */
export function matchesRegisteredRedirectUri(registered: readonly string[], given: string): boolean {
  if (registered.includes(given)) return true;
  const g = loopbackParts(given);
  if (!g) return false;
  return registered.some((r) => {
    const p = loopbackParts(r);
    return p !== null && p.host === g.host && p.path === g.path && p.search === g.search;
  });
}

/** A redirect_uri a browser can be sent to: absolute, no fragment (RFC 6749 §3.1.2), no credentials. */
export function isUsableRedirectUri(uri: string): boolean {
  try {
    const url = new URL(uri);
    return !uri.includes("#") && !url.username && !url.password && url.protocol !== "javascript:" && url.protocol !== "data:";
  } catch {
    return false;
  }
}

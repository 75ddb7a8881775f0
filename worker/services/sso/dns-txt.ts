/**
 * TXT records through DNS-over-HTTPS (issue 31, ADMIN): the JSON form that Cloudflare's and
 * Google's resolvers answer (`GET ?name=…&type=TXT`, `accept: application/dns-json`; RFC 8484
 * defines the wire format, the JSON API is the resolvers' documented companion). One bounded call
 * (lib/outbound-fetch.ts: 5 s, 64 KiB, no redirect); a resolver that fails, hangs or floods is
 * "unavailable", never a hang, and never taken for "no record" (the re-check must not lose a domain
 * because a resolver hiccuped).
 */
import { boundedFetch } from "../../lib/outbound-fetch";
import type { Deps } from "../deps";

export type TxtLookup = { ok: true; values: string[] } | { ok: false; message: string };

/** DNS RCODEs: NOERROR (the name exists; its TXT records may be none) and NXDOMAIN (no such name: no record). */
const NOERROR = 0;
const NXDOMAIN = 3;
const TXT_TYPE = 16;

/**
 * One TXT record's text: the resolvers send its character-strings quoted (`"v=1" "more"`, joined
 * into one value as RFC 7208 §3.3 reads them); an unquoted answer is taken as it is.
 */
export function txtRecordText(data: string): string {
  const trimmed = data.trim();
  if (!trimmed.startsWith('"')) return trimmed;
  let out = "";
  const quoted = /"((?:[^"\\]|\\.)*)"/g;
  for (let m = quoted.exec(trimmed); m; m = quoted.exec(trimmed)) out += (m[1] ?? "").replace(/\\(.)/g, "$1");
  return out;
}

/** The TXT values published at `name`, as the configured resolver answers them. */
export async function lookupTxt(deps: Deps, name: string): Promise<TxtLookup> {
  let url: URL;
  try {
    url = new URL(deps.config.dohResolverUrl);
  } catch {
    return { ok: false, message: "DOH_RESOLVER_URL is not a URL." };
  }
  url.searchParams.set("name", name);
  url.searchParams.set("type", "TXT");
  const res = await boundedFetch(url, { headers: { accept: "application/dns-json" } }, deps.config.outbound.doh);
  if (!res.ok) return { ok: false, message: res.message };
  if (res.status !== 200) return { ok: false, message: `The resolver answered HTTP ${res.status}.` };
  let answer: unknown;
  try {
    answer = JSON.parse(res.body);
  } catch {
    return { ok: false, message: "The resolver's answer is not JSON." };
  }
  if (typeof answer !== "object" || answer === null) return { ok: false, message: "The resolver's answer is not a DNS JSON object." };
  const { Status: status, Answer: records } = answer as { Status?: unknown; Answer?: unknown };
  if (status === NXDOMAIN) return { ok: true, values: [] };
  if (status !== NOERROR) return { ok: false, message: `The resolver could not answer (DNS status ${String(status)}).` };
  if (records === undefined) return { ok: true, values: [] };
  if (!Array.isArray(records)) return { ok: false, message: "The resolver's Answer is not a list." };
  const values: string[] = [];
  // The resolver follows CNAMEs itself: every TXT record in the answer is the name's (a delegated record included).
  for (const r of records) {
    if (typeof r === "object" && r !== null && (r as { type?: unknown }).type === TXT_TYPE) {
      const data = (r as { data?: unknown }).data;
      if (typeof data === "string") values.push(txtRecordText(data));
    }
  }
  return { ok: true, values };
}

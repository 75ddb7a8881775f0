/**
 * The email domain a team claims (issue 31, ADMIN), as stored: lower case, no trailing dot, ASCII
 * (an internationalised name in its IDNA "xn--" form, as email addresses reach the worker after
 * the SDK's and browsers' own IDNA step), a DNS name of two labels or more, never an IP address,
 * localhost or a public suffix alone ("com", "co.uk", "github.io": nobody owns those for a whole
 * organisation, and their TXT record could not be set by a customer anyway).
 */

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * Public suffixes under which many unrelated parties register names: a claim of the suffix itself is
 * refused. A short list of the common ones, not the whole Public Suffix List: a suffix missing here
 * is still safe, because proving it takes a TXT record under it that no customer can publish.
 */
const PUBLIC_SUFFIXES = new Set(
  [
    "co.uk org.uk ac.uk gov.uk me.uk ltd.uk plc.uk net.uk sch.uk nhs.uk",
    "com.au net.au org.au edu.au gov.au asn.au id.au",
    "co.nz org.nz net.nz govt.nz ac.nz",
    "co.jp ne.jp or.jp ac.jp go.jp",
    "co.kr or.kr ne.kr",
    "com.br net.br org.br gov.br",
    "com.cn net.cn org.cn gov.cn edu.cn",
    "com.hk com.tw com.sg com.my com.ph com.vn com.pk com.ng com.eg com.sa com.tr",
    "co.in net.in org.in gen.in firm.in ind.in",
    "co.za org.za web.za gov.za",
    "com.mx org.mx gob.mx com.ar com.co com.pe com.ve com.uy",
    "co.il org.il ac.il co.id or.id ac.id co.th in.th",
    "com.es nom.es org.es com.pl net.pl org.pl com.pt com.ua com.ru",
    "github.io gitlab.io pages.dev workers.dev vercel.app netlify.app herokuapp.com",
    "appspot.com web.app firebaseapp.com azurewebsites.net cloudfront.net amazonaws.com",
    "blogspot.com wordpress.com myshopify.com fly.dev onrender.com",
  ].flatMap((line) => line.split(" ")),
);

export type DomainNameCheck = { ok: true; domain: string } | { ok: false; message: string };

/** The claimable form of `input`, or why it is not a domain a team can claim. */
export function normaliseClaimedDomain(input: string): DomainNameCheck {
  const raw = input.trim().replace(/\.$/, "");
  if (!raw) return { ok: false, message: "enter a domain such as example.com." };
  if (/[/:@?#\s[\]\\]/.test(raw)) return { ok: false, message: "enter the domain alone, without a scheme, port, path or email address." };
  let host: string;
  try {
    // WHATWG URL parsing applies UTS #46 (IDNA): "bücher.example" becomes "xn--bcher-kva.example".
    host = new URL(`http://${raw}/`).hostname;
  } catch {
    return { ok: false, message: "it is not a valid domain name." };
  }
  if (host.length > 253) return { ok: false, message: "a domain name has at most 253 characters." };
  const labels = host.split(".");
  if (labels.length < 2) return { ok: false, message: "a top-level domain alone cannot be claimed." };
  if (!labels.every((l) => LABEL.test(l))) return { ok: false, message: "it is not a valid domain name." };
  const last = labels[labels.length - 1] ?? "";
  // An all-numeric last label is an IPv4 address (URL parsing already turned any IPv4 form into one).
  if (/^\d+$/.test(last)) return { ok: false, message: "an IP address cannot be claimed." };
  if (last === "localhost" || last === "local" || last === "internal") return { ok: false, message: "a local name cannot be claimed." };
  if (PUBLIC_SUFFIXES.has(host)) return { ok: false, message: "a public suffix cannot be claimed: claim your own domain under it." };
  return { ok: true, domain: host };
}

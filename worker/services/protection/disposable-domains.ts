/**
 * Is an email's domain a disposable (throwaway) mail service? From the bundled community list
 * (disposable-domains.generated.ts; update it with scripts/gen-disposable-domains.mjs). A subdomain of a
 * listed domain counts too (`x.mailinator.com`), as throwaway services hand out subdomains freely.
 */
import { DISPOSABLE_DOMAINS } from "./disposable-domains.generated";

let domains: Set<string> | null = null;

/** The domain part of an email, lower-cased ("" when there is none). */
export function emailDomainOf(email: string): string {
  const at = email.lastIndexOf("@");
  return at >= 0
    ? email
        .slice(at + 1)
        .trim()
        .toLowerCase()
    : "";
}

export function isDisposableDomain(domain: string): boolean {
  // Built once per isolate (~9k entries, well under a millisecond), then O(labels) per lookup.
  domains ??= new Set(DISPOSABLE_DOMAINS.split("\n"));
  const labels = domain.trim().toLowerCase().replace(/\.$/, "").split(".");
  for (let i = 0; i < labels.length - 1; i++) if (domains.has(labels.slice(i).join("."))) return true;
  return false;
}

export function isDisposableEmail(email: string): boolean {
  const domain = emailDomainOf(email);
  return domain !== "" && isDisposableDomain(domain);
}

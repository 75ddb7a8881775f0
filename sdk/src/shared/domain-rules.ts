/**
 * The trusted-domain and production-mode rules of the project config (SPEC §5), with their exact
 * messages. No imports: the worker enforces them on every config write, and the console uses the
 * same functions to show what blocks production mode before the API is asked.
 */

/** The part of the config these rules read. */
export type DomainConfig = { allowLocalhost: boolean; domains: { domain: string }[] };

const WILDCARD_HOST = /^[a-zA-Z0-9*.-]+$/;

/** Hostname of a trusted-domain entry (a full URL, whose host may hold `*` and whose port may be `*`), or null. */
export function domainHost(domain: string): string | null {
  const match = /^([a-z][a-z0-9+.-]*):\/\/([^/:?#]+)(:(?:\d+|\*))?(\/[^?#]*)?$/i.exec(domain.trim());
  return match ? match[2]!.toLowerCase() : null;
}

/** Non-empty, no leading/trailing or double dot, a valid hostname; `*` allowed. */
export function isValidDomainHost(host: string): boolean {
  if (!host || host.startsWith(".") || host.endsWith(".") || host.includes("..")) return false;
  if (host.includes("*")) return WILDCARD_HOST.test(host);
  try {
    return new URL(`http://${host}`).hostname === host.toLowerCase();
  } catch {
    return false;
  }
}

export function isLocalhostHost(host: string): boolean {
  return host === "localhost" || host.endsWith(".localhost") || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

function isIpHost(host: string): boolean {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.startsWith("[");
}

/** Why one trusted-domain entry is not valid in any mode, or null when it is. */
export function domainError(domain: string): string | null {
  const host = domainHost(domain);
  return host && isValidDomainHost(host) ? null : `Trusted domain is not a valid URL: ${domain}`;
}

/** The production-mode checks, with the API's messages; empty when nothing blocks production mode. */
export function productionModeErrors(config: DomainConfig): string[] {
  const errors: string[] = [];
  if (config.allowLocalhost) errors.push("Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings.");
  for (const { domain } of config.domains) {
    const host = domainHost(domain);
    if (!host || !isValidDomainHost(host)) {
      errors.push(`Trusted domain is not a valid URL: ${domain}`);
      continue;
    }
    if (isLocalhostHost(host)) errors.push("Localhost domains are not allowed to be trusted in production mode.");
    else if (isIpHost(host)) errors.push("Direct IPs are not valid for trusted domains in production mode.");
    else if (!domain.trim().toLowerCase().startsWith("https://")) errors.push("Trusted domains should be HTTPS.");
  }
  return errors;
}

/** A production check that blocks production mode, with the console page (under the project) that fixes it. */
export type ProductionCheck = { message: string; page: "domains" | "webhooks" | "emails" | "payments" };

/** What the development-leftover checks read: the webhook endpoints' URLs, the SMTP host (null: the shared server) and test mode. */
export type LeftoverConfig = { webhookUrls: string[]; smtpHost: string | null; paymentsTestMode: boolean };

/** The host tests the checks use; the worker passes its own stricter ones (services/webhooks/urls.ts). */
export type HostRules = { isPublicHttpsUrl: (url: string) => boolean; isInternalHost: (host: string) => boolean };

function privateIpv4(host: string): boolean {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!m) return false;
  const [a, b] = [Number(m[1]), Number(m[2])];
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    a >= 224
  );
}

/** Loopback, private, link-local or an internal name (no dot, .localhost, .local, .internal, .home.arpa). */
export function isInternalHostName(hostname: string): boolean {
  const host = hostname.trim().toLowerCase().replace(/\.$/, "");
  const v6 = host.replace(/^\[|\]$/g, "");
  if (v6.includes(":")) return v6 === "::" || v6 === "::1" || /^f[cd]/.test(v6) || /^fe[89ab]/.test(v6) || v6.startsWith("::ffff:");
  if (privateIpv4(host)) return true;
  return !host.includes(".") || /\.(localhost|local|internal|home\.arpa)$/.test(host);
}

/** An https URL whose host is not internal. */
export function isPublicHttpsUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" && !isInternalHostName(parsed.hostname);
  } catch {
    return false;
  }
}

const sharedHostRules: HostRules = { isPublicHttpsUrl, isInternalHost: isInternalHostName };

/**
 * Development leftovers that block production mode: a webhook endpoint that is not public https, an
 * SMTP server on loopback or a private network, and payments in test mode (the public test card pays).
 */
export function leftoverChecks(config: LeftoverConfig, rules: HostRules = sharedHostRules): ProductionCheck[] {
  const checks: ProductionCheck[] = [];
  for (const url of config.webhookUrls)
    if (!rules.isPublicHttpsUrl(url))
      checks.push({
        message: `Webhook endpoint ${url} is not a public HTTPS URL: production webhooks must go to a public https address.`,
        page: "webhooks",
      });
  if (config.smtpHost !== null && rules.isInternalHost(config.smtpHost))
    checks.push({
      message: `The SMTP server ${config.smtpHost} is on this machine or a private network: use your email provider's public SMTP server.`,
      page: "emails",
    });
  if (config.paymentsTestMode)
    checks.push({ message: "Payments are in test mode: anyone can pay with the public test card. Turn test mode off.", page: "payments" });
  return checks;
}

/** Every check that blocks production mode (the trusted-domain rules, then the leftovers), with its fix-it page. */
export function productionChecks(domains: DomainConfig, leftovers: LeftoverConfig, rules?: HostRules): ProductionCheck[] {
  return [...productionModeErrors(domains).map((message) => ({ message, page: "domains" as const })), ...leftoverChecks(leftovers, rules)];
}

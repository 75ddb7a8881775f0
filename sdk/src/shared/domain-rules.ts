/**
 * The trusted-domain and production-mode rules of the project config (SPEC §5), with their exact
 * messages. No imports: the worker enforces them on every config write, and the console uses the
 * same functions to show what blocks production mode before the API is asked.
 */

/** The part of the config these rules read. */
export type DomainConfig = { allowLocalhost: boolean; domains: { domain: string }[] };

const WILDCARD_HOST = /^[a-zA-Z0-9*.-]+$/;

/** Hostname of a trusted-domain entry (a full URL, whose host may hold `*`), or null. */
export function domainHost(domain: string): string | null {
  const match = /^([a-z][a-z0-9+.-]*):\/\/([^/:?#]+)(:\d+)?(\/[^?#]*)?$/i.exec(domain.trim());
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

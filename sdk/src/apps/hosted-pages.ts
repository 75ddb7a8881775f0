/**
 * Hosted pages (issue 28): the admin calls of a project's hosted pages settings (its hosted URL and
 * custom domain; StackAdminApp delegates here), and the public lookup a host of the pages (the
 * Doorman web app) uses to find the project of a request by its id or its Host.
 */
import type { HostedPagesAdminJson, HostedPagesJson } from "../shared/wire-hosted-pages";

type AdminRequest = <T>(path: string, options?: { method?: string; body?: unknown }) => Promise<T>;

export type HostedPagesSettings = {
  /** The hosted sign-in page on Doorman's web origin. */
  hostedUrl: string;
  /** The mapped custom domain (e.g. "auth.example.com"), or null. */
  customDomain: string | null;
};

const settingsFromJson = (json: HostedPagesAdminJson): HostedPagesSettings => ({
  hostedUrl: json.hosted_url,
  customDomain: json.custom_domain,
});

export async function getHostedPagesSettings(request: AdminRequest): Promise<HostedPagesSettings> {
  return settingsFromJson(await request<HostedPagesAdminJson>("/internal/hosted-pages"));
}

export async function setCustomDomain(request: AdminRequest, hostname: string): Promise<HostedPagesSettings> {
  return settingsFromJson(
    await request<HostedPagesAdminJson>("/internal/hosted-pages/custom-domain", { method: "PUT", body: { hostname } }),
  );
}

export async function removeCustomDomain(request: AdminRequest): Promise<HostedPagesSettings> {
  return settingsFromJson(await request<HostedPagesAdminJson>("/internal/hosted-pages/custom-domain", { method: "DELETE" }));
}

export type HostedPages = {
  projectId: string;
  displayName: string;
  logoUrl: string | null;
  /** The publishable key the hosted pages use (public, like any publishable key). */
  publishableClientKey: string;
  customDomain: string | null;
  /** The first trusted domain's base URL, or null. */
  defaultReturnUrl: string | null;
  /** The asked return URL when the project trusts it, else null. */
  returnTo: string | null;
  /** Origins the pages may redirect to. */
  trustedOrigins: string[];
};

/**
 * The project a hosted page belongs to, by id or by Host; null when there is none (a 404 page).
 *
 * @example
 * const pages = await lookupHostedPages({ baseUrl: "https://auth.doorman.dev", host: "auth.example.com" });
 */
export async function lookupHostedPages(options: {
  baseUrl: string;
  projectId?: string;
  host?: string;
  returnTo?: string;
  fetch?: (request: globalThis.Request) => Promise<Response>;
}): Promise<HostedPages | null> {
  const url = new URL("/api/v1/hosted-pages", options.baseUrl);
  if (options.projectId) url.searchParams.set("project_id", options.projectId);
  if (options.host) url.searchParams.set("host", options.host);
  if (options.returnTo) url.searchParams.set("return_to", options.returnTo);
  const doFetch = options.fetch ?? ((r: globalThis.Request) => fetch(r));
  const res = await doFetch(new globalThis.Request(url));
  if (res.status === 404) return null;
  const json = (await res.json()) as HostedPagesJson & { code?: string; error?: string };
  if (!res.ok) {
    if (json.code === "SCHEMA_ERROR") return null;
    throw new Error(`GET /hosted-pages answered ${res.status}: ${json.error ?? ""}`);
  }
  return {
    projectId: json.project_id,
    displayName: json.display_name,
    logoUrl: json.logo_url,
    publishableClientKey: json.publishable_client_key,
    customDomain: json.custom_domain,
    defaultReturnUrl: json.default_return_url,
    returnTo: json.return_to,
    trustedOrigins: json.trusted_origins,
  };
}

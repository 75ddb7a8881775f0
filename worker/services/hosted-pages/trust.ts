/**
 * Which redirect and callback URLs a project trusts: its trusted domains (isTrustedUrl), and its own
 * hosted pages: `/p/{projectId}/handler/…` on Doorman's web origin, and `/handler/…` on the custom
 * domain it maps. Never another project's pages: a code or token must not land on someone else's page.
 */
import { hostedHandlerPath } from "@doorman/shared/hosted-pages";
import { findProjectIdByHostname } from "../../db/queries/custom-domains";
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { isTrustedUrl, readProjectConfig } from "../project-config/flat";

/** The origin that serves every project's hosted pages (the web app's; by default the API's own). */
export function hostedPagesOrigin(deps: Deps): string {
  return (deps.config.webAppUrl ?? deps.apiUrl).replace(/\/+$/, "");
}

function isUnder(pathname: string, base: string): boolean {
  return pathname === base || pathname.startsWith(`${base}/`);
}

function parseHttpUrl(url: string): URL | null {
  try {
    const parsed = new URL(url);
    // No credentials: `https://doorman@evil.example` must not pass as a URL "on" a trusted host.
    if ((parsed.protocol !== "http:" && parsed.protocol !== "https:") || parsed.username || parsed.password) return null;
    return parsed;
  } catch {
    return null;
  }
}

/** True when `url` is one of this project's own hosted pages (on the web origin or on its custom domain). */
export async function isOwnHostedPageUrl(deps: Deps, projectId: string, url: string): Promise<boolean> {
  const parsed = parseHttpUrl(url);
  if (!parsed) return false;
  // A mapped hostname is its project's alone, whatever else it looks like: without API_URL Doorman's own
  // origin is the request's, which may be a custom domain, and its owner controls where that name points.
  const owner = await findProjectIdByHostname(deps.db, parsed.hostname);
  if (owner !== null) {
    // Custom domains are https in production; plain http only on a development worker (local e2e).
    const secure = parsed.protocol === "https:" || deps.config.environment === "development";
    return owner === projectId && secure && isUnder(parsed.pathname, "/handler");
  }
  // The URL parser has already resolved `..` and `%2e%2e` segments, so the prefix check cannot be walked out of.
  return parsed.origin === new URL(hostedPagesOrigin(deps)).origin && isUnder(parsed.pathname, hostedHandlerPath(projectId));
}

/**
 * Is `url` a trusted redirect/callback target for `project`? Its trusted domains (or localhost when
 * allowed), else its own hosted pages. Open redirects leak codes and tokens.
 */
export async function isTrustedRedirectUrl(deps: Deps, project: Pick<ProjectRow, "id" | "config">, url: string): Promise<boolean> {
  if (isTrustedUrl(readProjectConfig(project.config), url)) return true;
  return isOwnHostedPageUrl(deps, project.id, url);
}

/**
 * Where a project's hosted handler pages live on Doorman's web origin (issue 28): every project has
 * the full set at `/p/{projectId}/handler/{page}`, and the internal project keeps `/handler/{page}`.
 * A custom domain mapped to a project serves the same pages at its own `/handler/{page}`.
 * Shared by the worker (trusting a project's own hosted pages), the SDK (sending users there) and the console.
 */
import { DEFAULT_HANDLER_PATH, INTERNAL_PROJECT_ID } from "./constants";

/** The path prefix of the hosted pages on the Doorman origin, e.g. "/p/3f9c…/handler". */
export function hostedHandlerPath(projectId: string): string {
  if (projectId === INTERNAL_PROJECT_ID) return DEFAULT_HANDLER_PATH;
  return `/p/${encodeURIComponent(projectId)}${DEFAULT_HANDLER_PATH}`;
}

/**
 * The absolute URL of one hosted page.
 *
 * @example
 * hostedHandlerUrl("https://auth.doorman.dev", "3f9c…", "sign-up"); // "https://auth.doorman.dev/p/3f9c…/handler/sign-up"
 */
export function hostedHandlerUrl(origin: string, projectId: string, page = "sign-in"): string {
  return `${origin.replace(/\/+$/, "")}${hostedHandlerPath(projectId)}/${page}`;
}

/** The `{ domain, handlerPath }` trusted-domain entries as the SDK and console read them. */
export type HandlerDomain = { domain: string; handlerPath: string };

/**
 * The one place that chooses where a project's emails and invitations link: the app's own handler
 * pages on its first trusted domain (`{baseUrl}{handlerPath}/{page}`) when it has one (its handler
 * URLs point at the app), else its custom domain's hosted pages, else the hosted pages on Doorman's origin.
 *
 * @example
 * projectPageUrl({ projectId: "3f9c…", domains: [], hostedOrigin: "https://auth.doorman.dev" }, "sign-in");
 * // "https://auth.doorman.dev/p/3f9c…/handler/sign-in"
 */
export function projectPageUrl(
  project: { projectId: string; domains: readonly HandlerDomain[]; hostedOrigin: string; customDomain?: string | null },
  page: string,
): string {
  const app = project.domains.find((d) => !d.domain.includes("*"));
  if (app) {
    const path = (app.handlerPath || DEFAULT_HANDLER_PATH).replace(/\/+$/, "");
    return `${app.domain.replace(/\/+$/, "")}${path.startsWith("/") ? path : `/${path}`}/${page}`;
  }
  if (project.customDomain) return `https://${project.customDomain}${DEFAULT_HANDLER_PATH}/${page}`;
  return hostedHandlerUrl(project.hostedOrigin, project.projectId, page);
}

const HOST_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * A custom domain as stored (lower case, no trailing dot), or null when `input` is not a plain DNS
 * name of two labels or more: no scheme, port, path, IP address or localhost.
 *
 * @example
 * normaliseCustomHostname("Auth.Example.com"); // "auth.example.com"
 * normaliseCustomHostname("https://auth.example.com"); // null
 */
export function normaliseCustomHostname(input: string): string | null {
  const host = input.trim().toLowerCase().replace(/\.$/, "");
  if (host.length > 253) return null;
  const labels = host.split(".");
  if (labels.length < 2 || !labels.every((l) => HOST_LABEL.test(l))) return null;
  // A numeric last label is an IPv4 address, not a name; localhost names resolve to the visitor's own machine.
  if (/^\d+$/.test(labels[labels.length - 1] ?? "") || labels[labels.length - 1] === "localhost") return null;
  return host;
}

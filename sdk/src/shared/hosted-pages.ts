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

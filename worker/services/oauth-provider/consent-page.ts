/**
 * Where /authorize sends the browser: the project's hosted consent page, `…/oauth-consent?request_id=…`,
 * on its custom domain when it maps one (`https://{domain}/handler/oauth-consent`), else on Doorman's
 * web origin (`{origin}/p/{projectId}/handler/oauth-consent`). The page and its API are the consent
 * feature's; this only names the address.
 */
import { DEFAULT_HANDLER_PATH } from "@doorman/shared/constants";
import { hostedHandlerPath } from "@doorman/shared/hosted-pages";
import { OAUTH_CONSENT_PAGE } from "@doorman/shared/wire-oauth-provider";
import { findCustomDomainOfProject } from "../../db/queries/custom-domains";
import type { Deps } from "../deps";
import { hostedPagesOrigin } from "../hosted-pages/trust";

export async function consentPageUrl(deps: Deps, projectId: string, requestId: string): Promise<string> {
  const customDomain = await findCustomDomainOfProject(deps.db, projectId);
  const base = customDomain
    ? `https://${customDomain}${DEFAULT_HANDLER_PATH}`
    : `${hostedPagesOrigin(deps)}${hostedHandlerPath(projectId)}`;
  return `${base}/${OAUTH_CONSENT_PAGE}?request_id=${encodeURIComponent(requestId)}`;
}

/**
 * A project as an OpenID provider: its issuer and endpoint URLs, its `doorman.oauthProvider`
 * settings, and the scopes it offers. The issuer is the project's JWT issuer
 * (`{API_URL}/api/v1/projects/{id}`), the same `iss` as Doorman's own session tokens.
 */
import { OAUTH_PROVIDER_PATHS, oauthIssuer } from "@doorman/shared/wire-oauth-provider";
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { renderedConfigOf } from "../project-config/cache";
import { type OAuthProviderConfig, STANDARD_SCOPES } from "./config";

/** The project's issuer identifier. */
export function issuerOf(deps: Deps, projectId: string): string {
  return oauthIssuer(deps.apiUrl, projectId);
}

/** The absolute URL of one of the provider's endpoints. */
export function endpointUrl(deps: Deps, projectId: string, endpoint: keyof typeof OAUTH_PROVIDER_PATHS): string {
  return `${issuerOf(deps, projectId)}${OAUTH_PROVIDER_PATHS[endpoint]}`;
}

/** The project's provider settings (they live only in the config overrides). */
export function providerConfigOf(project: ProjectRow): OAuthProviderConfig {
  return renderedConfigOf(project).doorman.oauthProvider;
}

/** Every scope the project offers: the standard ones, then the owner's custom scopes. */
export function offeredScopes(config: OAuthProviderConfig): string[] {
  return [...STANDARD_SCOPES, ...Object.keys(config.scopes)];
}

/**
 * The provider registry: which provider a project's config names, with which keys.
 * - `standard`: the project's own client_id / client_secret (and tenant / config ids).
 * - `shared`: the platform's keys from env `SHARED_OAUTH_<PROVIDER>_CLIENT_ID` / `_CLIENT_SECRET`.
 *   When `OAUTH_MOCK_ISSUER` is set (local dev and tests), every shared provider instead talks to
 *   the bundled OpenID provider at that issuer (client id `MOCK`, PKCE), so sign-in works offline.
 */
import { oauthCallbackUrl } from "@doorman/shared/oauth-providers";
import { OAuth2RequestError, type OAuth2Tokens } from "arctic";
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { type FlatProjectConfig, readProjectConfig } from "../project-config/flat";
import { openConfigSecret } from "../project-config/secrets";
import { fail, type Problem } from "../result";
import { createMockOidcClient, createProviderClient, isProviderId } from "./catalogue";
import type { ProviderClient } from "./provider-types";

export type ProviderTokens = { accessToken: string; refreshToken: string | null; expiresAt: number | null; scopes: string[] };

/** The client id the bundled dev/test OpenID provider knows. */
export const MOCK_CLIENT_ID = "MOCK";

type ProviderConfig = FlatProjectConfig["oauth_providers"][number];

export function findProviderConfig(project: ProjectRow, providerConfigId: string): ProviderConfig | null {
  return readProjectConfig(project.config).oauth_providers.find((p) => p.id === providerConfigId) ?? null;
}

/** Is this provider configured with the platform's shared keys? */
export function isSharedProvider(project: ProjectRow, providerConfigId: string): boolean {
  return findProviderConfig(project, providerConfigId)?.type === "shared";
}

/** Where the provider sends the browser back: our callback, on the public API origin. */
export function providerCallbackUrl(deps: Deps, providerConfigId: string): string {
  return oauthCallbackUrl(deps.apiUrl, providerConfigId);
}

export type ResolvedProvider =
  | { ok: true; client: ProviderClient; shared: boolean }
  | Problem<"oauth_provider_not_enabled" | "oauth_provider_not_configured">;

/** Builds the client for a provider the project has enabled, with the right keys (the project's secret is opened here). */
export async function resolveProvider(deps: Deps, project: ProjectRow, providerConfigId: string): Promise<ResolvedProvider> {
  const config = findProviderConfig(project, providerConfigId);
  if (!config || !isProviderId(config.id)) return fail("oauth_provider_not_enabled");
  const redirectUri = providerCallbackUrl(deps, providerConfigId);
  if (config.type === "shared") {
    // The mock provider signs anyone in as any email: development only (config.ts refuses it in
    // production), so a stray var on a deployed worker cannot open every account.
    const mockIssuer = deps.config.environment === "development" ? deps.config.oauthMockIssuer : null;
    if (mockIssuer)
      return {
        ok: true,
        shared: true,
        client: createMockOidcClient(mockIssuer, { clientId: MOCK_CLIENT_ID, clientSecret: "", redirectUri }, deps.config.outbound.oauth),
      };
    const { clientId, clientSecret, tenantId } = deps.config.sharedOAuth[config.id] ?? {};
    if (!clientId || !clientSecret) return fail("oauth_provider_not_configured");
    const client = createProviderClient(
      config.id,
      {
        clientId,
        clientSecret,
        redirectUri,
        microsoftTenantId: tenantId,
      },
      deps.config.outbound.oauth,
      deps.now,
    );
    return { ok: true, shared: true, client };
  }
  const clientSecret = await openConfigSecret(deps, config.client_secret);
  if (!config.client_id || !clientSecret) return fail("oauth_provider_not_configured");
  const client = createProviderClient(
    config.id,
    {
      clientId: config.client_id,
      clientSecret,
      redirectUri,
      microsoftTenantId: config.microsoft_tenant_id,
      facebookConfigId: config.facebook_config_id,
    },
    deps.config.outbound.oauth,
    deps.now,
  );
  return { ok: true, shared: false, client };
}

/** Normalises arctic's token response; `requestedScopes` stands in when the provider omits `scope`. */
export function providerTokensFrom(tokens: OAuth2Tokens, now: number, requestedScopes: string[]): ProviderTokens {
  const data = tokens.data as Record<string, unknown>;
  return {
    accessToken: tokens.accessToken(),
    refreshToken: tokens.hasRefreshToken() ? tokens.refreshToken() : null,
    expiresAt: typeof data.expires_in === "number" ? now + data.expires_in * 1000 : null,
    scopes: tokens.hasScopes() ? tokens.scopes() : requestedScopes,
  };
}

/**
 * Refreshes a provider access token with the provider's refresh token; null when the provider
 * refuses (revoked/expired grant), cannot be reached, has no refresh grant, or is not enabled.
 */
export async function refreshProviderAccessToken(
  deps: Deps,
  project: ProjectRow,
  providerConfigId: string,
  refreshToken: string,
): Promise<ProviderTokens | null> {
  const resolved = await resolveProvider(deps, project, providerConfigId);
  if (!resolved.ok || !resolved.client.refresh) return null;
  try {
    const tokens = await resolved.client.refresh(refreshToken, []);
    const fresh = providerTokensFrom(tokens, deps.now(), []);
    // Providers that do not rotate refresh tokens omit them: the old one stays valid.
    return { ...fresh, refreshToken: fresh.refreshToken ?? refreshToken };
  } catch (err) {
    if (!(err instanceof OAuth2RequestError)) console.error(`provider ${providerConfigId}: refresh failed`, err);
    return null;
  }
}

/** Config check: the first provider id that is not a supported provider, with its type. */
export function invalidProviderId(config: FlatProjectConfig): { id: string; type: "shared" | "standard" } | null {
  const bad = config.oauth_providers.find((p) => !isProviderId(p.id));
  return bad ? { id: bad.id, type: bad.type } : null;
}

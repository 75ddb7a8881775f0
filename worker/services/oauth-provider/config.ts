/**
 * The OpenID provider's keys of the config, `doorman.oauthProvider.*` (a Doorman extension; issue 30).
 * Every project is an OAuth 2.1 / OpenID Connect provider; these keys say what third-party apps may do:
 * - `enabled`: off = discovery still answers, but /authorize and /token refuse every client;
 * - `dynamicRegistration`: RFC 7591 open registration at `{issuer}/oauth/register` (off by default);
 * - `clientIdMetadataDocuments`: client ids that are https URLs (CIMD, MCP 2025-11) (off by default);
 * - `scopes`: the owner's custom scopes, beside openid/profile/email/offline_access (and `team`);
 * - `resources`: the resource indicators (RFC 8707) tokens may be bound to; empty = any https URL;
 * - token lifetimes.
 * They live only in the overrides (read with renderedConfigOf(project).doorman.oauthProvider).
 */
import { CUSTOM_SCOPE_NAME, isStandardScope } from "@doorman/shared/oauth-scopes";
import { z } from "zod";

export { CUSTOM_SCOPE_NAME, STANDARD_SCOPES, type StandardScope } from "@doorman/shared/oauth-scopes";

export const oauthProviderConfigSchema = z.strictObject({
  enabled: z.boolean(),
  dynamicRegistration: z.boolean(),
  clientIdMetadataDocuments: z.boolean(),
  /** Custom scopes: name → what the consent page says it allows. Standard scope names are refused. */
  scopes: z
    .record(
      z
        .string()
        .regex(CUSTOM_SCOPE_NAME, "a scope name is letters, digits and _ . : / - (at most 64)")
        .refine((s) => !isStandardScope(s), "standard scopes cannot be redefined"),
      z.strictObject({ description: z.string().min(1).max(200) }),
    )
    .refine((r) => Object.keys(r).length <= 50, "at most 50 custom scopes"),
  /** Allowed RFC 8707 resource indicators (absolute URLs without a fragment); empty = any. */
  resources: z.array(z.string().url().max(512)).max(50),
  accessTokenTtlSeconds: z.number().int().min(60).max(86_400),
  refreshTokenTtlDays: z.number().int().min(1).max(365),
});
export type OAuthProviderConfig = z.infer<typeof oauthProviderConfigSchema>;

/** The defaults: on, with registration by owners only. */
export function defaultOAuthProviderConfig(): OAuthProviderConfig {
  return {
    enabled: true,
    dynamicRegistration: false,
    clientIdMetadataDocuments: false,
    scopes: {},
    resources: [],
    accessTokenTtlSeconds: 3600,
    refreshTokenTtlDays: 30,
  };
}

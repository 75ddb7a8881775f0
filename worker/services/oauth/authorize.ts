/**
 * GET /auth/oauth/authorize/{provider} (wire §5 "OAuth"): checks the SDK's request, stores the
 * outer info under a fresh inner state (a 10-minute one-time code; only its hash is stored) and
 * builds the provider's authorization URL, with our own PKCE verifier toward the provider.
 */

import { verifyAccessToken } from "../../crypto/access-tokens";
import { encryptAtRest } from "../../crypto/at-rest";
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { isTrustedRedirectUrl } from "../hosted-pages/trust";
import { type BotChallengeFields, checkBotChallenge } from "../protection/bot-challenge";
import { fail, type Problem } from "../result";
import { issueCode } from "../verification-codes";
import { checkOAuthClient } from "./client-check";
import type { CodeChallengeMethod } from "./pkce";
import { resolveProvider } from "./providers";

export const OUTER_STATE_TTL_MS = 10 * 60 * 1000;

/** The outer info, stored in the inner-state code's `data` until the provider calls back. */
export type OuterInfo = {
  provider_config_id: string;
  redirect_uri: string;
  state: string;
  scope: string;
  grant_type: string;
  response_type: string;
  code_challenge: string;
  code_challenge_method: CodeChallengeMethod;
  /** Our PKCE verifier toward the provider, sealed (it is a secret until the exchange). */
  inner_verifier_sealed: string;
  type: "authenticate" | "link";
  user_id: string | null;
  provider_scope: string | null;
  error_redirect_url: string | null;
  after_callback_redirect_url: string | null;
  response_mode: "json" | "redirect";
  /** The Turnstile assessment of the authorize request, for the sign-up rules at the callback (absent: none made). */
  turnstile_result?: "ok" | "invalid" | "error";
};

export type AuthorizeInput = {
  providerId: string;
  clientId: string;
  clientSecret: string | undefined;
  redirectUri: string;
  scope: string;
  state: string;
  grantType: string;
  responseType: string;
  codeChallenge: string;
  codeChallengeMethod: CodeChallengeMethod;
  type: "authenticate" | "link";
  token: string | undefined;
  providerScope: string | undefined;
  errorRedirectUrl: string | undefined;
  afterCallbackRedirectUrl: string | undefined;
  responseMode: "json" | "redirect";
  /** The bot_challenge_* query params. */
  botChallenge?: BotChallengeFields;
  /** The risk score asks for a token even where OAuth does not require one (the risk signals' say; false until wired). */
};

export type AuthorizeResult =
  | { ok: true; location: string; innerState: string }
  | Problem<
      | "invalid_oauth_client"
      | "publishable_key_required"
      | "invalid_publishable_key"
      | "untrusted_url"
      | "oauth_provider_not_enabled"
      | "oauth_invalid_scope"
      | "oauth_link_requires_token"
      | "oauth_pkce_plain_refused"
      | "oauth_extra_scope_shared"
      | "oauth_token_invalid"
      | "oauth_token_expired"
      | "oauth_token_wrong_project"
      | "bot_challenge_required"
      | "bot_challenge_failed"
    >;

/** The redirect URI as stored in the outer info (a fragment never reaches a server). */
export function withoutHash(url: string): string {
  const parsed = new URL(url);
  parsed.hash = "";
  return parsed.toString();
}

export type OuterClientCheck =
  | { ok: true; project: ProjectRow }
  | Problem<
      "invalid_oauth_client" | "publishable_key_required" | "invalid_publishable_key" | "oauth_invalid_scope" | "oauth_pkce_plain_refused"
    >;

/** The outer request's client, scope and PKCE checks: shared by this start and the SSO start (services/sso/authorize.ts). */
export async function checkOuterClient(
  deps: Deps,
  input: Pick<AuthorizeInput, "clientId" | "clientSecret" | "scope" | "codeChallengeMethod">,
): Promise<OuterClientCheck> {
  const client = await checkOAuthClient(deps, input.clientId, input.clientSecret, "invalid_publishable_key");
  if (!client.ok) return client;
  if (input.scope !== "legacy") return fail("oauth_invalid_scope");
  // ASVS 10.4.6: with `plain` the challenge is the verifier itself, so whoever reads the authorize URL
  // (history, logs, a proxy) can redeem the code. Only projects in development mode accept it (the wire's e2e clients use it).
  if (input.codeChallengeMethod === "plain" && client.project.isProductionMode) return fail("oauth_pkce_plain_refused");
  return client;
}

export async function startAuthorization(deps: Deps, input: AuthorizeInput): Promise<AuthorizeResult> {
  const client = await checkOuterClient(deps, input);
  if (!client.ok) return client;
  const project: ProjectRow = client.project;

  const provider = await resolveProvider(deps, project, input.providerId);
  if (!provider.ok) {
    if (provider.reason === "oauth_provider_not_configured") console.warn(`OAuth provider ${input.providerId}: no keys configured`);
    return fail("oauth_provider_not_enabled");
  }
  // The redirect URLs are checked against the trusted domains at the callback, as the reference does,
  // before anything (a code, the browser) is sent to them (services/oauth/callback.ts); the
  // after-callback URL already here, as the wire refuses it at this step.
  if (input.afterCallbackRedirectUrl && !(await isTrustedRedirectUrl(deps, project, input.afterCallbackRedirectUrl)))
    return fail("untrusted_url");
  const extraScopes = (input.providerScope ?? "").split(/\s+/).filter(Boolean);
  // The platform's shared app must not be granted arbitrary scopes on a project's behalf.
  if (provider.shared && extraScopes.length > 0) return fail("oauth_extra_scope_shared");
  // After the cheap checks, before a code is issued: a bot gets no outer state to replay.
  const challenge = await checkBotChallenge(deps, project, "oauth", input.botChallenge ?? {}, {});
  if (!challenge.ok) return challenge;

  let userId: string | null = null;
  if (input.token) {
    const decoded = await verifyAccessToken(deps.tokenKeys, input.token, deps.now());
    if (!decoded.ok) {
      // An expired token is told apart (ACCESS_TOKEN_EXPIRED), so the SDK refreshes and retries.
      if (decoded.reason === "expired")
        return fail("oauth_token_expired", {
          details: {
            expired_at_millis: decoded.expiredAtMs,
            project_id: decoded.projectId,
            user_id: decoded.userId,
            refresh_token_id: decoded.refreshTokenId,
          },
        });
      return fail("oauth_token_invalid");
    }
    if (decoded.claims.project_id !== project.id)
      return fail("oauth_token_wrong_project", { expected: project.id, actual: decoded.claims.project_id });
    userId = decoded.claims.sub;
  }
  if (input.type === "link" && !userId) return fail("oauth_link_requires_token");

  const innerVerifier = deps.random.code(64);
  const outer: OuterInfo = {
    provider_config_id: input.providerId,
    redirect_uri: withoutHash(input.redirectUri),
    state: input.state,
    scope: input.scope,
    grant_type: input.grantType,
    response_type: input.responseType,
    code_challenge: input.codeChallenge,
    code_challenge_method: input.codeChallengeMethod,
    inner_verifier_sealed: await encryptAtRest(deps.tokenKeys.secret, innerVerifier),
    type: input.type,
    user_id: userId,
    provider_scope: extraScopes.length ? extraScopes.join(" ") : null,
    error_redirect_url: input.errorRedirectUrl ?? null,
    after_callback_redirect_url: input.afterCallbackRedirectUrl ?? null,
    response_mode: input.responseMode,
    ...(challenge.assessment ? { turnstile_result: challenge.assessment.status } : {}),
  };
  // The inner state is a one-time code: unguessable, stored hashed, expires in 10 minutes.
  const inner = await issueCode(deps, project.id, "oauth_outer_state", outer, OUTER_STATE_TTL_MS);
  const scopes = [...new Set([...provider.client.defaultScopes, ...extraScopes])];
  const location = provider.client.authorizationUrl(inner.code, innerVerifier, scopes).toString();
  return { ok: true, location, innerState: inner.code };
}

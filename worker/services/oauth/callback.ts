/**
 * GET|POST /auth/oauth/callback/{provider}: the provider returns here. Checks the inner state
 * (one-time, 10 minutes, plus the inner cookie in redirect mode), exchanges the provider's code
 * with our PKCE verifier, stores the provider tokens sealed, resolves the user, and issues the
 * outer authorization code for the SDK's redirect URI.
 */
import { ArcticFetchError, OAuth2RequestError } from "arctic";
import { openSealed } from "../../crypto/at-rest";
import { sha256Hex } from "../../crypto/hash";
import { findProjectIdOfCode } from "../../db/queries/verification-codes";
import type { Deps } from "../deps";
import { isTrustedRedirectUrl } from "../hosted-pages/trust";
import { fail, type Problem } from "../result";
import { loadProject } from "../seed";
import { issueCode, redeemCode, spendCheckedCode } from "../verification-codes";
import { type ResolveResult, resolveOAuthUser } from "./account-resolution";
import type { OuterInfo } from "./authorize";
import type { ProviderUser } from "./provider-types";
import { type ProviderTokens, providerTokensFrom, resolveProvider } from "./providers";
import { sealProviderToken } from "./tokens";
import { ProviderApiError } from "./user-info";

/** How long the SDK has to exchange the outer code (the OAuth library default: 5 minutes). */
export const AUTHORIZATION_CODE_TTL_MS = 5 * 60 * 1000;

export type CallbackInput = {
  providerId: string;
  state: string;
  code: string | undefined;
  providerError: string | undefined;
  /** Does the browser carry `stack-oauth-inner-{state}`? (set by authorize in redirect mode) */
  hasInnerCookie: (innerState: string) => boolean;
};

type BeforeOuter = Problem<"oauth_state_invalid" | "oauth_outer_timeout" | "oauth_inner_cookie_missing" | "untrusted_url">;
type AfterOuter = Exclude<ResolveResult, { ok: true }> | Problem<OuterProblem>;
type OuterProblem =
  | "oauth_provider_not_enabled"
  | "oauth_provider_access_denied"
  | "oauth_provider_unavailable"
  | "oauth_provider_rejected_code";

export type CallbackResult =
  | { ok: true; location: string }
  | BeforeOuter
  /** Problems once the outer info is known: rendered as a redirect to its error URL. */
  | (AfterOuter & { errorRedirectUrl: string });

export async function completeOAuthCallback(deps: Deps, input: CallbackInput): Promise<CallbackResult> {
  // The callback URL names no project: the inner state's (hashed) code row says which.
  const projectId = /^[0-9a-z]{45}$/i.test(input.state)
    ? await findProjectIdOfCode(deps.db, "oauth_outer_state", await sha256Hex(input.state.toLowerCase()))
    : null;
  const project = projectId ? await loadProject(deps, projectId) : null;
  if (!project) return fail("oauth_state_invalid");
  const peek = await redeemCode(deps, project.id, "oauth_outer_state", input.state, false);
  if (!peek.ok) return fail(peek.reason === "code_expired" ? "oauth_outer_timeout" : "oauth_state_invalid");
  const outer = peek.row.data as OuterInfo;
  if (outer.provider_config_id !== input.providerId) return fail("oauth_state_invalid");
  // Redirect mode: the state must come back to the same browser that started (login CSRF).
  if (outer.response_mode === "redirect" && !input.hasInnerCookie(input.state)) return fail("oauth_inner_cookie_missing");
  // One use only: a replayed provider callback cannot mint a second code.
  const used = await spendCheckedCode(deps, peek.row);
  if (!used.ok) return fail("oauth_state_invalid");

  // Every URL the browser (and a code) will go to must be the project's own by its trusted domains
  // now; an untrusted one is answered here, never redirected to (REDIRECT_URL_NOT_WHITELISTED).
  for (const url of [outer.redirect_uri, outer.error_redirect_url, outer.after_callback_redirect_url]) {
    if (url && !(await isTrustedRedirectUrl(deps, project, url))) return fail("untrusted_url");
  }

  const errorRedirectUrl = outer.error_redirect_url ?? outer.redirect_uri;
  const redirected = (problem: AfterOuter): CallbackResult => ({ ...problem, errorRedirectUrl });
  if (input.providerError || !input.code) return redirected(fail("oauth_provider_access_denied"));

  const provider = await resolveProvider(deps, project, input.providerId);
  if (!provider.ok) return redirected(fail("oauth_provider_not_enabled"));
  const verifier = await openSealed(deps.tokenKeys, outer.inner_verifier_sealed);
  if (!verifier) return redirected(fail("oauth_provider_rejected_code"));

  let tokens: ProviderTokens;
  let providerUser: ProviderUser;
  try {
    const raw = await provider.client.exchangeCode(input.code, verifier);
    tokens = providerTokensFrom(raw, deps.now(), provider.client.defaultScopes);
    providerUser = await provider.client.fetchUser(raw);
  } catch (err) {
    if (err instanceof OAuth2RequestError) return redirected(fail("oauth_provider_rejected_code"));
    if (err instanceof ArcticFetchError || err instanceof ProviderApiError || err instanceof TypeError) {
      console.warn(`OAuth provider ${input.providerId} unavailable`, err);
      return redirected(fail("oauth_provider_unavailable"));
    }
    throw err;
  }

  const resolved = await resolveOAuthUser(deps, project, {
    providerConfigId: input.providerId,
    providerUser,
    type: outer.type,
    currentUserId: outer.user_id,
    ...(outer.turnstile_result ? { turnstileResult: outer.turnstile_result } : {}),
    tokens: {
      // Sealed before they reach D1: a database leak must not leak live provider tokens.
      accessTokenSealed: await sealProviderToken(deps, tokens.accessToken),
      refreshTokenSealed: tokens.refreshToken ? await sealProviderToken(deps, tokens.refreshToken) : null,
      accessTokenExpiresAt: tokens.expiresAt,
      scopes: tokens.scopes.join(" "),
    },
  });
  if (!resolved.ok) return redirected(resolved);

  const code = await issueCode(
    deps,
    project.id,
    "oauth_authorization_code",
    {
      user_id: resolved.userId,
      redirect_uri: outer.redirect_uri,
      code_challenge: outer.code_challenge,
      code_challenge_method: outer.code_challenge_method,
      is_new_user: resolved.isNewUser,
      provider: input.providerId,
      after_callback_redirect_url: outer.after_callback_redirect_url,
    },
    AUTHORIZATION_CODE_TTL_MS,
  );
  const location = new URL(outer.redirect_uri);
  location.searchParams.set("code", code.code);
  location.searchParams.set("state", outer.state);
  return { ok: true, location: location.toString() };
}

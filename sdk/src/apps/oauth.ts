/**
 * OAuth sign-in in the client (wire §5 "OAuth"): the SDK is a PKCE client of Doorman's
 * authorization server. Start: a verifier and random state, the verifier kept in cookie
 * `stack-oauth-outer-{state}` (1 hour), the authorize URL asked for in JSON mode, then the
 * browser goes to the provider. Callback page: `code` + `state` + that cookie are exchanged at
 * /auth/oauth/token; `code` and `state` are removed from the address first.
 */
import { type CookieJar, documentCookieJar } from "../session/token-store";
import { PUBLIC_CLIENT_SENTINEL } from "../shared/constants";
import { KnownError } from "../shared/known-errors";
import type { AppCore } from "./app-core";
import { withBotChallenge } from "./bot-challenge";
import { absoluteUrl } from "./email-auth";
import type { OAuthLocationJson, OAuthTokenJson } from "./wire-types";

export type { OAuthTokenJson } from "./wire-types";

export const OAUTH_OUTER_COOKIE_PREFIX = "stack-oauth-outer-";
/** SPEC §9: the OAuth state cookie lives one hour. */
export const OAUTH_STATE_COOKIE_MAX_AGE_S = 3600;

export type OAuthStartOptions = {
  type?: "authenticate" | "link";
  /** Where the callback page sends the user afterwards (instead of after-sign-in / after-sign-up). */
  afterCallbackRedirectUrl?: string;
  /** Extra provider scopes (needs the project's own provider keys). */
  providerScope?: string[];
  /** Defaults to the app's oauth-callback handler page. */
  redirectUrl?: string;
  /** Defaults to the app's error handler page. */
  errorRedirectUrl?: string;
};

/** Where the app keeps OAuth (and hosted-pages handoff) verifiers. */
export function jarOf(app: AppCore): CookieJar {
  return app._options.cookieJar ?? documentCookieJar;
}

function base64Url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** A high-entropy random string (32 bytes → 43 base64url characters: a valid PKCE verifier). */
export function randomToken(bytes = 32): string {
  return base64Url(crypto.getRandomValues(new Uint8Array(bytes)));
}

export async function s256Challenge(verifier: string): Promise<string> {
  return base64Url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))));
}

/** The redirect URI exactly as authorize and the token exchange must both see it: no code, state or hash. */
export function callbackRedirectUri(href: string): string {
  const url = new URL(href);
  url.searchParams.delete("code");
  url.searchParams.delete("state");
  url.hash = "";
  return url.toString();
}

/**
 * Prepares the flow and returns the provider URL to navigate to.
 *
 * @example
 * const location = await startOAuth(app, "github", { type: "authenticate" });
 * window.location.assign(location);
 */
export async function startOAuth(app: AppCore, provider: string, options: OAuthStartOptions = {}): Promise<string> {
  const token = await app._session.getAccessToken();
  if (options.type === "link" && !token) throw new Error("Linking an OAuth account needs a signed-in user.");
  const query = await outerQuery(app, options);
  query.set("type", options.type ?? "authenticate");
  // A signed-in (or anonymous) user's token: link target, or the anonymous user to upgrade.
  if (token) query.set("token", token);
  if (options.providerScope?.length) query.set("provider_scope", options.providerScope.join(" "));
  // The bot-challenge fields go in the query here, as the reference sends them.
  const res = await withBotChallenge(app, "oauth_authenticate", (fields) => {
    const q = new URLSearchParams(query);
    for (const [key, value] of Object.entries(fields)) q.set(key, value);
    return app._http.request<OAuthLocationJson>(`/auth/oauth/authorize/${encodeURIComponent(provider)}?${q}`, { bare: true });
  });
  return res.location;
}

/**
 * The outer PKCE request every redirect sign-in starts with (OAuth, enterprise SSO: apps/sso.ts): a
 * verifier kept in cookie `stack-oauth-outer-{state}`, and the authorize query in JSON mode.
 */
export async function outerQuery(
  app: AppCore,
  options: Pick<OAuthStartOptions, "redirectUrl" | "errorRedirectUrl" | "afterCallbackRedirectUrl">,
): Promise<URLSearchParams> {
  const verifier = randomToken();
  const state = randomToken(24);
  // The verifier never leaves this browser until the exchange: an intercepted code is useless without it.
  jarOf(app).set(`${OAUTH_OUTER_COOKIE_PREFIX}${state}`, verifier, OAUTH_STATE_COOKIE_MAX_AGE_S);
  const query = new URLSearchParams({
    client_id: app.projectId,
    client_secret: app._options.publishableClientKey ?? PUBLIC_CLIENT_SENTINEL,
    redirect_uri: callbackRedirectUri(absoluteUrl(options.redirectUrl ?? app.urls.oauthCallback)),
    scope: "legacy",
    state,
    grant_type: "authorization_code",
    code_challenge: await s256Challenge(verifier),
    code_challenge_method: "S256",
    response_type: "code",
    error_redirect_url: absoluteUrl(options.errorRedirectUrl ?? app.urls.error),
    stack_response_mode: "json",
  });
  if (options.afterCallbackRedirectUrl) query.set("after_callback_redirect_url", absoluteUrl(options.afterCallbackRedirectUrl));
  return query;
}

export type CallbackOutcome =
  | { status: "ignored" }
  | { status: "ok"; isNewUser: boolean; afterCallbackRedirectUrl: string | null }
  | { status: "error"; error: KnownError };

/**
 * Handles the oauth-callback page: exchanges `code` for tokens when `state` matches a flow this
 * browser started. Missing code, state or cookie: a warning, and nothing happens.
 *
 * @example
 * const outcome = await finishOAuthCallback(app, window.location.href);
 * if (outcome.status === "ok") console.log(outcome.isNewUser);
 */
export async function finishOAuthCallback(app: AppCore, href: string): Promise<CallbackOutcome> {
  const url = new URL(href);
  const code = url.searchParams.get("code");
  const state = url.searchParams.get("state");
  if (!code || !state) {
    console.warn("OAuth callback: the address has no code or state parameter; nothing to do.");
    return { status: "ignored" };
  }
  const jar = jarOf(app);
  const cookie = `${OAUTH_OUTER_COOKIE_PREFIX}${state}`;
  const verifier = jar.get(cookie);
  if (!verifier) {
    // Not a flow this browser started (or it is older than an hour): never exchange a foreign code.
    console.warn("OAuth callback: no stored state for this sign-in (cookie missing or expired); nothing to do.");
    return { status: "ignored" };
  }
  jar.remove(cookie);
  const redirectUri = callbackRedirectUri(href);
  // The code is single use: take it out of the address (and history) before using it.
  if (typeof window !== "undefined" && window.history?.replaceState) window.history.replaceState(window.history.state, "", redirectUri);
  try {
    const tokens = await exchangeAuthorizationCode(app, code, redirectUri, verifier);
    return { status: "ok", isNewUser: tokens.is_new_user, afterCallbackRedirectUrl: tokens.after_callback_redirect_url };
  } catch (error) {
    if (error instanceof KnownError) return { status: "error", error };
    throw error;
  }
}

/**
 * The code grant at /auth/oauth/token (PKCE): the OAuth callback and the hosted pages' handoff both
 * end here. Keeps the session's tokens and reloads the user; a refused code throws its KnownError.
 */
export async function exchangeAuthorizationCode(
  app: AppCore,
  code: string,
  redirectUri: string,
  verifier: string,
): Promise<OAuthTokenJson> {
  const tokens = await app._http.request<OAuthTokenJson>("/auth/oauth/token", {
    bare: true,
    form: {
      grant_type: "authorization_code",
      code,
      redirect_uri: redirectUri,
      code_verifier: verifier,
      client_id: app.projectId,
      client_secret: app._options.publishableClientKey ?? PUBLIC_CLIENT_SENTINEL,
    },
  });
  app._session.setTokens({ accessToken: tokens.access_token, refreshToken: tokens.refresh_token });
  await app._refreshUser();
  return tokens;
}

/** Goes to the provider. Its URL came from our own API, so the app's trusted-origin check does not apply. */
export async function navigateToProvider(app: AppCore, location: string): Promise<void> {
  const method = app._options.redirectMethod ?? (typeof window !== "undefined" ? "window" : "none");
  if (method === "none") return;
  if (method === "window") {
    if (typeof window !== "undefined") window.location.assign(location);
    return;
  }
  await method.navigate(location, { replace: false });
}

/**
 * The hosted pages' session handoff (issue 28): an app on another origin that sends users to the
 * project's hosted pages (`hostedPages`) gets the signed-in session back with them.
 *
 * 1. App: `redirectToSignIn()` / `redirectToSignUp()` make a PKCE verifier and a state, keep the
 *    verifier in the OAuth flow's cookie `stack-oauth-outer-{state}` (1 hour), and send the hosted
 *    page `cross_domain_code_challenge` and `cross_domain_state` beside `after_auth_return_to`.
 * 2. Hosted page, once someone is signed in: POST /auth/oauth/cross-domain/authorize with its
 *    session, the challenge, the state and the return URL (plus `stack_cross_domain_auth=1`) as
 *    redirect_uri; the worker refuses an untrusted one and answers it with `code` and `state`.
 * 3. App, on load: `code` + `state` + the marker + the stored verifier are exchanged at
 *    /auth/oauth/token (authorization_code grant, which answers the hosted session's refresh token).
 *    The address is cleaned first, whatever the outcome.
 */
import { KnownError } from "../shared/known-errors";
import { RETURN_TO_PARAM } from "../urls";
import type { AppCore } from "./app-core";
import {
  callbackRedirectUri,
  exchangeAuthorizationCode,
  jarOf,
  OAUTH_OUTER_COOKIE_PREFIX,
  OAUTH_STATE_COOKIE_MAX_AGE_S,
  randomToken,
  s256Challenge,
} from "./oauth";

/** On the hosted page's address: the app's PKCE challenge and state. */
export const HANDOFF_CHALLENGE_PARAM = "cross_domain_code_challenge";
export const HANDOFF_STATE_PARAM = "cross_domain_state";
/** On the app's address when it comes back: says that `code` and `state` are a handoff's (not the app's own). */
export const HANDOFF_MARKER_PARAM = "stack_cross_domain_auth";

/** What a hosted page's address asks for: hand the session to `returnTo`. */
export type HandoffRequest = { returnTo: string; codeChallenge: string; state: string };

export type HandoffOutcome = { status: "ignored" } | { status: "ok" } | { status: "error"; error: KnownError };

/**
 * `target` (a hosted sign-in or sign-up URL carrying `after_auth_return_to`) with a new handoff
 * request; its verifier is kept in this browser's cookies, keyed by the state.
 *
 * @example
 * await redirector.redirect(await withHandoffRequest(app, withReturnTo(app.urls.signIn)));
 */
export async function withHandoffRequest(app: AppCore, target: string): Promise<string> {
  const verifier = randomToken();
  const state = randomToken(24);
  // Only this browser can redeem the code: an intercepted code is useless without the verifier.
  jarOf(app).set(`${OAUTH_OUTER_COOKIE_PREFIX}${state}`, verifier, OAUTH_STATE_COOKIE_MAX_AGE_S);
  const url = new URL(target);
  url.searchParams.set(HANDOFF_CHALLENGE_PARAM, await s256Challenge(verifier));
  url.searchParams.set(HANDOFF_STATE_PARAM, state);
  return url.toString();
}

/** The handoff request of an address (a hosted page's), or null when it carries none. */
export function handoffRequestOf(href: string): HandoffRequest | null {
  const url = new URL(href);
  const returnTo = url.searchParams.get(RETURN_TO_PARAM);
  const codeChallenge = url.searchParams.get(HANDOFF_CHALLENGE_PARAM);
  const state = url.searchParams.get(HANDOFF_STATE_PARAM);
  if (!returnTo || !codeChallenge || !state) return null;
  try {
    // Only an absolute http(s) URL can be another origin's page to hand a session to.
    const parsed = new URL(returnTo);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return null;
  } catch {
    return null;
  }
  return { returnTo, codeChallenge, state };
}

/** Where the code goes: the return URL without a stale code, state or fragment, marked as a handoff's. */
export function handoffRedirectUri(returnTo: string): string {
  const url = new URL(callbackRedirectUri(returnTo));
  url.searchParams.set(HANDOFF_MARKER_PARAM, "1");
  return url.toString();
}

/**
 * Hosted page: asks Doorman for the redirect that hands this page's session to the app. A
 * refused handoff (an untrusted return URL, no session) is the known error, for the caller to
 * fall back to a plain return.
 *
 * @example
 * const location = await handOff(app, request); // "https://app.example.com/?stack_cross_domain_auth=1&code=…&state=…"
 */
export async function handOff(app: AppCore, request: HandoffRequest): Promise<string> {
  const res = await app._userRequest<{ redirect_url: string }>("/auth/oauth/cross-domain/authorize", {
    body: {
      redirect_uri: handoffRedirectUri(request.returnTo),
      state: request.state,
      code_challenge: request.codeChallenge,
      code_challenge_method: "S256",
    },
  });
  return res.redirect_url;
}

/** True when the address is an app page the hosted pages handed a session to. */
export function isHandoffCallback(href: string): boolean {
  const params = new URL(href).searchParams;
  return params.has(HANDOFF_MARKER_PARAM) && params.has("code") && params.has("state");
}

/** The address without the handoff's parameters (what the page shows afterwards). */
function cleanAddress(href: string): string {
  const url = new URL(href);
  for (const name of ["code", "state", HANDOFF_MARKER_PARAM]) url.searchParams.delete(name);
  return url.toString();
}

/**
 * App: redeems the handoff in `href`. "ignored" when the address carries none; an unknown state
 * (never started here, or older than the verifier's hour) is OUTER_OAUTH_TIMEOUT; a reused or
 * expired code is the token endpoint's INVALID_AUTHORIZATION_CODE. The address is cleaned in all three.
 *
 * @example
 * const outcome = await finishHandoff(app, window.location.href);
 */
export async function finishHandoff(app: AppCore, href: string): Promise<HandoffOutcome> {
  if (!isHandoffCallback(href)) return { status: "ignored" };
  const url = new URL(href);
  const code = url.searchParams.get("code") ?? "";
  const state = url.searchParams.get("state") ?? "";
  // The code is single use and must not stay in the address, the history or a shared link.
  if (typeof window !== "undefined" && window.history?.replaceState)
    window.history.replaceState(window.history.state, "", cleanAddress(href));
  const jar = jarOf(app);
  const cookie = `${OAUTH_OUTER_COOKIE_PREFIX}${state}`;
  const verifier = jar.get(cookie);
  // Not a handoff this browser asked for: never sign in with someone else's code (login CSRF).
  if (!verifier) return { status: "error", error: new KnownError("OUTER_OAUTH_TIMEOUT") };
  jar.remove(cookie);
  try {
    await exchangeAuthorizationCode(app, code, callbackRedirectUri(href), verifier);
    return { status: "ok" };
  } catch (error) {
    if (error instanceof KnownError) return { status: "error", error };
    throw error;
  }
}

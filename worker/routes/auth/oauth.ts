/** /auth/oauth/authorize/{provider} and /auth/oauth/callback/{provider}: Doorman as OAuth client and authorization server. */

import { KnownError } from "@doorman/shared/known-errors";
import { oauthLocationSchema } from "@doorman/shared/wire-auth";
import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import { z } from "zod";
import type { AppEnv } from "../../http/hono-env";
import { type Problem, problemError, unwrap } from "../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { readBody } from "../../http/validate";
import { OUTER_STATE_TTL_MS, startAuthorization } from "../../services/oauth/authorize";
import { completeOAuthCallback } from "../../services/oauth/callback";
import { BOT_CHALLENGE_ERRORS, botChallenge } from "./common";

const INNER_COOKIE_PREFIX = "stack-oauth-inner-";

/**
 * The inner state cookie, written by hand: the reference's clients match its attributes in this
 * exact order (`Path=/; Expires=…; Max-Age=…; HttpOnly`, with `Secure` before HttpOnly on https).
 */
function innerStateCookie(innerState: string, now: number, https: boolean): string {
  const expires = new Date(now + OUTER_STATE_TTL_MS).toUTCString();
  const secure = https ? " Secure;" : "";
  return `${INNER_COOKIE_PREFIX}${innerState}=true; Path=/; Expires=${expires}; Max-Age=${OUTER_STATE_TTL_MS / 1000};${secure} HttpOnly`;
}
/** Clears the inner state cookie: it binds one flow, which the callback ends (as the reference does). */
function clearedInnerStateCookie(innerState: string, https: boolean): string {
  const secure = https ? " Secure;" : "";
  return `${INNER_COOKIE_PREFIX}${innerState}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0;${secure} HttpOnly`;
}
const url = z.url().max(4096);
const providerParams = z.strictObject({ provider: z.string() });

/** The SDK's outer PKCE client parameters, shared by every sign-in that ends in an outer code (OAuth, enterprise SSO). */
export const outerClientQuery = {
  client_id: z.string().min(1).max(256),
  client_secret: z.string().max(512),
  redirect_uri: url,
  scope: z.string().max(256),
  state: z.string().min(1).max(1024),
  grant_type: z.literal("authorization_code"),
  code_challenge: z.string().min(1).max(256),
  code_challenge_method: z.enum(["S256", "plain"]),
  response_type: z.literal("code"),
};

/** Where the browser goes on an error and after the callback (checked against the trusted domains). */
export const outerReturnQuery = {
  error_redirect_url: url.optional(),
  after_callback_redirect_url: url.optional(),
};

// Unknown query keys are accepted here (wire §2); the bot_challenge_* ones are checked (services/protection/bot-challenge.ts).
const authorizeQuery = z.looseObject({
  ...botChallenge,
  ...outerClientQuery,
  type: z.enum(["authenticate", "link"]).default("authenticate"),
  token: z.string().max(8192).optional(),
  provider_scope: z.string().max(2048).optional(),
  ...outerReturnQuery,
  stack_response_mode: z.enum(["json", "redirect"]).default("redirect"),
});

const callbackParams = z.looseObject({
  state: z.string().min(1).max(1024),
  code: z.string().max(4096).optional(),
  error: z.string().max(256).optional(),
});

const authorize = defineRoute({
  method: "get",
  path: "/authorize/{provider}",
  summary: "Start an OAuth sign-in or account link with a provider",
  description: "The browser is sent here; the client is the project (client_id, client_secret = publishable client key).",
  access: "public",
  params: providerParams,
  query: authorizeQuery,
  response: [
    { status: 307, description: "To the provider's consent page (redirect mode); sets the browser-binding cookie" },
    oauthLocationSchema,
  ],
  errors: [
    "INVALID_OAUTH_CLIENT_ID_OR_SECRET",
    "INVALID_PUBLISHABLE_CLIENT_KEY",
    "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT",
    "REDIRECT_URL_NOT_WHITELISTED",
    "INVALID_SCOPE",
    "OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED",
    "OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS",
    "UNPARSABLE_ACCESS_TOKEN",
    "ACCESS_TOKEN_EXPIRED",
    "INVALID_PROJECT_FOR_ACCESS_TOKEN",
    ...BOT_CHALLENGE_ERRORS,
  ],
  rateLimit: { ip: "OAUTH_AUTHORIZE_PER_IP" },
});

const callbackSpec = {
  path: "/callback/{provider}",
  summary: "The provider's redirect back to Doorman",
  description:
    "state, code and error come in the query, or (POST, form_post providers such as Apple) in a form body. " +
    "Errors once the flow is known go back to the app's error URL as errorCode/message/details query parameters.",
  access: "public",
  params: providerParams,
  response: { status: 303, description: "To the app's redirect URL with a code (303), or to its error URL (307)" },
  errors: ["OUTER_OAUTH_TIMEOUT", "REDIRECT_URL_NOT_WHITELISTED"],
} as const;
const callbackGet = defineRoute({ ...callbackSpec, method: "get" });
const callbackPost = defineRoute({ ...callbackSpec, method: "post" });

/**
 * Parameters come in the query (GET) or, for form_post providers such as Apple, the form body:
 * read here rather than declared, as the two sources merge and a missing state has its own message.
 */
async function callbackInput(c: Context<AppEnv>) {
  const body = c.req.method === "POST" ? await readBody(c) : undefined;
  const raw = { ...c.req.query(), ...(typeof body === "object" && body !== null ? body : {}) };
  const parsed = callbackParams.safeParse(raw);
  if (!parsed.success) throw new KnownError("SCHEMA_ERROR", { message: "The OAuth callback needs a state parameter." });
  return parsed.data;
}

async function callback(c: Context<AppEnv>, provider: string) {
  const params = await callbackInput(c);
  const result = await completeOAuthCallback(c.get("deps"), {
    providerId: provider,
    state: params.state,
    code: params.code,
    providerError: params.error,
    hasInnerCookie: (innerState) => {
      // Read once: whatever the outcome, this flow's cookie is spent.
      c.header("set-cookie", clearedInnerStateCookie(innerState, new URL(c.req.url).protocol === "https:"), { append: true });
      return getCookie(c, `${INNER_COOKIE_PREFIX}${innerState}`) === "true";
    },
  });
  if (result.ok) return c.redirect(result.location, 303);
  return redirectProblem(c, result);
}

/**
 * A callback's problem: once the flow is known (`errorRedirectUrl`), a known error goes back to the app
 * (wire §5), which rebuilds it from errorCode/message/details; otherwise it is answered here. Shared by
 * the enterprise SSO callbacks (routes/sso/).
 */
export function redirectProblem(c: Context<AppEnv>, result: Problem & { errorRedirectUrl?: string }) {
  const error = problemError(result);
  if (!result.errorRedirectUrl || !(error instanceof KnownError)) throw error;
  const target = new URL(result.errorRedirectUrl);
  target.searchParams.set("error", "server_error");
  target.searchParams.set("error_description", error.message);
  target.searchParams.set("errorCode", error.code);
  target.searchParams.set("message", error.message);
  target.searchParams.set("details", JSON.stringify(error.details ?? {}));
  // 307 for an error, 303 for a code: the reference's statuses, which its clients' tests assert.
  return c.redirect(target.toString(), 307);
}

export const oauthRoutes = routeGroup();
addRoute(oauthRoutes, authorize, async (c, { params, query: q }) => {
  const deps = c.get("deps");
  const result = unwrap(
    await startAuthorization(deps, {
      providerId: params.provider,
      clientId: q.client_id,
      clientSecret: q.client_secret,
      redirectUri: q.redirect_uri,
      scope: q.scope,
      state: q.state,
      grantType: q.grant_type,
      responseType: q.response_type,
      codeChallenge: q.code_challenge,
      codeChallengeMethod: q.code_challenge_method,
      type: q.type,
      token: q.token || undefined,
      providerScope: q.provider_scope,
      errorRedirectUrl: q.error_redirect_url,
      afterCallbackRedirectUrl: q.after_callback_redirect_url,
      responseMode: q.stack_response_mode,
      botChallenge: q,
    }),
  );
  if (q.stack_response_mode === "json") return c.json({ location: result.location });
  // Binds the flow to this browser: the callback refuses a state this browser did not start.
  c.header("set-cookie", innerStateCookie(result.innerState, deps.now(), new URL(c.req.url).protocol === "https:"), { append: true });
  return c.redirect(result.location, 307);
});
addRoute(oauthRoutes, callbackGet, (c, { params }) => callback(c, params.provider));
addRoute(oauthRoutes, callbackPost, (c, { params }) => callback(c, params.provider));

/**
 * /auth/sso (issue 31, FLOW): the enterprise SSO sign-in. `lookup` tells the sign-in page whether an
 * email routes to SSO; `authorize` starts a sign-in (the OAuth start's outer params plus `email` or
 * `connection_id`) and sends the browser to the team's IdP; the OIDC connection's callback ends it with
 * the SDK's outer code, exactly as the OAuth callback does.
 */
import { KnownError } from "@doorman/shared/known-errors";
import { oauthLocationSchema } from "@doorman/shared/wire-auth";
import { z } from "zod";
import { unwrap } from "../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { startSsoSignIn } from "../../services/sso/authorize";
import { lookupSso } from "../../services/sso/lookup";
import { completeOidcCallback } from "../../services/sso/oidc/callback";
import { outerClientQuery, outerReturnQuery, redirectProblem } from "../auth/oauth";

// Unknown query keys are accepted (wire §2), as at /auth/oauth/authorize.
const authorizeQuery = z.looseObject({
  ...outerClientQuery,
  ...outerReturnQuery,
  email: z.email().max(320).optional(),
  connection_id: z.string().min(1).max(64).optional(),
  stack_response_mode: z.enum(["json", "redirect"]).default("redirect"),
});

const authorize = defineRoute({
  method: "get",
  path: "/authorize",
  summary: "Start an enterprise SSO sign-in",
  description:
    "The OAuth start's outer parameters (the SDK is a PKCE client, as for /auth/oauth/authorize/{provider}) plus exactly one of " +
    "`email` (routed by its verified domain) or `connection_id`. Redirects to the team's identity provider; the sign-in " +
    "ends at the SDK's redirect URI with a code for POST /auth/oauth/token.",
  access: "public",
  query: authorizeQuery,
  response: [{ status: 302, description: "To the team's identity provider (redirect mode)" }, oauthLocationSchema],
  errors: [
    "INVALID_OAUTH_CLIENT_ID_OR_SECRET",
    "INVALID_PUBLISHABLE_CLIENT_KEY",
    "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT",
    "REDIRECT_URL_NOT_WHITELISTED",
    "INVALID_SCOPE",
    "SSO_CONNECTION_NOT_FOUND",
    "SSO_NOT_CONFIGURED_FOR_EMAIL",
    "SSO_PROTOCOL_NOT_SUPPORTED",
    "SSO_IDP_ERROR",
    "SSO_IDP_UNAVAILABLE",
  ],
  rateLimit: { ip: "SSO_AUTHORIZE_PER_IP" },
});

const lookup = defineRoute({
  method: "get",
  path: "/lookup",
  summary: "Does this email sign in with enterprise SSO?",
  description:
    "Set when the email's domain is verified by a team with an enabled SSO connection; `enforced` when that domain refuses " +
    "every other sign-in method. Never says which team.",
  access: ["client", "server", "admin"],
  query: z.strictObject({ email: z.email().max(320) }),
  response: z.object({ connection_id: z.string().nullable(), display_name: z.string().nullable(), enforced: z.boolean() }),
});

const oidcCallback = defineRoute({
  method: "get",
  path: "/oidc/{connection_id}/callback",
  summary: "An OIDC SSO connection's redirect back to Doorman",
  description: "Errors once the sign-in is known go back to the app's error URL as errorCode/message/details query parameters.",
  access: "public",
  params: z.strictObject({ connection_id: z.string().min(1).max(64) }),
  query: z.looseObject({
    state: z.string().min(1).max(1024),
    code: z.string().max(4096).optional(),
    error: z.string().max(256).optional(),
  }),
  response: { status: 303, description: "To the app's redirect URL with a code (303), or to its error URL (307)" },
  errors: ["SSO_CONNECTION_NOT_FOUND", "SSO_REQUEST_INVALID", "REDIRECT_URL_NOT_WHITELISTED"],
});

export const ssoSignInRoutes = routeGroup();
addRoute(ssoSignInRoutes, authorize, async (c, { query: q }) => {
  // Exactly one: an email and a connection id that disagree would leave the choice to us.
  if (!q.email === !q.connection_id) throw new KnownError("SCHEMA_ERROR", { message: "Send exactly one of email and connection_id." });
  const result = unwrap(
    await startSsoSignIn(c.get("deps"), {
      clientId: q.client_id,
      clientSecret: q.client_secret,
      redirectUri: q.redirect_uri,
      scope: q.scope,
      state: q.state,
      grantType: q.grant_type,
      responseType: q.response_type,
      codeChallenge: q.code_challenge,
      codeChallengeMethod: q.code_challenge_method,
      errorRedirectUrl: q.error_redirect_url,
      afterCallbackRedirectUrl: q.after_callback_redirect_url,
      email: q.email,
      connectionId: q.connection_id,
    }),
  );
  if (q.stack_response_mode === "json") return c.json({ location: result.location });
  return c.redirect(result.location, 302);
});
addRoute(ssoSignInRoutes, lookup, async (c, { auth, query }) => c.json(await lookupSso(c.get("deps"), auth.project, query.email)));
addRoute(ssoSignInRoutes, oidcCallback, async (c, { params, query }) => {
  const result = await completeOidcCallback(c.get("deps"), {
    connectionId: params.connection_id,
    state: query.state,
    code: query.code,
    error: query.error,
  });
  if (result.ok) return c.redirect(result.location, 303);
  return redirectProblem(c, result);
});

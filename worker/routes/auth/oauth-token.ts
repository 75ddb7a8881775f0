/**
 * POST /auth/oauth/token: the OAuth token endpoint the SDK uses (form-encoded or JSON; unknown
 * body keys accepted as the wire does). grant_type=refresh_token refreshes a session;
 * grant_type=authorization_code exchanges the outer code from the OAuth callback (PKCE).
 */

import { KnownError } from "@doorman/shared/known-errors";
import { oauthTokenSchema } from "@doorman/shared/wire-auth";
import { z } from "zod";
import { unwrap } from "../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { ipInfoOf } from "../../lib/ip-info";
import { refreshThroughSession } from "../../services/auth/session-gateway";
import { checkOAuthClient } from "../../services/oauth/client-check";
import { exchangeAuthorizationCode } from "../../services/oauth/code-grant";

const client = { client_id: z.string().min(1).max(256), client_secret: z.string().max(512).optional() };
const tokenBody = z.discriminatedUnion("grant_type", [
  z.looseObject({ grant_type: z.literal("refresh_token"), refresh_token: z.string().min(1).max(512), ...client }),
  z.looseObject({
    grant_type: z.literal("authorization_code"),
    code: z.string().min(1).max(256),
    redirect_uri: z.string().min(1).max(4096),
    code_verifier: z.string().min(1).max(256),
    ...client,
  }),
]);

const token = defineRoute({
  method: "post",
  path: "/",
  summary: "OAuth token endpoint: exchange an authorization code (PKCE) or refresh a session",
  description: "The client is the project: client_id is the project id, client_secret its publishable client key.",
  // The client id and secret in the body are the credentials: no x-stack-* headers are needed.
  access: "public",
  body: tokenBody,
  bodyMediaTypes: ["application/x-www-form-urlencoded", "application/json"],
  response: oauthTokenSchema,
  errors: [
    "INVALID_OAUTH_CLIENT_ID_OR_SECRET",
    "PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT",
    "INVALID_AUTHORIZATION_CODE",
    "MULTI_FACTOR_AUTHENTICATION_REQUIRED",
    "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED",
  ],
});

export const oauthTokenRoutes = routeGroup();
addRoute(oauthTokenRoutes, token, async (c, { body }) => {
  const deps = c.get("deps");
  const checked = await checkOAuthClient(deps, body.client_id, body.client_secret);
  if (!checked.ok) {
    if (checked.reason === "publishable_key_required")
      throw new KnownError("PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT", { project_id: checked.projectId });
    throw new KnownError("INVALID_OAUTH_CLIENT_ID_OR_SECRET", { client_id: body.client_id });
  }
  const project = checked.project;
  c.header("pragma", "no-cache");

  if (body.grant_type === "authorization_code") {
    const result = unwrap(
      await exchangeAuthorizationCode(deps, project, {
        code: body.code,
        redirectUri: body.redirect_uri,
        codeVerifier: body.code_verifier,
        ipInfo: ipInfoOf(c),
      }),
    );
    return c.json({
      access_token: result.tokens.accessToken,
      token_type: "Bearer",
      expires_in: deps.accessTokenTtlSeconds,
      scope: "legacy",
      refresh_token: result.tokens.refreshToken,
      is_new_user: result.tokens.isNewUser,
      newUser: result.tokens.isNewUser,
      after_callback_redirect_url: result.afterCallbackRedirectUrl,
      afterCallbackRedirectUrl: result.afterCallbackRedirectUrl,
    });
  }

  const result = await refreshThroughSession(deps, project, body.refresh_token, ipInfoOf(c));
  if (!result.ok) throw new KnownError("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
  return c.json({
    access_token: result.accessToken,
    token_type: "Bearer",
    expires_in: deps.accessTokenTtlSeconds,
    scope: "legacy",
    refresh_token: result.refreshToken ?? body.refresh_token,
    is_new_user: false,
    newUser: false,
    after_callback_redirect_url: null,
    afterCallbackRedirectUrl: null,
  });
});

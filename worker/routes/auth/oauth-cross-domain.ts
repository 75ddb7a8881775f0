/**
 * POST /auth/oauth/cross-domain/authorize: a one-time code (PKCE S256) that hands the signed-in
 * session to the app's pages on another domain; redeemed at POST /auth/oauth/token.
 */

import { KnownError } from "@doorman/shared/known-errors";
import { z } from "zod";
import { unwrap } from "../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { stackHeader } from "../../middleware/headers";
import { startCrossDomainHandoff } from "../../services/oauth/cross-domain";

const url = z.url().max(4096);

const authorize = defineRoute({
  method: "post",
  path: "/authorize",
  summary: "Create a cross-domain sign-in handoff redirect",
  description:
    "Needs the signed-in user's access token and the same session's x-stack-refresh-token. Answers the redirect_uri " +
    "with a one-time code and the state; the code, with the PKCE verifier, yields that session's tokens at /auth/oauth/token.",
  // The caller's key was checked by the guard (a required publishable client key included), as the reference's key check does.
  access: ["client", "server", "admin"],
  body: z.strictObject({
    redirect_uri: url,
    state: z.string().min(1).max(512),
    // RFC 7636 §4.2: an S256 challenge is 43 to 128 unreserved characters.
    code_challenge: z.string().regex(/^[A-Za-z0-9._~-]{43,128}$/),
    code_challenge_method: z.literal("S256").default("S256"),
    after_callback_redirect_url: url.optional(),
  }),
  response: z.object({ redirect_url: z.string() }),
  errors: ["USER_AUTHENTICATION_REQUIRED", "REDIRECT_URL_NOT_WHITELISTED"],
});

export const oauthCrossDomainRoutes = routeGroup();
addRoute(oauthCrossDomainRoutes, authorize, async (c, { auth, body }) => {
  if (!auth.user) throw new KnownError("USER_AUTHENTICATION_REQUIRED");
  const result = unwrap(
    await startCrossDomainHandoff(c.get("deps"), auth.project, {
      userId: auth.user.user.id,
      sessionId: auth.sessionId,
      refreshToken: stackHeader(c, "refresh-token"),
      redirectUri: body.redirect_uri,
      afterCallbackRedirectUrl: body.after_callback_redirect_url,
      state: body.state,
      codeChallenge: body.code_challenge,
    }),
  );
  return c.json({ redirect_url: result.redirectUrl });
});

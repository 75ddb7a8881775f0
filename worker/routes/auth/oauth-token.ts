/**
 * POST /auth/oauth/token: the OAuth token endpoint the SDK uses to refresh (form-encoded or
 * JSON; unknown body keys accepted as the wire does). The authorization-code grant arrives with
 * the OAuth issue; until then only refresh_token is a valid grant_type.
 */
import { Hono } from "hono";
import { z } from "zod";
import { KnownError } from "../../../sdk/src/shared/known-errors";
import type { AppEnv } from "../../lib/hono-env";
import { ipInfoOf } from "../../lib/ip-info";
import { parseBody } from "../../lib/validate";
import { checkOAuthClient } from "../../services/oauth-client";
import { refreshThroughSession } from "../../services/session-gateway";

const tokenBody = z.looseObject({
  grant_type: z.literal("refresh_token"),
  refresh_token: z.string().min(1).max(512),
  client_id: z.string().min(1).max(256),
  client_secret: z.string().max(512).optional(),
});

export const oauthTokenRoutes = new Hono<AppEnv>().post("/", async (c) => {
  const body = await parseBody(c, tokenBody);
  const deps = c.get("deps");
  const client = await checkOAuthClient(deps, body.client_id, body.client_secret);
  if (!client.ok) {
    if (client.reason === "publishable_key_required")
      throw new KnownError("PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT", { project_id: client.projectId });
    throw new KnownError("INVALID_OAUTH_CLIENT_ID_OR_SECRET", { client_id: body.client_id });
  }
  const project = client.project;

  const result = await refreshThroughSession(deps, project, body.refresh_token, ipInfoOf(c));
  if (!result.ok) throw new KnownError("REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED");
  c.header("pragma", "no-cache");
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

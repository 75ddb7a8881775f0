/**
 * POST /auth/oauth/token: the OAuth token endpoint the SDK uses to refresh (form-encoded or
 * JSON; unknown body keys accepted as the wire does). The authorization-code grant arrives with
 * the OAuth issue; until then only refresh_token is a valid grant_type.
 */
import { Hono } from "hono";
import { z } from "zod";
import { KnownError } from "../../../sdk/src/shared/known-errors";
import { PUBLIC_CLIENT_SENTINEL } from "../../../sdk/src/shared/constants";
import { sha256Hex } from "../../crypto/hash";
import { findValidKeySet } from "../../db/queries/api-key-sets";
import type { AppEnv } from "../../lib/hono-env";
import { ipInfoOf } from "../../lib/ip-info";
import { parseBody } from "../../lib/validate";
import { readProjectConfig } from "../../services/project-config";
import { refreshThroughSession } from "../../services/session-gateway";
import { loadProject } from "../../services/seed";

const tokenBody = z.looseObject({
  grant_type: z.literal("refresh_token"),
  refresh_token: z.string().min(1).max(512),
  client_id: z.string().min(1).max(256),
  client_secret: z.string().max(512).optional(),
});

export const oauthTokenRoutes = new Hono<AppEnv>().post("/", async (c) => {
  const body = await parseBody(c, tokenBody);
  const deps = c.get("deps");
  const [projectId, branchId] = body.client_id.split("#");
  if (!projectId || (branchId !== undefined && branchId !== "main")) throw new KnownError("INVALID_OAUTH_CLIENT_ID_OR_SECRET", { client_id: body.client_id });
  const project = await loadProject(deps, projectId);
  if (!project) throw new KnownError("INVALID_OAUTH_CLIENT_ID_OR_SECRET", { client_id: body.client_id });
  const config = readProjectConfig(project.config);
  const secret = body.client_secret;
  if (!secret || secret === PUBLIC_CLIENT_SENTINEL) {
    if (config.require_publishable_client_key) throw new KnownError("PUBLISHABLE_CLIENT_KEY_REQUIRED_FOR_PROJECT", { project_id: project.id });
  } else if (!(await findValidKeySet(deps.db, project.id, "publishable", await sha256Hex(secret), deps.now()))) {
    throw new KnownError("INVALID_OAUTH_CLIENT_ID_OR_SECRET", { client_id: body.client_id });
  }

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

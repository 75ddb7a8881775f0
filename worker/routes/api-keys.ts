/**
 * /user-api-keys and /team-api-keys (one factory, two mounts), plus the secret scanner's
 * /integrations/credential-scanning/revoke. Creates return 200 with the full key once (wire §2).
 */

import type { Context } from "hono";
import { Hono } from "hono";
import { z } from "zod";
import type { ApiKeyType } from "../crypto/api-key-format";
import type { AppEnv } from "../lib/hono-env";
import { unwrap } from "../lib/problems";
import { parseBody, parseQuery, userIdOrMe } from "../lib/validate";
import { enforceRateLimits } from "../middleware/rate-limit";
import { requireAccess, requireUser, resolveUserId } from "../middleware/require";
import {
  type ApiKeyActor,
  type ApiKeyOwner,
  checkApiKey,
  createApiKey,
  getApiKey,
  listApiKeys,
  revokeLeakedApiKey,
  updateApiKeyOf,
} from "../services/api-keys";
import type { RequestAuth } from "../services/request-auth";
import { apiKeyView } from "../views/api-keys";

const description = z.string().max(1024);
const apiKeyValue = z.string().min(1).max(1024);
const teamId = z.uuid();

/** `user_id` and `team_id` together are rejected with a clear SCHEMA_ERROR message (SPEC §5). */
function ownerField(type: ApiKeyType, required: boolean) {
  const own = type === "user" ? userIdOrMe : teamId;
  const other = type === "user" ? "team_id" : "user_id";
  const message = `Cannot provide both user_id and team_id: ${type} API keys belong to a ${type} (${type}_id).`;
  return {
    [`${type}_id`]: required ? own : own.optional(),
    [other]: z.undefined({ error: message }).optional(),
  } as Record<string, z.ZodType>;
}

function actorOf(auth: RequestAuth): ApiKeyActor {
  if (auth.type !== "client") return { kind: "trusted" };
  // A client acts only as its signed-in user (CANNOT_GET_OWN_USER_WITHOUT_USER without one).
  return { kind: "client", userId: requireUser(auth).user.user.id };
}

function ownerOf(auth: RequestAuth, type: ApiKeyType, fields: Record<string, unknown>): ApiKeyOwner | null {
  const value = fields[`${type}_id`];
  if (typeof value !== "string") return null;
  return type === "user" ? { type, userId: resolveUserId(auth, value) } : { type, teamId: value };
}

function access(c: Context<AppEnv>) {
  const auth = requireAccess(c, "client", "server", "admin");
  return { auth, actor: actorOf(auth), deps: c.get("deps") };
}

function apiKeyRoutes(type: ApiKeyType) {
  const createSchema = z.strictObject({
    description,
    expires_at_millis: z.number().int().min(0).max(8.64e15).nullable(),
    is_public: z.boolean().optional(),
    ...ownerField(type, true),
  });
  const updateSchema = z.strictObject({
    description: description.optional(),
    // Revoking is one-way: there is no `revoked: false`.
    revoked: z.literal(true, { error: "revoked can only be set to true: revoking an API key is permanent." }).optional(),
  });

  return new Hono<AppEnv>()
    .get("/", async (c) => {
      const { auth, actor, deps } = access(c);
      const query = parseQuery(c, z.strictObject(ownerField(type, true)));
      const owner = ownerOf(auth, type, query) as ApiKeyOwner;
      const { rows } = unwrap(await listApiKeys(deps, auth.project, actor, owner));
      return c.json({ items: rows.map((r) => apiKeyView(r)), is_paginated: false });
    })
    .post("/", async (c) => {
      const { auth, actor, deps } = access(c);
      const body = await parseBody(c, createSchema);
      const owner = ownerOf(auth, type, body) as ApiKeyOwner;
      const created = unwrap(
        await createApiKey(deps, auth.project, actor, owner, {
          description: body.description,
          expiresAt: body.expires_at_millis,
          isPublic: body.is_public ?? false,
        }),
      );
      return c.json(apiKeyView(created.row, created.value));
    })
    .post("/check", async (c) => {
      const auth = requireAccess(c, "server", "admin");
      const body = await parseBody(c, z.strictObject({ api_key: apiKeyValue }));
      const { row } = unwrap(await checkApiKey(c.get("deps"), auth.project, type, body.api_key));
      return c.json(apiKeyView(row));
    })
    .get("/:keyId", async (c) => {
      const { auth, actor, deps } = access(c);
      const query = parseQuery(c, z.strictObject(ownerField(type, false)));
      const { row } = unwrap(await getApiKey(deps, auth.project, actor, type, c.req.param("keyId"), ownerOf(auth, type, query)));
      return c.json(apiKeyView(row));
    })
    .patch("/:keyId", async (c) => {
      const { auth, actor, deps } = access(c);
      const query = parseQuery(c, z.strictObject(ownerField(type, false)));
      const body = await parseBody(c, updateSchema);
      const owner = ownerOf(auth, type, query);
      const { row } = unwrap(await updateApiKeyOf(deps, auth.project, actor, type, c.req.param("keyId"), owner, body));
      return c.json(apiKeyView(row));
    });
}

export const userApiKeysRoutes = apiKeyRoutes("user");
export const teamApiKeysRoutes = apiKeyRoutes("team");

/** No project auth: holding a leaked secret key is the authority to revoke it (GitHub secret scanning). */
export const credentialScanningRoutes = new Hono<AppEnv>().post("/revoke", async (c) => {
  const body = await parseBody(c, z.strictObject({ api_key: apiKeyValue }));
  // Unauthenticated by design (holding the leaked key is the authority), so it is rate limited.
  await enforceRateLimits(c, { ip: "CREDENTIAL_SCAN_REVOKE_PER_IP" });
  unwrap(await revokeLeakedApiKey(c.get("deps"), body.api_key));
  return c.json({ success: true });
});

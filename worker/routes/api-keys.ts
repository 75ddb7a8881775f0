/**
 * /user-api-keys and /team-api-keys (one factory, two mounts), plus the secret scanner's
 * /integrations/credential-scanning/revoke. Creates return 200 with the full key once (wire §2).
 */

import { listSchema, successSchema } from "@doorman/shared/wire";
import { teamApiKeySchema, userApiKeySchema } from "@doorman/shared/wire-keys";
import { z } from "zod";
import type { ApiKeyType } from "../crypto/api-key-format";
import { unwrap } from "../http/problems";
import { ownUserId, requireUser } from "../http/request";
import { addRoute, defineRoute, routeGroup } from "../http/route";
import { userIdOrMe } from "../http/validate";
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
    // Documented as a field no value satisfies (zod's undefined has no OpenAPI type of its own).
    [other]: z.undefined({ error: message }).meta({ type: "string", not: {}, description: message }).optional(),
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
  return type === "user" ? { type, userId: ownUserId(auth, value) } : { type, teamId: value };
}

const keyIdParams = z.strictObject({ keyId: z.string() });
const apiKeyCheckBody = z.strictObject({ api_key: apiKeyValue });
const CHECK_ERRORS = ["API_KEY_NOT_FOUND", "WRONG_API_KEY_TYPE", "API_KEY_EXPIRED", "API_KEY_REVOKED"] as const;
const DISABLED = "A project that does not allow this key type answers 400 (plain text).";

/** The routes of one key type: each declaration's `{type}_id` schemas and errors are those of that type. */
function apiKeyRoutes(type: ApiKeyType) {
  const keySchema = type === "user" ? userApiKeySchema : teamApiKeySchema;
  // Who may act: a client on its own user (a plain 403 for another) or on a team where it holds
  // $manage_api_keys (API_KEY_NOT_FOUND otherwise, so a team's existence does not leak).
  const ownerErrors = ["CANNOT_GET_OWN_USER_WITHOUT_USER", "API_KEY_NOT_FOUND"] as const;

  const list = defineRoute({
    method: "get",
    path: "/",
    summary: `List a ${type}'s API keys`,
    access: ["client", "server", "admin"],
    query: z.strictObject(ownerField(type, true)),
    description: DISABLED,
    response: listSchema(keySchema),
    errors: ownerErrors,
  });

  const create = defineRoute({
    method: "post",
    path: "/",
    summary: `Create a ${type} API key (the full key is answered this once)`,
    access: ["client", "server", "admin"],
    body: z.strictObject({
      description,
      expires_at_millis: z.number().int().min(0).max(8.64e15).nullable(),
      is_public: z.boolean().optional(),
      ...ownerField(type, true),
    }),
    description: DISABLED,
    response: keySchema,
    errors: [...ownerErrors, type === "user" ? "USER_NOT_FOUND" : "TEAM_NOT_FOUND"],
  });

  const check = defineRoute({
    method: "post",
    path: "/check",
    summary: `Check a presented ${type} API key`,
    access: ["server", "admin"],
    body: apiKeyCheckBody,
    description: DISABLED,
    response: keySchema,
    errors: CHECK_ERRORS,
  });

  const getOne = defineRoute({
    method: "get",
    path: "/{keyId}",
    summary: `A ${type} API key by id`,
    access: ["client", "server", "admin"],
    params: keyIdParams,
    query: z.strictObject(ownerField(type, false)),
    description: DISABLED,
    response: keySchema,
    errors: [...ownerErrors, "API_KEY_NOT_FOUND"],
  });

  const updateOne = defineRoute({
    method: "patch",
    path: "/{keyId}",
    summary: `Update a ${type} API key's description, or revoke it (one-way)`,
    access: ["client", "server", "admin"],
    params: keyIdParams,
    query: z.strictObject(ownerField(type, false)),
    body: z.strictObject({
      description: description.optional(),
      // Revoking is one-way: there is no `revoked: false`.
      revoked: z.literal(true, { error: "revoked can only be set to true: revoking an API key is permanent." }).optional(),
    }),
    description: DISABLED,
    response: keySchema,
    errors: [...ownerErrors, "API_KEY_NOT_FOUND"],
  });

  const app = routeGroup();
  addRoute(app, list, async (c, { auth, query }) => {
    const actor = actorOf(auth);
    const owner = ownerOf(auth, type, query) as ApiKeyOwner;
    const { rows } = unwrap(await listApiKeys(c.get("deps"), auth.project, actor, owner));
    return c.json({ items: rows.map((r) => apiKeyView(r)), is_paginated: false });
  });
  addRoute(app, create, async (c, { auth, body }) => {
    const actor = actorOf(auth);
    const owner = ownerOf(auth, type, body) as ApiKeyOwner;
    const created = unwrap(
      await createApiKey(c.get("deps"), auth.project, actor, owner, {
        description: body.description,
        expiresAt: body.expires_at_millis,
        isPublic: body.is_public ?? false,
      }),
    );
    return c.json(apiKeyView(created.row, created.value));
  });
  addRoute(app, check, async (c, { auth, body }) => {
    const { row } = unwrap(await checkApiKey(c.get("deps"), auth.project, type, body.api_key));
    return c.json(apiKeyView(row));
  });
  addRoute(app, getOne, async (c, { auth, params, query }) => {
    const actor = actorOf(auth);
    const { row } = unwrap(await getApiKey(c.get("deps"), auth.project, actor, type, params.keyId, ownerOf(auth, type, query)));
    return c.json(apiKeyView(row));
  });
  addRoute(app, updateOne, async (c, { auth, params, query, body }) => {
    const actor = actorOf(auth);
    const owner = ownerOf(auth, type, query);
    const { row } = unwrap(await updateApiKeyOf(c.get("deps"), auth.project, actor, type, params.keyId, owner, body));
    return c.json(apiKeyView(row));
  });
  return app;
}

export const userApiKeysRoutes = apiKeyRoutes("user");
export const teamApiKeysRoutes = apiKeyRoutes("team");

const revokeLeaked = defineRoute({
  method: "post",
  path: "/revoke",
  summary: "Revoke a leaked secret API key (GitHub secret scanning): holding the key is the authority",
  access: "public",
  body: apiKeyCheckBody,
  response: successSchema,
  errors: ["API_KEY_NOT_FOUND", "PUBLIC_API_KEY_CANNOT_BE_REVOKED", "API_KEY_EXPIRED"],
  // Unauthenticated by design (holding the leaked key is the authority), so it is rate limited.
  rateLimit: { ip: "CREDENTIAL_SCAN_REVOKE_PER_IP" },
});

/** No project auth: holding a leaked secret key is the authority to revoke it (GitHub secret scanning). */
export const credentialScanningRoutes = routeGroup();
addRoute(credentialScanningRoutes, revokeLeaked, async (c, { body }) => {
  unwrap(await revokeLeakedApiKey(c.get("deps"), body.api_key));
  return c.json({ success: true });
});

/** /internal/api-keys: the project's key sets (publishable/secret/admin keys), admin only. */

import { KnownError } from "@doorman/shared/known-errors";
import { keySetSchema, listSchema } from "@doorman/shared/wire";
import { z } from "zod";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { createKeySet, getProjectKeySet, listProjectKeySets, updateProjectKeySet } from "../../services/key-sets";
import { keySetView } from "../../views/projects";

const createSchema = z
  .strictObject({
    description: z.string().max(1024),
    expires_at_millis: z.number().int().min(0).max(8.64e15),
    has_publishable_client_key: z.boolean(),
    has_secret_server_key: z.boolean(),
    has_super_secret_admin_key: z.boolean(),
  })
  .refine(
    (b) => b.has_publishable_client_key || b.has_secret_server_key || b.has_super_secret_admin_key,
    "At least one key type must be requested.",
  );

const keyIdParams = z.strictObject({ keyId: z.string() });

const list = defineRoute({
  method: "get",
  path: "/",
  summary: "List the project's key sets",
  access: ["admin"],
  response: listSchema(keySetSchema),
});

const create = defineRoute({
  method: "post",
  path: "/",
  summary: "Create a key set (the full keys are answered this once)",
  access: ["admin"],
  body: createSchema,
  response: keySetSchema,
});

const getOne = defineRoute({
  method: "get",
  path: "/{keyId}",
  summary: "A key set by id",
  access: ["admin"],
  params: keyIdParams,
  response: keySetSchema,
  errors: ["API_KEY_NOT_FOUND"],
});

const updateOne = defineRoute({
  method: "patch",
  path: "/{keyId}",
  summary: "Update a key set's description, or revoke it (one-way)",
  access: ["admin"],
  params: keyIdParams,
  body: z.strictObject({ description: z.string().max(1024).optional(), revoked: z.literal(true).optional() }),
  response: keySetSchema,
  errors: ["API_KEY_NOT_FOUND"],
});

export const internalApiKeysRoutes = routeGroup();
addRoute(internalApiKeysRoutes, list, async (c, { auth }) => {
  const rows = await listProjectKeySets(c.get("deps"), auth.project.id);
  return c.json({ items: rows.map((r) => keySetView(r)), is_paginated: false });
});
addRoute(internalApiKeysRoutes, create, async (c, { auth, body }) => {
  const created = await createKeySet(c.get("deps"), auth.project.id, {
    description: body.description,
    expiresAt: body.expires_at_millis,
    publishable: body.has_publishable_client_key,
    secret: body.has_secret_server_key,
    admin: body.has_super_secret_admin_key,
  });
  return c.json(keySetView(created.row, created.full));
});
addRoute(internalApiKeysRoutes, getOne, async (c, { auth, params }) => {
  const row = await getProjectKeySet(c.get("deps"), auth.project.id, params.keyId);
  if (!row) throw new KnownError("API_KEY_NOT_FOUND");
  return c.json(keySetView(row));
});
addRoute(internalApiKeysRoutes, updateOne, async (c, { auth, params, body }) => {
  const row = await updateProjectKeySet(c.get("deps"), auth.project.id, params.keyId, body);
  if (!row) throw new KnownError("API_KEY_NOT_FOUND");
  return c.json(keySetView(row));
});

/** /internal/api-keys: the project's publishable/secret/admin key sets (admin). */
import { Hono } from "hono";
import { z } from "zod";
import { KnownError } from "../../../sdk/src/shared/known-errors";
import type { AppEnv } from "../../lib/hono-env";
import { parseBody } from "../../lib/validate";
import { requireAccess } from "../../middleware/require";
import { createKeySet, getProjectKeySet, listProjectKeySets, updateProjectKeySet } from "../../services/internal-keys";
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

export const internalApiKeysRoutes = new Hono<AppEnv>()
  .get("/", async (c) => {
    const auth = requireAccess(c, "admin");
    const rows = await listProjectKeySets(c.get("deps"), auth.project.id);
    return c.json({ items: rows.map((r) => keySetView(r)), is_paginated: false });
  })
  .post("/", async (c) => {
    const auth = requireAccess(c, "admin");
    const body = await parseBody(c, createSchema);
    const created = await createKeySet(c.get("deps"), auth.project.id, {
      description: body.description,
      expiresAt: body.expires_at_millis,
      publishable: body.has_publishable_client_key,
      secret: body.has_secret_server_key,
      admin: body.has_super_secret_admin_key,
    });
    return c.json(keySetView(created.row, created.full));
  })
  .get("/:keyId", async (c) => {
    const auth = requireAccess(c, "admin");
    const row = await getProjectKeySet(c.get("deps"), auth.project.id, c.req.param("keyId"));
    if (!row) throw new KnownError("API_KEY_NOT_FOUND");
    return c.json(keySetView(row));
  })
  .patch("/:keyId", async (c) => {
    const auth = requireAccess(c, "admin");
    const body = await parseBody(c, z.strictObject({ description: z.string().max(1024).optional(), revoked: z.literal(true).optional() }));
    const row = await updateProjectKeySet(c.get("deps"), auth.project.id, c.req.param("keyId"), body);
    if (!row) throw new KnownError("API_KEY_NOT_FOUND");
    return c.json(keySetView(row));
  });

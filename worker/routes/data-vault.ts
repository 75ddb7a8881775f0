/**
 * /data-vault/stores/{storeId}/set and /get: the server writes and reads values of a store the
 * project's config declares (wire as the reference). The key arrives hashed and the value encrypted
 * by the client; the service seals the value again at rest.
 */
import { successSchema } from "@doorman/shared/wire";
import { z } from "zod";
import { unwrap } from "../http/problems";
import { addRoute, defineRoute, routeGroup } from "../http/route";
import { getVaultValue, setVaultValue } from "../services/data-vault/entries";
import { HASHED_KEY_MAX_LENGTH, SET_BODY_MAX_BYTES, VALUE_MAX_BYTES } from "../services/data-vault/limits";

const params = z.strictObject({ storeId: z.string().max(1024) });
const hashedKey = z.string().min(1, "must not be empty").max(HASHED_KEY_MAX_LENGTH);
// Why capped: one value is one D1 row (2 MB at most, sealed), and a tenant must not fill the database.
const encryptedValue = z.string().refine((v) => v.length <= VALUE_MAX_BYTES / 3 || new TextEncoder().encode(v).length <= VALUE_MAX_BYTES, {
  message: `must be at most ${VALUE_MAX_BYTES} bytes (UTF-8)`,
});

const setValue = defineRoute({
  method: "post",
  path: "/stores/{storeId}/set",
  summary: "Store a value in a data vault store",
  description: `Stores the client-encrypted value under the hashed key, replacing any value there (the last write wins). The value is sealed again at rest. At most ${VALUE_MAX_BYTES} bytes a value; a project keeps a bounded total (413, plain text, past it).`,
  access: ["server", "admin"],
  params,
  body: z.strictObject({ hashed_key: hashedKey, encrypted_value: encryptedValue }),
  maxBodyBytes: SET_BODY_MAX_BYTES,
  response: [successSchema, { status: 413, description: "The project's data vault is full (plain text)." }],
  errors: ["DATA_VAULT_STORE_DOES_NOT_EXIST"],
});

const getValue = defineRoute({
  method: "post",
  path: "/stores/{storeId}/get",
  summary: "Read a value from a data vault store",
  description: "The client-encrypted value stored under the hashed key.",
  access: ["server", "admin"],
  params,
  body: z.strictObject({ hashed_key: hashedKey }),
  response: z.object({ encrypted_value: z.string() }),
  errors: ["DATA_VAULT_STORE_DOES_NOT_EXIST", "DATA_VAULT_STORE_HASHED_KEY_DOES_NOT_EXIST"],
});

export const dataVaultRoutes = routeGroup();
addRoute(dataVaultRoutes, setValue, async (c, { auth, params, body }) => {
  unwrap(await setVaultValue(c.get("deps"), auth.project, params.storeId, body.hashed_key, body.encrypted_value));
  return c.json({ success: true });
});
addRoute(dataVaultRoutes, getValue, async (c, { auth, params, body }) => {
  const result = unwrap(await getVaultValue(c.get("deps"), auth.project, params.storeId, body.hashed_key));
  return c.json({ encrypted_value: result.encryptedValue });
});

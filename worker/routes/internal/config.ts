/**
 * /internal/config: the rendered config, and the per-level overrides with dotted keys (wire as the
 * reference: `config_string` / `config_override_string`, answers `{success: true}`). Server access
 * may manage only the branch level, as in the reference. Plus reset-keys (admin: drop keys from the
 * branch or environment level) and the branch override's source (where it was pushed from).
 */

import { successSchema } from "@doorman/shared/wire";
import { z } from "zod";
import { problemError } from "../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { StatusError } from "../../lib/errors";
import { renderedConfigOf } from "../../services/project-config/cache";
import { migrateOverrideNames } from "../../services/project-config/migrate";
import { OVERRIDE_LEVELS, type OverrideLevel, parseOverrideString } from "../../services/project-config/overrides";
import { withoutSecrets } from "../../services/project-config/secrets";
import { type ConfigSource, configSourceOf, configSourceSchema } from "../../services/project-config/source";
import { resetConfigOverrideKeys, storedOverrides, unlinkConfigSource, writeConfigOverride } from "../../services/projects";
import type { RequestAuth } from "../../services/request-auth";

const configStringSchema = z.object({ config_string: z.string() });
const levelParams = z.strictObject({ level: z.enum(OVERRIDE_LEVELS) });
// Bounded: an override is a handful of keys; 256 KiB leaves room for many providers and domains.
const overrideString = z.string().max(262_144);

const getRendered = defineRoute({
  method: "get",
  path: "/",
  summary: "The project's rendered config (secrets left out), as a JSON string",
  access: ["admin"],
  response: configStringSchema,
});

const getLevel = defineRoute({
  method: "get",
  path: "/override/{level}",
  summary: "One level's config override (secrets left out); server access: the branch level only",
  access: ["server", "admin"],
  params: levelParams,
  response: configStringSchema,
});

const patchLevel = defineRoute({
  method: "patch",
  path: "/override/{level}",
  summary: "Merge dotted keys into one level's override (project, branch or environment)",
  access: ["server", "admin"],
  params: levelParams,
  body: z.strictObject({ config_override_string: overrideString }),
  response: successSchema,
  errors: ["INVALID_SHARED_OAUTH_PROVIDER_ID", "INVALID_STANDARD_OAUTH_PROVIDER_ID"],
});

const putLevel = defineRoute({
  method: "put",
  path: "/override/{level}",
  summary: "Replace one level's override",
  access: ["server", "admin"],
  params: levelParams,
  body: z.strictObject({ config_string: overrideString, source: configSourceSchema.optional() }),
  response: successSchema,
  errors: ["INVALID_SHARED_OAUTH_PROVIDER_ID", "INVALID_STANDARD_OAUTH_PROVIDER_ID"],
});

const resetKeys = defineRoute({
  method: "post",
  path: "/override/{level}/reset-keys",
  summary: "Remove keys (and everything under them) from the branch or environment override",
  access: ["admin"],
  params: z.strictObject({ level: z.enum(["branch", "environment"]) }),
  // Bounded: a reset names a handful of keys.
  body: z.strictObject({ keys: z.array(z.string().max(1024)).max(1000) }),
  response: successSchema,
});

const getSource = defineRoute({
  method: "get",
  path: "/source",
  summary: "Where the branch override was pushed from (unlinked when edited here)",
  access: ["admin"],
  response: z.object({ source: configSourceSchema }),
});

const unlinkSource = defineRoute({
  method: "delete",
  path: "/source",
  summary: "Unlink the branch override from where it was pushed (its keys stay)",
  access: ["admin"],
  response: successSchema,
});

const patchEnvironment = defineRoute({
  method: "patch",
  path: "/override",
  summary: "Merge dotted keys into the environment override (the older path)",
  access: ["admin"],
  body: z.strictObject({ config_override_string: overrideString }),
  response: successSchema,
  errors: ["INVALID_SHARED_OAUTH_PROVIDER_ID", "INVALID_STANDARD_OAUTH_PROVIDER_ID"],
});

/** The reference lets a back end (server key) change only the branch level; the rest is the owner's. */
function checkLevelAccess(auth: RequestAuth, level: OverrideLevel): void {
  if (auth.type === "server" && level !== "branch") throw new StatusError(403, "Server access can only manage branch config overrides.");
}

export const internalConfigRoutes = routeGroup();
addRoute(internalConfigRoutes, getRendered, (c, { auth }) => {
  return c.json({ config_string: JSON.stringify(withoutSecrets(renderedConfigOf(auth.project))) });
});
addRoute(internalConfigRoutes, getLevel, (c, { auth, params }) => {
  checkLevelAccess(auth, params.level);
  // A level stored before a rename of the reference's keys is answered under the current names.
  const override = migrateOverrideNames(storedOverrides(auth.project)[params.level] ?? {});
  return c.json({ config_string: JSON.stringify(withoutSecrets(override)) });
});

async function write(
  auth: RequestAuth,
  deps: Parameters<typeof writeConfigOverride>[0],
  level: OverrideLevel,
  text: string,
  mode: "merge" | "replace",
  source?: ConfigSource,
) {
  checkLevelAccess(auth, level);
  const parsed = parseOverrideString(text);
  if (!parsed.ok) throw problemError({ ok: false, reason: "invalid_config_override", message: parsed.message });
  // As the reference: a push replaces the branch level and must say where it came from.
  if (mode === "replace" && level === "branch" && !source) throw new StatusError(400, "source is required for branch level config");
  const result = await writeConfigOverride(deps, auth.project, level, parsed.override, mode, level === "branch" ? source : undefined);
  if (!result.ok) throw problemError(result);
}
addRoute(internalConfigRoutes, patchLevel, async (c, { auth, params, body }) => {
  await write(auth, c.get("deps"), params.level, body.config_override_string, "merge");
  return c.json({ success: true as const });
});
addRoute(internalConfigRoutes, putLevel, async (c, { auth, params, body }) => {
  await write(auth, c.get("deps"), params.level, body.config_string, "replace", body.source);
  return c.json({ success: true as const });
});
addRoute(internalConfigRoutes, patchEnvironment, async (c, { auth, body }) => {
  await write(auth, c.get("deps"), "environment", body.config_override_string, "merge");
  return c.json({ success: true as const });
});
addRoute(internalConfigRoutes, resetKeys, async (c, { auth, params, body }) => {
  const result = await resetConfigOverrideKeys(c.get("deps"), auth.project, params.level, body.keys);
  if (!result.ok) throw problemError(result);
  return c.json({ success: true as const });
});
addRoute(internalConfigRoutes, getSource, (c, { auth }) => {
  return c.json({ source: configSourceOf(auth.project.configSource) });
});
addRoute(internalConfigRoutes, unlinkSource, async (c, { auth }) => {
  const result = await unlinkConfigSource(c.get("deps"), auth.project);
  if (!result.ok) throw problemError(result);
  return c.json({ success: true as const });
});

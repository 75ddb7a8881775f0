/**
 * /internal/email-themes (admin, as the reference): list, create, get, update (tsx_source,
 * display_name) and delete a project's email themes. The active theme is the config's
 * `emails.selectedThemeId` (or `config.email_theme` of PATCH /internal/projects/current).
 */

import { successSchema } from "@doorman/shared/wire";
import {
  emailObjectIdSchema,
  emailThemeCreateSchema,
  emailThemeListSchema,
  emailThemeSchema,
  emailThemeUpdatedSchema,
  emailThemeUpdateSchema,
} from "@doorman/shared/wire-emails";
import { z } from "zod";
import { problemError, unwrap } from "../../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../../http/route";
import { StatusError } from "../../../lib/errors";
import { readEmailSettings } from "../../../services/email/config";
import { createTheme, deleteTheme, getTheme, updateTheme } from "../../../services/email/library";
import { fail } from "../../../services/result";

const params = z.strictObject({ id: emailObjectIdSchema });

const list = defineRoute({
  method: "get",
  path: "/",
  summary: "The project's email themes (the built-in Default Light and Default Dark, and its own)",
  access: ["admin"],
  response: emailThemeListSchema,
});
const create = defineRoute({
  method: "post",
  path: "/",
  summary: "Create an email theme (a copy of Default Light); answers its id",
  access: ["admin"],
  body: emailThemeCreateSchema,
  response: z.object({ id: z.string() }),
  errors: ["SCHEMA_ERROR"],
});
const get = defineRoute({
  method: "get",
  path: "/{id}",
  summary: "An email theme with its TSX source",
  access: ["admin"],
  params,
  response: emailThemeSchema,
});
const update = defineRoute({
  method: "patch",
  path: "/{id}",
  summary: "Update a theme's TSX source (it must render) and/or its name",
  access: ["admin"],
  params,
  body: emailThemeUpdateSchema,
  response: emailThemeUpdatedSchema,
  errors: ["EMAIL_RENDERING_ERROR", "SCHEMA_ERROR"],
});
const remove = defineRoute({
  method: "delete",
  path: "/{id}",
  summary: "Delete a theme of the project's own (not a built-in one, not the active one)",
  access: ["admin"],
  params,
  response: successSchema,
});

export const internalEmailThemesRoutes = routeGroup();
addRoute(internalEmailThemesRoutes, list, (c, { auth }) => {
  const { themes } = readEmailSettings(auth.project);
  return c.json({ themes: Object.entries(themes).map(([id, t]) => ({ id, display_name: t.displayName })) });
});
addRoute(internalEmailThemesRoutes, create, async (c, { auth, body }) => {
  return c.json({ id: unwrap(await createTheme(c.get("deps"), auth.project, body.display_name)).value });
});
addRoute(internalEmailThemesRoutes, get, (c, { auth, params }) => {
  const theme = getTheme(readEmailSettings(auth.project), params.id);
  if (!theme) throw problemError(fail("theme_not_found"));
  return c.json({ id: params.id, display_name: theme.displayName, tsx_source: theme.tsxSource });
});
addRoute(internalEmailThemesRoutes, update, async (c, { auth, params, body }) => {
  if (body.tsx_source === undefined && body.display_name === undefined)
    throw new StatusError(400, "Nothing to update: give tsx_source or display_name.");
  const fields = { tsxSource: body.tsx_source, displayName: body.display_name };
  return c.json({ display_name: unwrap(await updateTheme(c.get("deps"), auth.project, params.id, fields)).value });
});
addRoute(internalEmailThemesRoutes, remove, async (c, { auth, params }) => {
  unwrap(await deleteTheme(c.get("deps"), auth.project, params.id));
  return c.json({ success: true as const });
});

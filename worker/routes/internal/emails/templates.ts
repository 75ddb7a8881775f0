/**
 * /internal/email-templates (admin, as the reference): list, create, get, update (tsx_source,
 * theme_id) and delete. The built-in templates (verification, reset, sign-in code, invitations,
 * password changed, new sign-in) are always listed; deleting one's edit resets it.
 */

import {
  emailObjectIdSchema,
  emailTemplateCreateSchema,
  emailTemplateListSchema,
  emailTemplateSchema,
  emailTemplateUpdatedSchema,
  emailTemplateUpdateSchema,
} from "@doorman/shared/wire-emails";
import { z } from "zod";
import { problemError, unwrap } from "../../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../../http/route";
import { readEmailSettings } from "../../../services/email/config";
import type { EmailTemplateSource } from "../../../services/email/defaults";
import { createTemplate, deleteTemplate, getTemplate, updateTemplate } from "../../../services/email/library";
import { fail } from "../../../services/result";

const params = z.strictObject({ templateId: emailObjectIdSchema });

function templateView(id: string, t: EmailTemplateSource) {
  return { id, display_name: t.displayName, tsx_source: t.tsxSource, ...(t.themeId !== undefined ? { theme_id: t.themeId } : {}) };
}

const list = defineRoute({
  method: "get",
  path: "/",
  summary: "The project's email templates: the built-in ones (as edited) and its own",
  access: ["admin"],
  response: emailTemplateListSchema,
});
const create = defineRoute({
  method: "post",
  path: "/",
  summary: "Create an email template (a starter Marketing message); answers its id",
  access: ["admin"],
  body: emailTemplateCreateSchema,
  response: z.object({ id: z.string() }),
  errors: ["SCHEMA_ERROR"],
});
const get = defineRoute({
  method: "get",
  path: "/{templateId}",
  summary: "An email template with its TSX source and theme",
  access: ["admin"],
  params,
  response: emailTemplateSchema,
});
const update = defineRoute({
  method: "patch",
  path: "/{templateId}",
  summary: "Save a template's TSX source (it must render, with a Subject and a NotificationCategory) and theme; answers the preview",
  access: ["admin"],
  params,
  body: emailTemplateUpdateSchema,
  response: emailTemplateUpdatedSchema,
  errors: ["EMAIL_RENDERING_ERROR", "SCHEMA_ERROR"],
});
const remove = defineRoute({
  method: "delete",
  path: "/{templateId}",
  summary: "Delete a template of the project's own, or reset a built-in one to Doorman's version",
  access: ["admin"],
  params,
  response: z.object({}),
});

export const internalEmailTemplatesRoutes = routeGroup();
addRoute(internalEmailTemplatesRoutes, list, (c, { auth }) => {
  const { templates } = readEmailSettings(auth.project);
  return c.json({ templates: Object.entries(templates).map(([id, t]) => templateView(id, t)) });
});
addRoute(internalEmailTemplatesRoutes, create, async (c, { auth, body }) => {
  return c.json({ id: unwrap(await createTemplate(c.get("deps"), auth.project, body.display_name)).value });
});
addRoute(internalEmailTemplatesRoutes, get, (c, { auth, params }) => {
  const template = getTemplate(readEmailSettings(auth.project), params.templateId);
  if (!template) throw problemError(fail("template_not_found"));
  return c.json(templateView(params.templateId, template));
});
addRoute(internalEmailTemplatesRoutes, update, async (c, { auth, params, body }) => {
  const fields = { tsxSource: body.tsx_source, themeId: body.theme_id };
  return c.json({ rendered_html: unwrap(await updateTemplate(c.get("deps"), auth.project, params.templateId, fields)).value });
});
addRoute(internalEmailTemplatesRoutes, remove, async (c, { auth, params }) => {
  unwrap(await deleteTemplate(c.get("deps"), auth.project, params.templateId));
  return c.json({});
});

/**
 * /internal/email-drafts (admin, as the reference): list, create, get, update and delete a
 * project's drafts. A draft is sent with POST /emails/send-email `draft_id`, which stamps `sent_at`.
 */

import {
  emailDraftCreateSchema,
  emailDraftListSchema,
  emailDraftSchema,
  emailDraftUpdateSchema,
  emailIdSchema,
  emailOkSchema,
} from "@doorman/shared/wire-emails";
import { z } from "zod";
import type { EmailDraftRow } from "../../../db/queries/email-drafts";
import { problemError } from "../../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../../http/route";
import {
  createEmailDraft,
  draftThemeChoice,
  getEmailDraft,
  listEmailDrafts,
  removeEmailDraft,
  updateEmailDraftFields,
} from "../../../services/email/drafts";
import { fail } from "../../../services/result";

const params = z.strictObject({ id: z.string().min(1).max(64) });
const notFound = () => problemError(fail("draft_not_found"));

function draftView(d: EmailDraftRow) {
  const theme = draftThemeChoice(d);
  return {
    id: d.id,
    display_name: d.displayName,
    tsx_source: d.tsxSource,
    ...(theme !== undefined ? { theme_id: theme } : {}),
    sent_at_millis: d.sentAt ?? null,
    template_variables: (d.templateVariables as Record<string, unknown> | null) ?? {},
  };
}

const list = defineRoute({
  method: "get",
  path: "/",
  summary: "The project's email drafts, last edited first",
  access: ["admin"],
  response: emailDraftListSchema,
});
const create = defineRoute({
  method: "post",
  path: "/",
  summary: "Create an email draft (TSX source, theme, template variables); answers its id",
  access: ["admin"],
  body: emailDraftCreateSchema,
  response: emailIdSchema,
  errors: ["SCHEMA_ERROR"],
});
const get = defineRoute({ method: "get", path: "/{id}", summary: "An email draft", access: ["admin"], params, response: emailDraftSchema });
const update = defineRoute({
  method: "patch",
  path: "/{id}",
  summary: "Update a draft's name, TSX source, theme or variables",
  access: ["admin"],
  params,
  body: emailDraftUpdateSchema,
  response: emailOkSchema,
  errors: ["SCHEMA_ERROR"],
});
const remove = defineRoute({
  method: "delete",
  path: "/{id}",
  summary: "Delete an email draft",
  access: ["admin"],
  params,
  response: emailOkSchema,
});

export const internalEmailDraftsRoutes = routeGroup();
addRoute(internalEmailDraftsRoutes, list, async (c, { auth }) => {
  return c.json({ drafts: (await listEmailDrafts(c.get("deps"), auth.project.id)).map(draftView) });
});
addRoute(internalEmailDraftsRoutes, create, async (c, { auth, body }) => {
  const row = await createEmailDraft(c.get("deps"), auth.project.id, {
    displayName: body.display_name,
    themeId: body.theme_id,
    tsxSource: body.tsx_source,
    templateVariables: body.template_variables,
  });
  return c.json({ id: row.id });
});
addRoute(internalEmailDraftsRoutes, get, async (c, { auth, params }) => {
  const row = await getEmailDraft(c.get("deps"), auth.project.id, params.id);
  if (!row) throw notFound();
  return c.json(draftView(row));
});
addRoute(internalEmailDraftsRoutes, update, async (c, { auth, params, body }) => {
  const fields = {
    displayName: body.display_name,
    themeId: body.theme_id,
    tsxSource: body.tsx_source,
    templateVariables: body.template_variables,
  };
  if (!(await updateEmailDraftFields(c.get("deps"), auth.project.id, params.id, fields))) throw notFound();
  return c.json({ ok: "ok" as const });
});
addRoute(internalEmailDraftsRoutes, remove, async (c, { auth, params }) => {
  if (!(await removeEmailDraft(c.get("deps"), auth.project.id, params.id))) throw notFound();
  return c.json({ ok: "ok" as const });
});

/**
 * POST /emails/render-email (admin: the live preview of a template in a theme) and
 * POST /emails/send-email (server: a message to users, per-user results), as the reference.
 */
import { KnownError } from "@doorman/shared/known-errors";
import { renderEmailBodySchema, renderEmailResultSchema, sendEmailBodySchema, sendEmailResultSchema } from "@doorman/shared/wire-emails";
import { unwrap } from "../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { readEmailSettings } from "../../services/email/config";
import { renderPreview } from "../../services/email/rendering";
import { sendEmailToUsers } from "../../services/email/send-request";
import type { SendSource } from "../../services/email/sending";

const schemaError = (message: string) => new KnownError("SCHEMA_ERROR", { message });

const render = defineRoute({
  method: "post",
  path: "/render-email",
  summary:
    "Render a template (template_id or template_tsx_source) in a theme (theme_id, false for none, or theme_tsx_source): html, text, subject",
  access: ["admin"],
  body: renderEmailBodySchema,
  response: renderEmailResultSchema,
  errors: ["EMAIL_RENDERING_ERROR", "SCHEMA_ERROR"],
  // The only render on a request (everything else renders in the outbox's consumer): bounded per owner.
  rateLimit: { caller: "EMAIL_RENDER_PER_OWNER" },
});

const send = defineRoute({
  method: "post",
  path: "/send-email",
  summary:
    "Send an email to users (user_ids or all_users): html, template_id with variables, or draft_id. Each recipient gets an outbox row (GET /emails/outbox/{id}); the answer comes at once with each row's id.",
  access: ["server", "admin"],
  body: sendEmailBodySchema,
  response: sendEmailResultSchema,
  errors: ["SCHEMA_ERROR", "EMAIL_RENDERING_ERROR", "REQUIRES_CUSTOM_EMAIL_SERVER", "USER_ID_DOES_NOT_EXIST"],
});

export const emailsRoutes = routeGroup();
addRoute(emailsRoutes, render, async (c, { auth, body }) => {
  if ((body.template_id === undefined) === (body.template_tsx_source === undefined))
    throw schemaError("Either template_id or template_tsx_source must be provided");
  if (body.theme_id !== undefined && body.theme_tsx_source !== undefined) throw schemaError("Give theme_id or theme_tsx_source, not both");
  const result = unwrap(
    await renderPreview(c.get("deps"), auth.project, readEmailSettings(auth.project), {
      themeId: body.theme_id,
      themeTsxSource: body.theme_tsx_source,
      templateId: body.template_id,
      templateTsxSource: body.template_tsx_source,
      variables: body.variables,
    }),
  );
  return c.json({
    html: result.html,
    text: result.text,
    subject: result.subject,
    ...(result.notificationCategory !== undefined ? { notification_category: result.notificationCategory } : {}),
  });
});

function sourceOf(body: { html?: string; template_id?: string; draft_id?: string }): SendSource {
  const given = [body.html, body.template_id, body.draft_id].filter((v) => v !== undefined).length;
  if (given !== 1) throw schemaError("Either template_id, html, or draft_id must be provided");
  if (body.html !== undefined) return { kind: "html", html: body.html };
  if (body.template_id !== undefined) return { kind: "template", templateId: body.template_id };
  return { kind: "draft", draftId: body.draft_id! };
}

addRoute(emailsRoutes, send, async (c, { auth, body }) => {
  if ((body.user_ids === undefined) === (body.all_users === undefined))
    throw schemaError("Exactly one of user_ids or all_users must be provided");
  const source = sourceOf(body);
  if (source.kind === "html" && body.subject === undefined) throw schemaError("subject is required when sending html");
  const result = unwrap(
    await sendEmailToUsers(c.get("deps"), auth.project, {
      userIds: body.user_ids,
      allUsers: body.all_users,
      source,
      variables: body.variables,
      themeId: body.theme_id,
      subject: body.subject,
      notificationCategoryName: body.notification_category_name,
    }),
  );
  return c.json({
    results: result.results.map((r) => ({
      user_id: r.userId,
      ...(r.email ? { user_email: r.email } : {}),
      success: r.status === "sent" || r.status === "queued",
      status: r.status,
      ...(r.error !== undefined ? { error: r.error } : {}),
      ...(r.emailId !== undefined ? { email_id: r.emailId } : {}),
    })),
  });
});

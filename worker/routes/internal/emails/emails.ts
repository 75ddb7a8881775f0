/** /internal/emails (the log, newest first), /internal/send-test-email and /internal/send-sign-in-invitation (admin). */

import { listSchema, successSchema } from "@doorman/shared/wire";
import { emailLogEntrySchema, emailSchema, testEmailResultSchema } from "@doorman/shared/wire-misc";
import { z } from "zod";
import { unwrap } from "../../../http/problems";
import { addRoute, defineRoute, routeGroup } from "../../../http/route";
import { StatusError } from "../../../lib/errors";
import { getEmail, inviteToSignIn, listEmails, sendTestEmail } from "../../../services/email/emails";
import { standardEmailConfigSchema } from "../../../services/project-config/flat";
import { emailLogEntryView, emailView } from "../../../views/emails";

const getOne = defineRoute({
  method: "get",
  path: "/{emailId}",
  summary: "One email with its bodies, as logged (codes and secret links redacted; in development the dev inbox has them)",
  access: ["admin"],
  params: z.strictObject({ emailId: z.string() }),
  response: [emailSchema, { status: 404, description: "Email not found." }],
});

const list = defineRoute({
  method: "get",
  path: "/",
  summary: "The project's email log, newest first",
  access: ["admin"],
  query: z.strictObject({ limit: z.coerce.number().int().min(1).max(1000).optional() }),
  response: listSchema(emailLogEntrySchema),
});

export const internalEmailsRoutes = routeGroup();
addRoute(internalEmailsRoutes, getOne, async (c, { auth, params }) => {
  const row = await getEmail(c.get("deps"), auth.project.id, params.emailId);
  if (!row) throw new StatusError(404, "Email not found.");
  return c.json(emailView(row));
});
addRoute(internalEmailsRoutes, list, async (c, { auth, query }) => {
  const rows = await listEmails(c.get("deps"), auth.project.id, query.limit ?? 100);
  return c.json({ items: rows.map(emailLogEntryView), is_paginated: false });
});

const sendTest = defineRoute({
  method: "post",
  path: "/",
  summary: "Send a test email through the given SMTP settings",
  access: ["admin"],
  body: z.strictObject({
    recipient_email: z.email(),
    // The test email is sent with exactly these settings (nothing stored), so the password is required here.
    email_config: standardEmailConfigSchema.omit({ type: true }).required({ password: true }),
  }),
  response: testEmailResultSchema,
});

export const sendTestEmailRoutes = routeGroup();
addRoute(sendTestEmailRoutes, sendTest, async (c, { auth, body }) => {
  const e = body.email_config;
  const result = await sendTestEmail(c.get("deps"), auth.project, body.recipient_email, {
    host: e.host,
    port: e.port,
    username: e.username,
    password: e.password,
    senderName: e.sender_name,
    senderEmail: e.sender_email,
  });
  return c.json(result.status === "sent" ? { success: true } : { success: false, error_message: result.error });
});

const sendSignInInvitation = defineRoute({
  method: "post",
  path: "/",
  summary: "Email someone an invitation to sign in (the sign-in invitation template), linking to a trusted callback URL",
  access: ["admin"],
  body: z.strictObject({ email: z.email().max(256), callback_url: z.url().max(2048) }),
  response: successSchema,
  errors: ["REDIRECT_URL_NOT_WHITELISTED"],
});

export const sendSignInInvitationRoutes = routeGroup();
addRoute(sendSignInInvitationRoutes, sendSignInInvitation, async (c, { auth, body }) => {
  unwrap(await inviteToSignIn(c.get("deps"), auth.project, body.email, body.callback_url));
  return c.json({ success: true as const });
});

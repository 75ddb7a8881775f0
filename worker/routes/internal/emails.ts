/** /internal/emails (the log, newest first) and /internal/send-test-email (admin). */
import { Hono } from "hono";
import { z } from "zod";
import { StatusError } from "../../lib/errors";
import type { AppEnv } from "../../lib/hono-env";
import { parseBody, parseQuery } from "../../lib/validate";
import { requireAccess } from "../../middleware/require";
import { getEmail, listEmails, sendTestEmail } from "../../services/emails";
import { standardEmailConfigSchema } from "../../services/project-config";

export const internalEmailsRoutes = new Hono<AppEnv>()
  // One email with its bodies: in development this is how you read codes from the outbox.
  .get("/:emailId", async (c) => {
    const auth = requireAccess(c, "admin");
    const row = await getEmail(c.get("deps"), auth.project.id, c.req.param("emailId"));
    if (!row) throw new StatusError(404, "Email not found.");
    return c.json({
      id: row.id,
      subject: row.subject,
      to: row.to,
      status: row.status,
      error: row.error,
      sent_at_millis: row.sentAt ?? row.createdAt,
      html: row.html,
      text: row.text,
    });
  })
  .get("/", async (c) => {
    const auth = requireAccess(c, "admin");
    const q = parseQuery(c, z.strictObject({ limit: z.coerce.number().int().min(1).max(1000).optional() }));
    const rows = await listEmails(c.get("deps"), auth.project.id, q.limit ?? 100);
    return c.json({
      items: rows.map((r) => ({
        id: r.id,
        subject: r.subject,
        to: r.to,
        status: r.status,
        error: r.error,
        sent_at_millis: r.sentAt ?? r.createdAt,
      })),
      is_paginated: false,
    });
  });

export const sendTestEmailRoutes = new Hono<AppEnv>().post("/", async (c) => {
  const auth = requireAccess(c, "admin");
  const body = await parseBody(
    c,
    z.strictObject({
      recipient_email: z.email(),
      email_config: standardEmailConfigSchema.omit({ type: true }),
    }),
  );
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

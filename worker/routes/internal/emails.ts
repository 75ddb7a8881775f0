/** /internal/emails (the log, newest first) and /internal/send-test-email (admin). */
import { Hono } from "hono";
import { z } from "zod";
import type { AppEnv } from "../../lib/hono-env";
import { parseBody, parseQuery } from "../../lib/validate";
import { requireAccess } from "../../middleware/require";
import { listEmails, sendTestEmail } from "../../services/emails";

export const internalEmailsRoutes = new Hono<AppEnv>().get("/", async (c) => {
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
      email_config: z.strictObject({
        host: z.string().min(1).max(512),
        port: z.number().int().min(1).max(65535),
        username: z.string().max(512),
        password: z.string().max(1024),
        sender_name: z.string().max(256),
        sender_email: z.email(),
      }),
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

/**
 * Email delivery. A project's `email_config` is `standard` (its own SMTP server, reached from
 * the worker over cloudflare:sockets with worker-mailer) or `shared` (the platform sender:
 * SHARED_SMTP_* when configured, otherwise the dev outbox, i.e. the log row itself). Every email
 * is logged first as queued, then marked sent or failed with the error: nothing is dropped.
 */

import type { ProjectRow } from "../db/queries/projects";
import { finishSentEmail, insertSentEmail } from "../db/queries/sent-emails";
import type { Deps } from "../lib/context";
import { type ProjectConfig, readProjectConfig } from "../services/project-config";
import type { RenderedEmail } from "./templates";

export type SmtpSettings = { host: string; port: number; username: string; password: string; senderName: string; senderEmail: string };

/** Where a project's mail goes: an SMTP server, or the dev outbox. `shared` is the platform sender (deps.config.sharedSmtp). */
export function transportFor(config: ProjectConfig, shared: SmtpSettings | null): SmtpSettings | "outbox" {
  if (config.email_config.type === "standard") {
    const c = config.email_config;
    return {
      host: c.host,
      port: c.port,
      username: c.username,
      password: c.password,
      senderName: c.sender_name,
      senderEmail: c.sender_email,
    };
  }
  if (shared) return shared;
  return "outbox";
}

/** Sends one message over SMTP; throws with the server's error. */
export async function sendSmtp(smtp: SmtpSettings, to: string[], message: RenderedEmail): Promise<void> {
  // Loaded lazily: cloudflare:sockets exists only inside workerd.
  const { WorkerMailer } = await import("worker-mailer");
  const mailer = await WorkerMailer.connect({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.port === 465,
    startTls: smtp.port !== 465,
    credentials: smtp.username ? { username: smtp.username, password: smtp.password } : undefined,
    authType: ["plain", "login"],
    socketTimeoutMs: 10_000,
    responseTimeoutMs: 10_000,
  });
  try {
    await mailer.send({
      from: { name: smtp.senderName, email: smtp.senderEmail },
      to,
      subject: message.subject,
      html: message.html,
      text: message.text,
    });
  } finally {
    await mailer.close().catch(() => undefined);
  }
}

export type Delivery = { id: string; status: "queued" | "sent" | "failed"; error: string | null };

/**
 * Logs and sends an email. By default the SMTP work runs after the response (waitUntil), so a
 * slow mail server never slows sign-in; `wait: true` sends inline and reports the outcome.
 */
export async function deliverEmail(
  deps: Deps,
  project: ProjectRow,
  to: string[],
  message: RenderedEmail,
  options: { wait?: boolean; transport?: SmtpSettings | "outbox" } = {},
): Promise<Delivery> {
  const id = deps.random.uuid();
  const transport = options.transport ?? transportFor(readProjectConfig(project.config), deps.config.sharedSmtp);
  await insertSentEmail(deps.db, {
    id,
    projectId: project.id,
    to,
    subject: message.subject,
    html: message.html,
    text: message.text,
    status: "queued",
    createdAt: deps.now(),
  });
  const send = async (): Promise<Delivery> => {
    try {
      if (transport !== "outbox") await sendSmtp(transport, to, message);
      await finishSentEmail(deps.db, id, { status: "sent", error: null, sentAt: deps.now() });
      return { id, status: "sent", error: null };
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      await finishSentEmail(deps.db, id, { status: "failed", error, sentAt: null });
      return { id, status: "failed", error };
    }
  };
  if (options.wait) return send();
  deps.defer(send());
  return { id, status: "queued", error: null };
}

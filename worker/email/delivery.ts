/**
 * Email delivery. A project's `email_config` is `standard` (its own SMTP server, reached from
 * the worker over cloudflare:sockets with worker-mailer) or `shared` (the platform sender:
 * SHARED_SMTP_* when configured, otherwise the dev outbox, i.e. the log row itself). Every email
 * is logged first as queued, then marked sent or failed with the error: nothing is dropped.
 * The log holds the message with its codes and secret links redacted (./redact.ts); only the
 * SMTP server (and, in development, the dev outbox in KV) gets the real one.
 */

import type { ProjectRow } from "../db/queries/projects";
import { finishSentEmail, insertSentEmail } from "../db/queries/sent-emails";
import { devOutboxKey } from "../kv/keys";
import type { Deps } from "../lib/context";
import { openConfigSecret } from "../services/config-secrets";
import { type ProjectConfig, readProjectConfig } from "../services/project-config";
import { redactEmail } from "./redact";
import type { RenderedEmail } from "./templates";

export type SmtpSettings = { host: string; port: number; username: string; password: string; senderName: string; senderEmail: string };

/**
 * Where a project's mail goes: an SMTP server, or the dev outbox. `shared` is the platform sender
 * (deps.config.sharedSmtp). The project's SMTP password is opened here, where it is used, and
 * nowhere else.
 */
export async function transportFor(deps: Deps, config: ProjectConfig): Promise<SmtpSettings | "outbox"> {
  const shared = deps.config.sharedSmtp;
  if (config.email_config.type === "standard") {
    const c = config.email_config;
    return {
      host: c.host,
      port: c.port,
      username: c.username,
      password: (await openConfigSecret(deps, c.password)) ?? "",
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
      ...(message.headers ? { headers: message.headers } : {}),
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
  options: { wait?: boolean; transport?: SmtpSettings | "outbox"; id?: string } = {},
): Promise<Delivery> {
  // A caller may fix the log id (a queued send retried after a crash finds its row and does not send twice).
  const id = options.id ?? deps.random.uuid();
  const transport = options.transport ?? (await transportFor(deps, readProjectConfig(project.config)));
  if (transport === "outbox" && deps.config.environment === "development") {
    // The dev mail sink: the real message, development only, short-lived. Written before the log
    // row so whoever sees the row can read the message.
    const { key, ttl } = devOutboxKey(id);
    await deps.env.KV.put(key, JSON.stringify({ subject: message.subject, html: message.html, text: message.text }), {
      expirationTtl: ttl,
    });
  }
  // Why: the log is readable by the project's admins and anyone with database access; a live
  // code or sign-in link there would hand out the account.
  const logged = redactEmail(message);
  await insertSentEmail(deps.db, {
    id,
    projectId: project.id,
    to,
    subject: logged.subject,
    html: logged.html,
    text: logged.text,
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

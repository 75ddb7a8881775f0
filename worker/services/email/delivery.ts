/**
 * Email delivery: one attempt to hand a rendered message to its transport, and the email log row
 * that records it. A project's `email_config` is `standard` (its own SMTP server, reached over
 * cloudflare:sockets by the bounded client in ./smtp.ts) or `shared` (the platform sender:
 * SHARED_SMTP_* when configured, otherwise the dev outbox, i.e. the log row itself).
 * The log holds the message with its codes and secret links redacted (./redact.ts); only the SMTP
 * server (and, in development, the dev inbox in KV: ./dev-inbox.ts) gets the real one.
 * Nothing here retries: the outbox (services/email/outbox*.ts) decides from the outcome.
 */

import type { ProjectRow } from "../../db/queries/projects";
import { recordSentEmail } from "../../db/queries/sent-emails";
import type { Deps } from "../deps";
import { type FlatProjectConfig, readProjectConfig } from "../project-config/flat";
import { openConfigSecret } from "../project-config/secrets";
import { keepInDevInbox, pruneDevInbox } from "./dev-inbox";
import { redactEmail } from "./redact";
import { type SmtpOutcome, type SmtpSettings, sendSmtp } from "./smtp";
import type { RenderedEmail } from "./templates";

export type { SmtpSettings } from "./smtp";

/**
 * Where a project's mail goes: an SMTP server, or the dev outbox. `shared` is the platform sender
 * (deps.config.sharedSmtp). The project's SMTP password is opened here, where it is used, and
 * nowhere else.
 */
export async function transportFor(deps: Deps, config: FlatProjectConfig): Promise<SmtpSettings | "outbox"> {
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

export type DeliveryOutcome = SmtpOutcome;

/**
 * One attempt: sends the message (never throws for what the mail server does) and writes the email
 * log row `id` (created on the first attempt, updated on later ones) with the outcome.
 */
export async function attemptDelivery(
  deps: Deps,
  project: ProjectRow,
  to: string[],
  message: RenderedEmail,
  options: { id: string; transport?: SmtpSettings | "outbox" },
): Promise<DeliveryOutcome> {
  const { id } = options;
  const transport = options.transport ?? (await transportFor(deps, readProjectConfig(project.config)));
  // The dev mail sink (the dev inbox): the real message, development only, short-lived. Written
  // before the log row so whoever sees the row can read the message.
  if (transport === "outbox") await keepInDevInbox(deps, project.id, id, to, message);
  const outcome: DeliveryOutcome =
    transport === "outbox" ? { ok: true, code: 250, reply: "dev outbox" } : await sendSmtp(transport, to, message);
  // Why: the log is readable by the project's admins and anyone with database access; a live
  // code or sign-in link there would hand out the account.
  const logged = redactEmail(message);
  await recordSentEmail(deps.db, {
    id,
    projectId: project.id,
    to,
    subject: logged.subject,
    html: logged.html,
    text: logged.text,
    status: outcome.ok ? "sent" : "failed",
    error: outcome.ok ? null : outcome.message,
    createdAt: deps.now(),
    sentAt: outcome.ok ? deps.now() : null,
  });
  if (transport === "outbox") await pruneDevInbox(deps, project.id);
  return outcome;
}

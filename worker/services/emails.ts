/** The email log and the test email an admin sends to check an SMTP configuration. */

import type { ProjectRow } from "../db/queries/projects";
import { findSentEmail, listSentEmails, type SentEmailRow } from "../db/queries/sent-emails";
import { type Delivery, deliverEmail, type SmtpSettings } from "../email/delivery";
import type { Deps } from "../lib/context";

export function listEmails(deps: Deps, projectId: string, limit = 100): Promise<SentEmailRow[]> {
  return listSentEmails(deps.db, projectId, limit);
}

export function getEmail(deps: Deps, projectId: string, id: string): Promise<SentEmailRow | null> {
  return findSentEmail(deps.db, projectId, id);
}

/** Sends synchronously with the given settings and reports the SMTP outcome (never throws for SMTP errors). */
export function sendTestEmail(deps: Deps, project: ProjectRow, to: string, smtp: SmtpSettings): Promise<Delivery> {
  const subject = `Test email from ${project.displayName}`;
  const text = `This is a test email from ${project.displayName}. Your email server settings work.`;
  const html = `<p>This is a test email from <strong>${project.displayName.replace(/[&<>"']/g, "")}</strong>. Your email server settings work.</p>`;
  return deliverEmail(deps, project, [to], { subject, text, html }, { wait: true, transport: smtp });
}

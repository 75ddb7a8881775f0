/** The email log, the test email an admin sends to check an SMTP configuration, and sign-in invitations. */

import type { ProjectRow } from "../../db/queries/projects";
import { findSentEmail, listSentEmails, type SentEmailRow } from "../../db/queries/sent-emails";
import type { Deps } from "../deps";
import { isTrustedRedirectUrl } from "../hosted-pages/trust";
import { fail, type Problem } from "../result";
import { attemptDelivery, type SmtpSettings } from "./delivery";
import { queueBuiltInEmail } from "./outbox";

export function listEmails(deps: Deps, projectId: string, limit = 100): Promise<SentEmailRow[]> {
  return listSentEmails(deps.db, projectId, limit);
}

export function getEmail(deps: Deps, projectId: string, id: string): Promise<SentEmailRow | null> {
  return findSentEmail(deps.db, projectId, id);
}

export type Delivery = { id: string; status: "sent" | "failed"; error: string | null };

/**
 * Sends synchronously with the given settings and reports the SMTP outcome (never throws for SMTP
 * errors). The owner's own check of a server, so it does not go through the outbox; the SMTP
 * client's timeouts bound it.
 */
export async function sendTestEmail(deps: Deps, project: ProjectRow, to: string, smtp: SmtpSettings): Promise<Delivery> {
  const subject = `Test email from ${project.displayName}`;
  const text = `This is a test email from ${project.displayName}. Your email server settings work.`;
  const html = `<p>This is a test email from <strong>${project.displayName.replace(/[&<>"']/g, "")}</strong>. Your email server settings work.</p>`;
  const id = deps.random.uuid();
  const outcome = await attemptDelivery(deps, project, [to], { subject, text, html }, { id, transport: smtp });
  return outcome.ok ? { id, status: "sent", error: null } : { id, status: "failed", error: outcome.message };
}

/**
 * Invites someone to the project: the sign-in invitation email, linking to `callbackUrl`. The
 * link must be on a trusted domain: an invitation is a phishing vector if it can point anywhere.
 */
export async function inviteToSignIn(
  deps: Deps,
  project: ProjectRow,
  email: string,
  callbackUrl: string,
): Promise<{ ok: true; id: string } | Problem<"untrusted_url">> {
  if (!(await isTrustedRedirectUrl(deps, project, callbackUrl))) return fail("untrusted_url");
  const id = await queueBuiltInEmail(
    deps,
    project,
    "sign_in_invitation",
    { type: "custom-emails", emails: [email] },
    { link: callbackUrl },
  );
  return { ok: true, id };
}

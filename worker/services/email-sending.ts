/**
 * One message of a send (POST /emails/send-email) to one user: the job's template in its theme,
 * rendered for the user with an unsubscribe link when the category can be turned off (plus the
 * List-Unsubscribe headers), then delivered and logged. The same code runs inside the request
 * (small sends) and in the email queue's consumer (big ones, see email-queue.ts).
 */
import { findEmailDraft } from "../db/queries/email-drafts";
import type { ProjectRow } from "../db/queries/projects";
import { deliverEmail } from "../email/delivery";
import type { RenderedEmail } from "../email/templates";
import type { Deps } from "../lib/context";
import type { EmailSettings } from "./email-config";
import { templateSourceFromHtml } from "./email-defaults";
import { draftThemeChoice } from "./email-drafts";
import { type RenderFailure, renderSources, type ThemeChoice, themeSourceFor } from "./email-rendering";
import { unsubscribeLink } from "./email-unsubscribe";
import type { NotificationCategory } from "./notification-preferences";

export type SendSource = { kind: "html"; html: string } | { kind: "template"; templateId: string } | { kind: "draft"; draftId: string };

/** What a send is, serialisable (the queue carries it): the same for every recipient. */
export type SendJob = {
  projectId: string;
  /** The API origin the request saw: unsubscribe links are built on it (the queue has no request). */
  apiUrl: string;
  /** Names the send; each recipient's log id is derived from it (see logIdFor). */
  sendId: string;
  source: SendSource;
  variables: Record<string, unknown>;
  /** A theme id, false (no theme) or null (the draft's choice, else the project's active theme). */
  themeId: string | false | null;
  /** Replaces the template's subject when set. */
  subject: string | null;
  categoryId: string;
};

export type Recipient = { userId: string; email: string; displayName: string | null };

export type SendResultItem = {
  userId: string;
  email: string | null;
  /** sent: delivered to the mail server; queued: in the email queue; skipped: not sent on purpose; failed: tried and failed. */
  status: "sent" | "queued" | "skipped" | "failed";
  error?: string;
  /** The email log row (GET /internal/emails/{id}). */
  emailId?: string;
};

export type JobSources = { templateSource: string; themeSource: string | null };

/** The template and theme sources of a job, from the project's current config (and the draft). */
export async function resolveJobSources(
  deps: Deps,
  settings: EmailSettings,
  job: Pick<SendJob, "projectId" | "source" | "themeId">,
): Promise<JobSources | { ok: false; reason: "template_not_found" | "draft_not_found" | "theme_not_found" }> {
  let templateSource: string;
  let themeChoice: ThemeChoice = job.themeId;
  if (job.source.kind === "html") templateSource = templateSourceFromHtml(job.source.html);
  else if (job.source.kind === "template") {
    if (!Object.hasOwn(settings.templates, job.source.templateId)) return { ok: false, reason: "template_not_found" };
    const template = settings.templates[job.source.templateId]!;
    templateSource = template.tsxSource;
    if (themeChoice === null && template.themeId !== undefined && template.themeId !== null) themeChoice = template.themeId;
  } else {
    const draft = await findEmailDraft(deps.db, job.projectId, job.source.draftId);
    if (!draft) return { ok: false, reason: "draft_not_found" };
    templateSource = draft.tsxSource;
    if (themeChoice === null) themeChoice = draftThemeChoice(draft) ?? null;
  }
  if (typeof themeChoice === "string" && !Object.hasOwn(settings.themes, themeChoice)) return { ok: false, reason: "theme_not_found" };
  return { templateSource, themeSource: themeSourceFor(settings, themeChoice) };
}

/** A uuid-shaped log id fixed by (send, user), so a retried queue message finds what it already sent. */
export async function logIdFor(sendId: string, userId: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${sendId}:${userId}`)));
  const hex = [...digest.slice(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** Renders the job for one user (no unsubscribe link: preview, or to learn the template's category). */
export function renderForUser(project: ProjectRow, job: SendJob, sources: JobSources, displayName: string | null, link: string | null) {
  return renderSources({
    themeSource: sources.themeSource,
    templateSource: sources.templateSource,
    variables: job.variables,
    user: { displayName },
    project: { displayName: project.displayName },
    unsubscribeLink: link,
  });
}

const failed = (r: Recipient, error: string): SendResultItem => ({ userId: r.userId, email: r.email, status: "failed", error });

/** Renders, delivers (waiting for the mail server) and logs one recipient's message. */
export async function sendToRecipient(
  deps: Deps,
  project: ProjectRow,
  job: SendJob,
  sources: JobSources,
  category: NotificationCategory,
  recipient: Recipient,
): Promise<SendResultItem> {
  const unsubscribe = category.canDisable
    ? await unsubscribeLink(deps, job.apiUrl, { projectId: project.id, userId: recipient.userId, categoryId: category.id })
    : null;
  const rendered: Awaited<ReturnType<typeof renderForUser>> | RenderFailure = await renderForUser(
    project,
    job,
    sources,
    recipient.displayName,
    unsubscribe?.link ?? null,
  );
  if (!rendered.ok) return failed(recipient, `There was an error rendering the email: ${rendered.error}`);
  const subject = job.subject ?? rendered.subject;
  if (!subject) return failed(recipient, "The email has no subject: pass `subject`, or render a <Subject> in the template.");
  const message: RenderedEmail = { subject, html: rendered.html, text: rendered.text };
  if (unsubscribe) {
    // RFC 8058 one-click: mail clients POST "List-Unsubscribe=One-Click" to the link.
    message.headers = { "List-Unsubscribe": `<${unsubscribe.link}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
    message.secrets = [unsubscribe.token];
  }
  const id = await logIdFor(job.sendId, recipient.userId);
  const delivery = await deliverEmail(deps, project, [recipient.email], message, { wait: true, id });
  if (delivery.status === "failed") return { ...failed(recipient, delivery.error ?? "Failed to send email"), emailId: id };
  return { userId: recipient.userId, email: recipient.email, status: "sent", emailId: id };
}

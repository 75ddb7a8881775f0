/**
 * What `POST /emails/send-email` puts in the outbox, and how the consumer renders one of its rows:
 * the row's TSX (a template's, a draft's, or the html wrapped as a template) in its theme, for the
 * user it goes to, with an unsubscribe link (and the List-Unsubscribe headers) when the category
 * can be turned off. Whether the user turned the category off since is checked by the consumer after rendering.
 */
import { findEmailDraft } from "../../db/queries/email-drafts";
import type { OutboxRow } from "../../db/queries/email-outbox";
import { findEmailRecipients } from "../../db/queries/email-recipients";
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { NOTIFICATION_CATEGORIES } from "../notification-preferences";
import { fail, type Problem } from "../result";
import { type EmailSettings, readEmailSettings } from "./config";
import { templateSourceFromHtml } from "./defaults";
import { draftThemeChoice } from "./drafts";
import { renderSources, type ThemeChoice, themeSourceFor } from "./rendering";
import type { RenderedEmail } from "./templates";
import { unsubscribeLink } from "./unsubscribe";

export type SendSource = { kind: "html"; html: string } | { kind: "template"; templateId: string } | { kind: "draft"; draftId: string };

export type SendResultItem = {
  userId: string;
  email: string | null;
  /** queued: in the outbox; skipped: not sent on purpose. */
  status: "sent" | "queued" | "skipped" | "failed";
  error?: string;
  /** The outbox row (GET /emails/outbox/{id}); also the email log id once it is attempted. */
  emailId?: string;
};

export type JobSources = { templateSource: string; themeChoice: ThemeChoice; templateId: string | null; draftId: string | null };

/** The template source and theme choice of a send, from the project's current config (and the draft). */
export async function resolveSendSources(
  deps: Deps,
  projectId: string,
  settings: EmailSettings,
  source: SendSource,
  themeId: ThemeChoice,
): Promise<JobSources | Problem<"source_template_not_found" | "draft_not_found" | "source_theme_not_found">> {
  let templateSource: string;
  let themeChoice: ThemeChoice = themeId;
  let templateId: string | null = null;
  let draftId: string | null = null;
  if (source.kind === "html") templateSource = templateSourceFromHtml(source.html);
  else if (source.kind === "template") {
    if (!Object.hasOwn(settings.templates, source.templateId)) return fail("source_template_not_found");
    const template = settings.templates[source.templateId]!;
    templateSource = template.tsxSource;
    templateId = source.templateId;
    if (themeChoice === null && template.themeId !== undefined && template.themeId !== null) themeChoice = template.themeId;
  } else {
    const draft = await findEmailDraft(deps.db, projectId, source.draftId);
    if (!draft) return fail("draft_not_found");
    templateSource = draft.tsxSource;
    draftId = source.draftId;
    if (themeChoice === null) themeChoice = draftThemeChoice(draft) ?? null;
  }
  if (typeof themeChoice === "string" && !Object.hasOwn(settings.themes, themeChoice)) return fail("source_theme_not_found");
  return { templateSource, themeChoice, templateId, draftId };
}

/** Has the user turned this category off (a category that can be turned off, chosen or by default)? */
export async function hasTurnedOff(deps: Deps, projectId: string, userId: string, categoryId: string): Promise<boolean> {
  const category = NOTIFICATION_CATEGORIES.find((c) => c.id === categoryId);
  if (!category?.canDisable) return false;
  const [pref] = await findEmailRecipients(deps.db, projectId, [userId], category.id);
  return pref !== undefined && !(pref.preference ?? category.defaultEnabled);
}

type SendRender = { ok: true; message: RenderedEmail; isTransactional: boolean; categoryId: string | null } | { ok: false; error: string };

/** Renders one send row for its user (the consumer). */
export async function renderSendRow(
  deps: Deps,
  project: ProjectRow,
  row: OutboxRow,
  user: { userId: string | null; displayName: string | null },
): Promise<SendRender> {
  const category = NOTIFICATION_CATEGORIES.find((c) => c.id === row.categoryId) ?? NOTIFICATION_CATEGORIES.find((c) => !c.canDisable)!;
  const unsubscribe =
    category.canDisable && user.userId
      ? await unsubscribeLink(deps, row.apiUrl, { projectId: project.id, userId: user.userId, categoryId: category.id })
      : null;
  const rendered = await renderSources(deps, {
    themeSource: themeSourceFor(readEmailSettings(project), (row.themeChoice ?? null) as ThemeChoice),
    templateSource: row.tsxSource ?? "",
    variables: (row.variables ?? {}) as Record<string, unknown>,
    user: { displayName: user.displayName },
    project: { displayName: project.displayName },
    unsubscribeLink: unsubscribe?.link ?? null,
  });
  if (!rendered.ok) return { ok: false, error: `There was an error rendering the email: ${rendered.error}` };
  const subject = row.subjectOverride ?? rendered.subject;
  if (!subject) return { ok: false, error: "The email has no subject: pass `subject`, or render a <Subject> in the template." };
  const message: RenderedEmail = { subject, html: rendered.html, text: rendered.text };
  if (unsubscribe) {
    // RFC 8058 one-click: mail clients POST "List-Unsubscribe=One-Click" to the link.
    message.headers = { "List-Unsubscribe": `<${unsubscribe.link}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
    message.secrets = [unsubscribe.token];
  }
  return { ok: true, message, isTransactional: !category.canDisable, categoryId: category.id };
}

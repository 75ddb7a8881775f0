/**
 * The admin app's email calls (issue 14): themes, templates, drafts and the preview, as the
 * reference's StackAdminApp has them, and the server app's `sendEmail`. The apps' methods delegate here.
 */
import type { EmailDraftJson, EmailTemplateJson, EmailThemeJson, RenderEmailResultJson, SendEmailResultJson } from "../shared/wire-emails";

type Request = <T>(path: string, options?: { method?: string; body?: unknown }) => Promise<T>;

/** A theme choice: a theme id, false (no theme), or null/undefined (the project's active theme). */
export type EmailThemeChoice = string | false | null | undefined;

export type EmailTheme = { id: string; displayName: string; tsxSource: string };
export type EmailTemplate = { id: string; displayName: string; tsxSource: string; themeId: EmailThemeChoice };
export type EmailDraft = {
  id: string;
  displayName: string;
  tsxSource: string;
  themeId: string | false | undefined;
  sentAt: Date | null;
  templateVariables: Record<string, unknown>;
};
export type RenderedEmailPreview = { html: string; text: string; subject?: string; notificationCategory?: string };
export type EmailPreviewOptions = {
  themeId?: EmailThemeChoice;
  themeTsxSource?: string;
  templateId?: string;
  templateTsxSource?: string;
  variables?: Record<string, unknown>;
};

/** The reference's SendEmailOptions: userIds or allUsers; html, templateId (+ variables) or draftId. */
export type SendEmailOptions = {
  themeId?: EmailThemeChoice;
  subject?: string;
  notificationCategoryName?: string;
} & ({ userIds: string[]; allUsers?: undefined } | { allUsers: true; userIds?: undefined }) &
  (
    | { html: string; templateId?: undefined; draftId?: undefined }
    | { templateId: string; variables?: Record<string, unknown>; html?: undefined; draftId?: undefined }
    | { draftId: string; html?: undefined; templateId?: undefined }
  );

/** One user's outcome: sent, queued (a big send: the email queue delivers it), skipped (no primary email, unsubscribed) or failed. */
export type SendEmailResult = {
  userId: string;
  userEmail: string | null;
  success: boolean;
  status: "sent" | "queued" | "skipped" | "failed";
  error: string | null;
  /** The email log entry (`listSentEmails`). */
  emailId: string | null;
};

const themePath = (id: string) => `/internal/email-themes/${encodeURIComponent(id)}`;
const templatePath = (id: string) => `/internal/email-templates/${encodeURIComponent(id)}`;
const draftPath = (id: string) => `/internal/email-drafts/${encodeURIComponent(id)}`;

const templateFromJson = (t: EmailTemplateJson): EmailTemplate => ({
  id: t.id,
  displayName: t.display_name,
  tsxSource: t.tsx_source,
  themeId: t.theme_id ?? undefined,
});
const draftFromJson = (d: EmailDraftJson): EmailDraft => ({
  id: d.id,
  displayName: d.display_name,
  tsxSource: d.tsx_source,
  themeId: d.theme_id,
  sentAt: d.sent_at_millis === null ? null : new Date(d.sent_at_millis),
  templateVariables: d.template_variables,
});

export async function listEmailThemes(request: Request): Promise<{ id: string; displayName: string }[]> {
  const res = await request<{ themes: { id: string; display_name: string }[] }>("/internal/email-themes");
  return res.themes.map((t) => ({ id: t.id, displayName: t.display_name }));
}

export async function getEmailTheme(request: Request, id: string): Promise<EmailTheme> {
  const t = await request<EmailThemeJson>(themePath(id));
  return { id: t.id, displayName: t.display_name, tsxSource: t.tsx_source };
}

export function createEmailTheme(request: Request, displayName: string): Promise<{ id: string }> {
  return request<{ id: string }>("/internal/email-themes", { body: { display_name: displayName } });
}

export async function updateEmailTheme(request: Request, id: string, fields: { tsxSource?: string; displayName?: string }): Promise<void> {
  await request(themePath(id), { method: "PATCH", body: { tsx_source: fields.tsxSource, display_name: fields.displayName } });
}

export async function deleteEmailTheme(request: Request, id: string): Promise<void> {
  await request(themePath(id), { method: "DELETE" });
}

export async function listEmailTemplates(request: Request): Promise<EmailTemplate[]> {
  return (await request<{ templates: EmailTemplateJson[] }>("/internal/email-templates")).templates.map(templateFromJson);
}

export async function getEmailTemplate(request: Request, id: string): Promise<EmailTemplate> {
  return templateFromJson(await request<EmailTemplateJson>(templatePath(id)));
}

export function createEmailTemplate(request: Request, displayName: string): Promise<{ id: string }> {
  return request<{ id: string }>("/internal/email-templates", { body: { display_name: displayName } });
}

export async function updateEmailTemplate(
  request: Request,
  id: string,
  tsxSource: string,
  themeId?: EmailThemeChoice,
): Promise<{ renderedHtml: string }> {
  const res = await request<{ rendered_html: string }>(templatePath(id), {
    method: "PATCH",
    body: { tsx_source: tsxSource, ...(themeId !== undefined ? { theme_id: themeId } : {}) },
  });
  return { renderedHtml: res.rendered_html };
}

export async function deleteEmailTemplate(request: Request, id: string): Promise<void> {
  await request(templatePath(id), { method: "DELETE" });
}

export async function listEmailDrafts(request: Request): Promise<EmailDraft[]> {
  return (await request<{ drafts: EmailDraftJson[] }>("/internal/email-drafts")).drafts.map(draftFromJson);
}

export async function getEmailDraft(request: Request, id: string): Promise<EmailDraft> {
  return draftFromJson(await request<EmailDraftJson>(draftPath(id)));
}

export type EmailDraftFields = {
  displayName?: string;
  themeId?: EmailThemeChoice;
  tsxSource?: string;
  templateVariables?: Record<string, unknown>;
};

const draftBody = (f: EmailDraftFields) => ({
  display_name: f.displayName,
  ...(f.themeId !== undefined ? { theme_id: f.themeId } : {}),
  tsx_source: f.tsxSource,
  template_variables: f.templateVariables,
});

export function createEmailDraft(request: Request, fields: EmailDraftFields & { displayName: string }): Promise<{ id: string }> {
  return request<{ id: string }>("/internal/email-drafts", { body: draftBody(fields) });
}

export async function updateEmailDraft(request: Request, id: string, fields: EmailDraftFields): Promise<void> {
  await request(draftPath(id), { method: "PATCH", body: draftBody(fields) });
}

export async function deleteEmailDraft(request: Request, id: string): Promise<void> {
  await request(draftPath(id), { method: "DELETE" });
}

export async function renderEmail(request: Request, options: EmailPreviewOptions): Promise<RenderedEmailPreview> {
  const res = await request<RenderEmailResultJson>("/emails/render-email", {
    body: {
      ...(options.themeId !== undefined ? { theme_id: options.themeId } : {}),
      theme_tsx_source: options.themeTsxSource,
      template_id: options.templateId,
      template_tsx_source: options.templateTsxSource,
      variables: options.variables,
    },
  });
  return { html: res.html, text: res.text, subject: res.subject, notificationCategory: res.notification_category };
}

export async function sendEmail(request: Request, options: SendEmailOptions): Promise<SendEmailResult[]> {
  const res = await request<SendEmailResultJson>("/emails/send-email", {
    body: {
      user_ids: options.userIds,
      all_users: options.allUsers,
      ...(options.themeId !== undefined ? { theme_id: options.themeId } : {}),
      subject: options.subject,
      notification_category_name: options.notificationCategoryName,
      html: options.html,
      template_id: options.templateId,
      variables: "variables" in options ? options.variables : undefined,
      draft_id: options.draftId,
    },
  });
  return res.results.map((r) => ({
    userId: r.user_id,
    userEmail: r.user_email ?? null,
    success: r.success,
    status: r.status,
    error: r.error ?? null,
    emailId: r.email_id ?? null,
  }));
}

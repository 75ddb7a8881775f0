/**
 * Rendering a project's emails: which theme a template or send uses, the live preview
 * (POST /emails/render-email) and the checks run when a theme or template is saved. The TSX itself
 * runs in the sandbox (worker/email-render); a failure comes back as a value with its message.
 */
import type { ProjectRow } from "../db/queries/projects";
import { type EmailRenderResult, renderEmailSources } from "../email-render/render";
import type { EmailSettings } from "./email-config";
import { DEFAULT_EMAIL_THEME_ID, DEFAULT_EMAIL_THEMES } from "./email-defaults";

/** A theme choice on the wire: an id, false (no theme), or null/absent (the project's active theme). */
export type ThemeChoice = string | false | null | undefined;

export type RenderFailure = { ok: false; reason: "render_error"; error: string; line?: number };
export type Rendered = Extract<EmailRenderResult, { ok: true }>;

/** The TSX of the theme a choice stands for; an id that names no theme falls back to the active one. */
export function themeSourceFor(settings: EmailSettings, choice: ThemeChoice): string | null {
  if (choice === false) return null;
  if (typeof choice === "string" && Object.hasOwn(settings.themes, choice)) return settings.themes[choice]!.tsxSource;
  return (settings.themes[settings.activeThemeId] ?? DEFAULT_EMAIL_THEMES[DEFAULT_EMAIL_THEME_ID]!).tsxSource;
}

/** Runs the renderer; a failure becomes a RenderFailure. */
export async function renderSources(input: Parameters<typeof renderEmailSources>[0]): Promise<Rendered | RenderFailure> {
  const result = await renderEmailSources(input);
  if (result.ok) return result;
  return { ok: false, reason: "render_error", error: result.error, ...(result.line !== undefined ? { line: result.line } : {}) };
}

export type PreviewInput = {
  themeId?: ThemeChoice;
  themeTsxSource?: string;
  templateId?: string;
  templateTsxSource?: string;
  variables?: Record<string, unknown>;
};

export type PreviewResult = Rendered | RenderFailure | { ok: false; reason: "theme_not_found" | "template_not_found" };

/**
 * The live preview: a template (by id or source) in a theme (by id, by source, or none), in
 * preview mode (missing variables come from the template's PreviewVariables).
 */
export async function renderPreview(project: ProjectRow, settings: EmailSettings, input: PreviewInput): Promise<PreviewResult> {
  let themeSource: string | null;
  if (input.themeTsxSource !== undefined) themeSource = input.themeTsxSource;
  else {
    if (typeof input.themeId === "string" && !Object.hasOwn(settings.themes, input.themeId))
      return { ok: false, reason: "theme_not_found" };
    themeSource = themeSourceFor(settings, input.themeId);
  }
  let templateSource: string;
  if (input.templateTsxSource !== undefined) templateSource = input.templateTsxSource;
  else {
    const template = input.templateId ? settings.templates[input.templateId] : undefined;
    if (!template || !Object.hasOwn(settings.templates, input.templateId!)) return { ok: false, reason: "template_not_found" };
    templateSource = template.tsxSource;
  }
  return renderSources({
    themeSource,
    templateSource,
    variables: input.variables ?? {},
    user: { displayName: "John Doe" },
    project: { displayName: project.displayName },
    previewMode: true,
  });
}

/** A template must render and name its subject and notification category (the reference's checks on save). */
export async function checkTemplate(
  project: ProjectRow,
  themeSource: string | null,
  templateSource: string,
): Promise<Rendered | RenderFailure> {
  const result = await renderSources({
    themeSource,
    templateSource,
    variables: {},
    user: { displayName: "John Doe" },
    project: { displayName: project.displayName },
    previewMode: true,
  });
  if (!result.ok) return result;
  if (!result.subject) return { ok: false, reason: "render_error", error: "Subject is required, import it from @stackframe/emails" };
  if (result.notificationCategory === undefined)
    return { ok: false, reason: "render_error", error: "NotificationCategory is required, import it from @stackframe/emails" };
  return result;
}

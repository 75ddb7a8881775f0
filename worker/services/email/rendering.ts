/**
 * Rendering a project's emails: which theme a template or send uses, the live preview
 * (POST /emails/render-email) and the checks run when a theme or template is saved. The TSX itself
 * runs in the sandbox (worker/email-render) inside the renderer Worker, reached through the
 * EMAIL_RENDERER service binding; a failure comes back as a value with its message.
 */
import type { ProjectRow } from "../../db/queries/projects";
import { type EmailRenderInput, type EmailRenderResult, renderEmailSources } from "../../email-render/render";
import { type EmailRendererBinding, renderThroughRenderer } from "../../email-render/renderer-client";
import type { Deps } from "../deps";
import { fail, type Problem } from "../result";
import type { EmailSettings } from "./config";
import { DEFAULT_EMAIL_THEME_ID, DEFAULT_EMAIL_THEMES } from "./defaults";

/** A theme choice on the wire: an id, false (no theme), or null/absent (the project's active theme). */
export type ThemeChoice = string | false | null | undefined;

export type RenderFailure = Problem<"render_error">;
export type Rendered = Extract<EmailRenderResult, { ok: true }>;

/** The TSX of the theme a choice stands for; an id that names no theme falls back to the active one. */
export function themeSourceFor(settings: EmailSettings, choice: ThemeChoice): string | null {
  if (choice === false) return null;
  if (typeof choice === "string" && Object.hasOwn(settings.themes, choice)) return settings.themes[choice]!.tsxSource;
  return (settings.themes[settings.activeThemeId] ?? DEFAULT_EMAIL_THEMES[DEFAULT_EMAIL_THEME_ID]!).tsxSource;
}

let warnedInProcess = false;

/**
 * Renders with `renderer` (the EMAIL_RENDERER binding) or, when the deployment has none, in this isolate
 * with a warning logged once per isolate. Every failure (the template's, the renderer's, a timeout) is a RenderFailure.
 */
export async function renderSourcesWith(
  renderer: EmailRendererBinding | undefined,
  input: EmailRenderInput,
): Promise<Rendered | RenderFailure> {
  let result: EmailRenderResult;
  if (renderer) result = await renderThroughRenderer(renderer, input);
  else {
    if (!warnedInProcess) {
      warnedInProcess = true;
      console.warn(
        "EMAIL_RENDERER is not bound: owners' email templates render in the API's isolate, so a hostile template can stall other requests (docs/deploy.md).",
      );
    }
    result = await renderEmailSources(input);
  }
  if (result.ok) return result;
  return fail("render_error", { error: result.error, ...(result.line !== undefined ? { line: result.line } : {}) });
}

/** Runs the renderer (the deployment's EMAIL_RENDERER binding); a failure becomes a RenderFailure. */
export function renderSources(deps: Pick<Deps, "env">, input: EmailRenderInput): Promise<Rendered | RenderFailure> {
  return renderSourcesWith(deps.env.EMAIL_RENDERER, input);
}

export type PreviewInput = {
  themeId?: ThemeChoice;
  themeTsxSource?: string;
  templateId?: string;
  templateTsxSource?: string;
  variables?: Record<string, unknown>;
};

export type PreviewResult = Rendered | RenderFailure | Problem<"source_theme_not_found" | "source_template_not_found">;

/**
 * The live preview: a template (by id or source) in a theme (by id, by source, or none), in
 * preview mode (missing variables come from the template's PreviewVariables).
 */
export async function renderPreview(
  deps: Pick<Deps, "env">,
  project: ProjectRow,
  settings: EmailSettings,
  input: PreviewInput,
): Promise<PreviewResult> {
  let themeSource: string | null;
  if (input.themeTsxSource !== undefined) themeSource = input.themeTsxSource;
  else {
    if (typeof input.themeId === "string" && !Object.hasOwn(settings.themes, input.themeId)) return fail("source_theme_not_found");
    themeSource = themeSourceFor(settings, input.themeId);
  }
  let templateSource: string;
  if (input.templateTsxSource !== undefined) templateSource = input.templateTsxSource;
  else {
    const template = input.templateId ? settings.templates[input.templateId] : undefined;
    if (!template || !Object.hasOwn(settings.templates, input.templateId!)) return fail("source_template_not_found");
    templateSource = template.tsxSource;
  }
  return renderSources(deps, {
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
  deps: Pick<Deps, "env">,
  project: ProjectRow,
  themeSource: string | null,
  templateSource: string,
): Promise<Rendered | RenderFailure> {
  const result = await renderSources(deps, {
    themeSource,
    templateSource,
    variables: {},
    user: { displayName: "John Doe" },
    project: { displayName: project.displayName },
    previewMode: true,
  });
  if (!result.ok) return result;
  if (!result.subject) return fail("render_error", { error: "Subject is required, import it from @stackframe/emails" });
  if (result.notificationCategory === undefined)
    return fail("render_error", { error: "NotificationCategory is required, import it from @stackframe/emails" });
  return result;
}

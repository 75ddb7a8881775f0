/**
 * Managing a project's themes and templates (the /internal/email-themes and /internal/email-templates
 * routes): create, update, delete, with the reference's checks: a saved theme must render a sample
 * template, a saved template must render with a subject and a notification category, the active
 * theme cannot be deleted. Built-in themes and templates cannot be deleted; deleting a built-in
 * template's edit resets it.
 */
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { fail, type Problem } from "../result";
import { type EmailConfigWrite, type EmailSettings, isBuiltInTheme, readEmailSettings, writeEmailConfig } from "./config";
import { NEW_TEMPLATE_SOURCE, NEW_THEME_SOURCE, THEME_CHECK_TEMPLATE_SOURCE } from "./defaults";
import { checkTemplate, type RenderFailure, renderSources, type ThemeChoice, themeSourceFor } from "./rendering";

type Written<T> = { ok: true; value: T } | Exclude<EmailConfigWrite, { ok: true }>;
export type LibraryResult<T> =
  | Written<T>
  | RenderFailure
  | Problem<"theme_not_found" | "template_not_found" | "built_in_theme_undeletable" | "active_theme_undeletable">;

async function write<T>(deps: Deps, project: ProjectRow, override: Record<string, unknown>, value: T): Promise<Written<T>> {
  const result = await writeEmailConfig(deps, project, override);
  return result.ok ? { ok: true, value } : result;
}

export function getTheme(settings: EmailSettings, id: string) {
  return Object.hasOwn(settings.themes, id) ? settings.themes[id]! : null;
}

export function getTemplate(settings: EmailSettings, id: string) {
  return Object.hasOwn(settings.templates, id) ? settings.templates[id]! : null;
}

export async function createTheme(deps: Deps, project: ProjectRow, displayName: string): Promise<LibraryResult<string>> {
  const id = deps.random.uuid();
  return write(deps, project, { [`emails.themes.${id}`]: { displayName, tsxSource: NEW_THEME_SOURCE } }, id);
}

/** Updates a theme's source (after checking it renders) and/or name; answers its name. */
export async function updateTheme(
  deps: Deps,
  project: ProjectRow,
  id: string,
  fields: { tsxSource?: string; displayName?: string },
): Promise<LibraryResult<string>> {
  const theme = getTheme(readEmailSettings(project), id);
  if (!theme) return fail("theme_not_found");
  const override: Record<string, unknown> = {};
  if (fields.tsxSource !== undefined) {
    const check = await renderSources(deps, {
      themeSource: fields.tsxSource,
      templateSource: THEME_CHECK_TEMPLATE_SOURCE,
      variables: {},
      user: { displayName: "John Doe" },
      project: { displayName: project.displayName },
      previewMode: true,
    });
    if (!check.ok) return check;
    override[`emails.themes.${id}.tsxSource`] = fields.tsxSource;
  }
  if (fields.displayName !== undefined) override[`emails.themes.${id}.displayName`] = fields.displayName;
  return write(deps, project, override, fields.displayName ?? theme.displayName);
}

export async function deleteTheme(deps: Deps, project: ProjectRow, id: string): Promise<LibraryResult<true>> {
  const settings = readEmailSettings(project);
  if (!getTheme(settings, id)) return fail("theme_not_found");
  if (isBuiltInTheme(id)) return fail("built_in_theme_undeletable");
  if (settings.activeThemeId === id) return fail("active_theme_undeletable");
  return write(deps, project, { [`emails.themes.${id}`]: null }, true);
}

export async function createTemplate(deps: Deps, project: ProjectRow, displayName: string): Promise<LibraryResult<string>> {
  const id = deps.random.uuid();
  return write(deps, project, { [`emails.templates.${id}`]: { displayName, tsxSource: NEW_TEMPLATE_SOURCE } }, id);
}

/** Saves a template's source (it must render with a subject and a category) and theme; answers the preview HTML. */
export async function updateTemplate(
  deps: Deps,
  project: ProjectRow,
  id: string,
  fields: { tsxSource: string; themeId?: ThemeChoice },
): Promise<LibraryResult<string>> {
  const settings = readEmailSettings(project);
  const template = getTemplate(settings, id);
  if (!template) return fail("template_not_found");
  if (typeof fields.themeId === "string" && !getTheme(settings, fields.themeId)) return fail("theme_not_found");
  const themeChoice = fields.themeId !== undefined ? fields.themeId : template.themeId;
  const check = await checkTemplate(deps, project, themeSourceFor(settings, themeChoice), fields.tsxSource);
  if (!check.ok) return check;
  const override: Record<string, unknown> = { [`emails.templates.${id}.tsxSource`]: fields.tsxSource };
  if (fields.themeId !== undefined) override[`emails.templates.${id}.themeId`] = fields.themeId;
  return write(deps, project, override, check.html);
}

/** Deletes a template of the project's own; for a built-in one, drops the project's edit (back to the built-in). */
export async function deleteTemplate(deps: Deps, project: ProjectRow, id: string): Promise<LibraryResult<true>> {
  if (!getTemplate(readEmailSettings(project), id)) return fail("template_not_found");
  return write(deps, project, { [`emails.templates.${id}`]: null }, true);
}

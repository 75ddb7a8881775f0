/**
 * A project's email themes and templates, stored as the reference stores them: inside the config
 * (`emails.themes`, `emails.templates`, `emails.selectedThemeId`; Doorman's `doorman.emails.defaultLocale`), written through the environment
 * override (as the reference's overrideEnvironmentConfigOverride). They are read by rendering the
 * overrides (renderConfig), only where an email is rendered; the per-request flat config stays small.
 */
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { readProjectConfig } from "../project-config/flat";
import { type ConfigOverride, renderConfig } from "../project-config/overrides";
import { storedOverrides, writeConfigOverride } from "../projects";
import { fail, type Problem } from "../result";
import {
  DEFAULT_EMAIL_TEMPLATES,
  DEFAULT_EMAIL_THEME_ID,
  DEFAULT_EMAIL_THEMES,
  type EmailTemplateSource,
  type EmailThemeSource,
  LEGACY_THEME_NAMES,
} from "./defaults";
import { DEFAULT_EMAIL_LOCALE, type EmailLocale } from "./locale";

export type EmailSettings = {
  themes: Record<string, EmailThemeSource>;
  templates: Record<string, EmailTemplateSource>;
  /** The active theme's id (an unknown selection falls back to the default light theme). */
  activeThemeId: string;
  /** The locale of built-in emails whose request named no supported language (`doorman.emails.defaultLocale`). */
  defaultLocale: EmailLocale;
};

/** The project's themes, templates and active theme. */
export function readEmailSettings(project: ProjectRow): EmailSettings {
  const rendered = renderConfig(storedOverrides(project));
  // Every write validated its result, so this renders; the built-ins are the fallback.
  const emails = rendered.ok
    ? rendered.config.emails
    : {
        themes: { ...DEFAULT_EMAIL_THEMES },
        templates: { ...DEFAULT_EMAIL_TEMPLATES },
        selectedThemeId: readProjectConfig(project.config).email_theme,
      };
  const selected = LEGACY_THEME_NAMES[emails.selectedThemeId] ?? emails.selectedThemeId;
  return {
    themes: emails.themes,
    templates: emails.templates,
    activeThemeId: Object.hasOwn(emails.themes, selected) ? selected : DEFAULT_EMAIL_THEME_ID,
    defaultLocale: rendered.ok ? rendered.config.doorman.emails.defaultLocale : DEFAULT_EMAIL_LOCALE,
  };
}

export const isBuiltInTheme = (id: string) => Object.hasOwn(DEFAULT_EMAIL_THEMES, id);
export const isBuiltInTemplate = (id: string) => Object.hasOwn(DEFAULT_EMAIL_TEMPLATES, id);

export type EmailConfigWrite = { ok: true; project: ProjectRow } | Problem<"email_config_invalid" | "email_config_conflict">;

/** The config is one D1 row (at most 2 MB): sources beyond this would not fit beside everything else. */
const MAX_OVERRIDES_BYTES = 1_000_000;

/** Merges dotted keys (`emails.themes.<id>.tsxSource`, …) into the environment override. */
export async function writeEmailConfig(deps: Deps, project: ProjectRow, override: ConfigOverride): Promise<EmailConfigWrite> {
  const size = JSON.stringify(storedOverrides(project)).length + JSON.stringify(override).length;
  if (size > MAX_OVERRIDES_BYTES)
    return fail("email_config_invalid", {
      message: "The project's email themes and templates would exceed 1 MB; delete unused ones first.",
    });
  const result = await writeConfigOverride(deps, project, "environment", override, "merge");
  if (result.ok) return { ok: true, project: result.project };
  if (result.reason === "config_conflict") return fail("email_config_conflict");
  const message =
    "message" in result && typeof result.message === "string" ? result.message : `The email config could not be saved (${result.reason}).`;
  return fail("email_config_invalid", { message });
}

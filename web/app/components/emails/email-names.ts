/**
 * The built-in email templates in plain words (they keep the reference's ids and names on the
 * wire), and the theme choice as the pages' pickers show it.
 */
import type { EmailThemeChoice } from "@doorman/sdk";

const BUILT_IN_TEMPLATES: Record<string, { name: string; when: string }> = {
  "e7d009ce-8d47-4528-b245-5bf119f2ffa3": {
    name: "Email verification",
    when: "Sent to confirm that an email address belongs to the user.",
  },
  "a70fb3a4-56c1-4e42-af25-49d25603abd0": { name: "Password reset", when: "Sent when someone asks to reset a password." },
  "822687fe-8d0a-4467-a0d1-416b6e639478": { name: "Sign-in code (magic link)", when: "Sent with a one-time code and link to sign in." },
  "e84de395-2076-4831-9c19-8e9a96a868e4": { name: "Team invitation", when: "Sent when a team member invites someone to the team." },
  "066dd73c-36da-4fd0-b6d6-ebf87683f8bc": { name: "Sign-in invitation", when: "Sent when you invite someone to sign in." },
  "4758b098-9952-4083-816a-360d0aea53ef": { name: "Password changed", when: "Sent after a user's password was changed." },
  "dec2a601-c073-4367-b01c-2e616d2f9fa0": {
    name: "New sign-in from an unknown device",
    when: "Sent when an account is signed in to from somewhere new.",
  },
};

/** The page name of a template: plain words for the built-in ones, the owner's name otherwise. */
export function templateName(t: { id: string; displayName: string }): string {
  return BUILT_IN_TEMPLATES[t.id]?.name ?? t.displayName;
}

/** When Doorman sends a built-in template; null for the owner's own. */
export function templateWhen(id: string): string | null {
  return BUILT_IN_TEMPLATES[id]?.when ?? null;
}

export const isBuiltInTemplate = (id: string) => Object.hasOwn(BUILT_IN_TEMPLATES, id);

/** The built-in themes, and the names older configs used for them. */
export const BUILT_IN_THEME_IDS = new Set(["1df07ae6-abf3-4a40-83a5-a1a2cbe336ac", "a0172b5d-cff0-463b-83bb-85124697373a"]);
const LEGACY_THEME_NAMES: Record<string, string> = {
  "default-light": "1df07ae6-abf3-4a40-83a5-a1a2cbe336ac",
  "default-dark": "a0172b5d-cff0-463b-83bb-85124697373a",
};

/** The active theme's id as the project's config names it (an unknown one means Default Light, as the API renders). */
export function activeThemeId(config: Record<string, unknown>, themes: { id: string }[]): string {
  const raw = typeof config.emailTheme === "string" ? config.emailTheme : "";
  const id = LEGACY_THEME_NAMES[raw] ?? raw;
  return themes.some((t) => t.id === id) ? id : "1df07ae6-abf3-4a40-83a5-a1a2cbe336ac";
}

/** A theme choice as a <select> value and back: "" = the project's active theme, "none" = no theme. */
export function themeChoiceValue(choice: EmailThemeChoice): string {
  return choice === false ? "none" : (choice ?? "");
}
export function themeChoiceFrom(value: string): string | false | null {
  return value === "none" ? false : value === "" ? null : value;
}

/** The name of a theme choice, for lists. */
export function themeChoiceName(choice: EmailThemeChoice, themes: { id: string; displayName: string }[]): string {
  if (choice === false) return "No theme";
  if (!choice) return "The active theme";
  return themes.find((t) => t.id === choice)?.displayName ?? "A deleted theme";
}

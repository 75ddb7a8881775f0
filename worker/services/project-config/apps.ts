/**
 * The reference's installed-apps switches (`apps.installed.<appId>.enabled`): its app ids, all off by
 * default, with `authentication` and `emails` switched on for a new project (as the reference does).
 *
 * They are switches for the dashboard's navigation: the reference's API refuses nothing Doorman has
 * when one is off (its only gate is `analytics`, on the analytics event and session-replay routes,
 * which Doorman does not have), so Doorman's API does not gate on them either.
 */
import { z } from "zod";

export const APP_IDS = [
  "authentication",
  "fraud-protection",
  "onboarding",
  "teams",
  "rbac",
  "api-keys",
  "payments",
  "emails",
  "email-api",
  "data-vault",
  "webhooks",
  "tv-mode",
  "launch-checklist",
  "catalyst",
  "neon",
  "convex",
  "vercel",
  "analytics",
] as const;
export type AppId = (typeof APP_IDS)[number];

export const appsConfigSchema = z.strictObject({
  installed: z.record(z.enum(APP_IDS), z.strictObject({ enabled: z.boolean() })),
});
export type AppsConfig = z.infer<typeof appsConfigSchema>;

/** Every app off: the rendered default under whatever the overrides set. */
export function defaultAppsConfig(): AppsConfig {
  return { installed: Object.fromEntries(APP_IDS.map((id) => [id, { enabled: false }])) as AppsConfig["installed"] };
}

/** The keys a new project's environment override starts with (the reference's project creation). */
export const NEW_PROJECT_APPS: Record<string, true> = {
  "apps.installed.authentication.enabled": true,
  "apps.installed.emails.enabled": true,
};

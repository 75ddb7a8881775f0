/**
 * How the reference suite's files are grouped for the report, and which files do not run.
 * The spec areas are the ones issue 27 names (users, auth, sessions, teams, permissions, API keys,
 * contact channels, projects and config, emails, payments, webhooks, internal keys).
 */

/** Files that need what only the reference's own deployment has; each with the reason. */
export const EXCLUDED: { glob: string; reason: string }[] = [
  { glob: "tests/backend/performance/**", reason: "load figures for the reference's own Postgres" },
  { glob: "tests/backend/endpoints/api/v1/external-db-sync-*.test.ts", reason: "syncs into an external Postgres (pg client)" },
  { glob: "tests/backend/endpoints/api/v1/analytics-events*.test.ts", reason: "reads back from ClickHouse" },
  { glob: "tests/backend/endpoints/api/v1/analytics-query.test.ts", reason: "queries ClickHouse" },
  { glob: "tests/backend/endpoints/api/v1/session-replays.test.ts", reason: "session replays stored in ClickHouse" },
  { glob: "tests/backend/endpoints/api/v1/token-refresh-events.test.ts", reason: "queries ClickHouse events" },
  { glob: "tests/backend/endpoints/api/v1/risk-scores.test.ts", reason: "reads the reference's source tree (private risk engine)" },
  { glob: "tests/backend/endpoints/api/v1/internal/config-local-emulator.test.ts", reason: "reads the reference's source tree" },
  { glob: "tests/backend/endpoints/api/v1/internal/local-emulator-project.test.ts", reason: "reads the reference's source tree" },
];

/** Areas out of the scope: they run, stay failing, and count only in the overall figure. */
export const OUT_OF_SCOPE = new Set(["analytics", "ai", "integrations", "session replays"]);

const SPEC_AREAS = new Set([
  "users",
  "auth",
  "sessions",
  "teams",
  "permissions",
  "api keys",
  "contact channels",
  "projects and config",
  "emails",
  "payments",
  "webhooks",
]);

export function isSpecArea(area: string): boolean {
  return SPEC_AREAS.has(area);
}

/** The area of a test file, from its path under tests/backend. */
export function areaOf(file: string): string {
  const path = file.replace(/^.*tests\/backend\//, "").replace(/^endpoints\/api\/v1\//, "");
  const rules: [RegExp, string][] = [
    [/^auth\/sessions\//, "sessions"],
    [/^auth\//, "auth"],
    [/^auth-flows/, "auth"],
    [/^restricted-users/, "users"],
    [/^users/, "users"],
    [/^connected-accounts|^oauth-providers/, "auth"],
    [/^team-permission|^project-permission/, "permissions"],
    [/^team/, "teams"],
    [/^api-keys|^internal\/api-keys/, "api keys"],
    [/^contact-channels\//, "contact channels"],
    [/^notification-preferences|^unsubscribe-link/, "emails"],
    [/^emails\/|^email-themes|^send-email|^render-email|^internal\/(email|failed-emails|wysiwyg|managed-email)/, "emails"],
    [/^payments\/|^stripe-webhooks|^internal\/(payments|transactions)/, "payments"],
    [
      /^projects|^internal\/(projects|config|component-versions|sign-up-rules)|^check-feature-support|^data-vault|^index\.test|^migration-tests/,
      "projects and config",
    ],
    [/^integrations\//, "integrations"],
    [/^analytics|^internal-metrics|^session-replays|^token-refresh-events/, "analytics"],
    [/^ai-query/, "ai"],
    [/^internal\/feedback|^health\//, "other"],
  ];
  for (const [pattern, area] of rules) if (pattern.test(path)) return area;
  return "other";
}

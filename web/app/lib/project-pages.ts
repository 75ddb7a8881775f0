/** The pages of a project's console (`/projects/:projectId/<path>`). */

/** In navigation order; "" is the overview. */
export const PROJECT_PAGES = [
  { path: "", label: "Overview" },
  { path: "connect", label: "Connect" },
  { path: "users", label: "Users" },
  { path: "teams", label: "Teams" },
  { path: "sign-in-methods", label: "Sign-in methods" },
  { path: "sign-up-rules", label: "Sign-up rules" },
  { path: "protection", label: "Protection" },
  { path: "oauth-apps", label: "OAuth apps" },
  { path: "domains", label: "Domains" },
  { path: "permissions", label: "Permissions" },
  { path: "emails", label: "Emails" },
  { path: "payments", label: "Payments" },
  { path: "keys", label: "Keys" },
  { path: "events", label: "Events" },
  { path: "webhooks", label: "Webhooks" },
  { path: "settings", label: "Settings" },
] as const;

/**
 * The assistant's system prompt: what Doorman is, this project's current config with every secret
 * left out, and the API's operations (the OpenAPI summaries), so that answers use this project's
 * facts ("why is my redirect refused" → its trusted domains). Email contexts add the source being edited.
 */
import type { AiChatContextType } from "@doorman/shared/wire-ai-chat";
import type { ProjectRow } from "../../db/queries/projects";
import type { RenderedConfig } from "../project-config/rendered";
import { withoutSecrets } from "../project-config/secrets";

const ABOUT = `You are the assistant in the Doorman console, talking to the owner of one project.
Doorman is hosted sign-in and user management at the edge (a Cloudflare worker), wire-compatible with Stack Auth: apps use the Stack Auth SDK or Doorman's SDK against /api/v1.
Answer questions about this project and its setup briefly, in Markdown, with exact config keys, console pages and API paths. Use the project's config below for its facts; do not invent features, and say so when Doorman has none.
Config is changed on the console's pages, or with PATCH /api/v1/internal/config/override/environment and a body {"config_override_string": "{\\"auth.passkey.allowSignIn\\": true}"} (dotted keys; null resets a key to its default).
Redirect and callback URLs are accepted only on a trusted domain (domains.trustedDomains, each a baseUrl with a handlerPath), or on localhost when domains.allowLocalhost is true; anything else is refused with REDIRECT_URL_NOT_WHITELISTED.
Never ask for, guess or repeat secrets (keys, passwords, client secrets); they are not shown to you.`;

/** The config as the model sees it: no secrets, and email themes and templates by name only (their sources are long). */
function configForPrompt(config: RenderedConfig): unknown {
  const clean = withoutSecrets(config);
  const names = (record: Record<string, { displayName: string }>) =>
    Object.fromEntries(Object.entries(record).map(([id, v]) => [id, v.displayName]));
  return { ...clean, emails: { ...clean.emails, themes: names(clean.emails.themes), templates: names(clean.emails.templates) } };
}

export type PromptContext = {
  project: ProjectRow;
  config: RenderedConfig;
  contextType: AiChatContextType;
  /** For email contexts: the id (the thread id, as in the reference) and the TSX source being edited, when found. */
  editing?: { id: string; source: string | null };
  /** The API's operations, one line each (`apiSummaryLines` of http/api-document.ts, handed in by the route). */
  apiOperations: string[];
};

export function systemPrompt(ctx: PromptContext): string {
  const parts = [
    ABOUT,
    `Project: ${JSON.stringify(ctx.project.displayName)} (id ${ctx.project.id}), ${ctx.project.isProductionMode ? "production" : "development"} mode.`,
    `The project's current config (JSON, secrets removed):\n${JSON.stringify(configForPrompt(ctx.config))}`,
  ];
  if (ctx.contextType !== "project" && ctx.editing) {
    const kind = ctx.contextType.replace("email-", "email ");
    parts.push(
      ctx.editing.source === null
        ? `The owner is editing the ${kind} ${JSON.stringify(ctx.editing.id)}, which is not saved yet. Emails are React Email TSX (@react-email/components).`
        : `The owner is editing the ${kind} ${JSON.stringify(ctx.editing.id)}, React Email TSX (@react-email/components). Its current source:\n\`\`\`tsx\n${ctx.editing.source}\n\`\`\``,
    );
  }
  parts.push(`The API's operations (method, path, [access levels]: summary):\n${ctx.apiOperations.join("\n")}`);
  return parts.join("\n\n");
}

/**
 * The assistant's provider settings as the Settings form edits them: config `doorman.ai` read from
 * the rendered config, the form's checks, and the dotted keys written back with updateConfig.
 */
// Types only: the wire module's zod schemas stay out of the Settings page's bundle.
import type { AiProviderChoice } from "@doorman/shared/wire-ai-chat";
import type { OwnedProject } from "../../lib/dashboard-types";

export type AiConfig = { provider: AiProviderChoice; baseUrl?: string; model?: string; timeoutMs?: number };
/** Field errors by the id of the field in error, in page order. */
export type FieldErrors = Record<string, string>;
export type AiUsage = { requests: number; promptTokens: number; completionTokens: number };

/** Every provider (the Record type makes the list complete), in the select's order. */
export const PROVIDER_LABELS: Record<AiProviderChoice, string> = {
  deployment: "Deployment default",
  "openai-compatible": "OpenAI-compatible",
  "workers-ai": "Workers AI",
  off: "Off",
};

export const PROVIDERS = Object.keys(PROVIDER_LABELS) as AiProviderChoice[];

export const PROVIDER_HINTS: Record<AiProviderChoice, string> = {
  deployment: "The model this Doorman deployment is set up with (its Workers AI binding or AI_BASE_URL).",
  "openai-compatible": "Any chat-completions endpoint: OpenAI, a gateway, or a model server of your own.",
  "workers-ai": "Cloudflare Workers AI through the deployment's AI binding.",
  off: "The assistant does not answer in this project.",
};

export async function loadAiConfig(project: OwnedProject): Promise<AiConfig> {
  const config = (await project.getConfig()) as { doorman?: { ai?: Partial<AiConfig> } };
  const ai = config.doorman?.ai ?? {};
  return { provider: ai.provider ?? "deployment", baseUrl: ai.baseUrl, model: ai.model, timeoutMs: ai.timeoutMs };
}

export type AiForm = { provider: AiProviderChoice; baseUrl: string; model: string; apiKey: string; forgetKey: boolean; timeoutMs: string };

export const formOf = (ai: AiConfig): AiForm => ({
  provider: ai.provider,
  baseUrl: ai.baseUrl ?? "",
  model: ai.model ?? "",
  apiKey: "",
  forgetKey: false,
  timeoutMs: ai.timeoutMs === undefined ? "" : String(ai.timeoutMs),
});

export function problems(form: AiForm): FieldErrors {
  const errors: FieldErrors = {};
  if (form.provider === "openai-compatible") {
    const url = URL.canParse(form.baseUrl.trim()) ? new URL(form.baseUrl.trim()) : null;
    if (!url || !/^https?:$/.test(url.protocol))
      errors["assistant-base-url"] = "Enter the endpoint's base URL, like https://api.openai.com/v1.";
    if (!form.model.trim()) errors["assistant-model"] = "Enter the model's name, like gpt-4o-mini.";
  }
  const timeout = Number(form.timeoutMs);
  if (form.timeoutMs.trim() && (!Number.isInteger(timeout) || timeout < 100 || timeout > 120_000))
    errors["assistant-timeout"] = "Use a whole number from 100 to 120000.";
  return errors;
}

/**
 * The dotted `doorman.ai.*` keys of the form: an empty field removes its key (the default applies),
 * and the API key is sent only when typed, or as null when the owner removes it.
 */
export function overrideOf(form: AiForm): Record<string, unknown> {
  const usesEndpoint = form.provider === "openai-compatible";
  const usesModel = usesEndpoint || form.provider === "workers-ai";
  const override: Record<string, unknown> = {
    "doorman.ai.provider": form.provider,
    "doorman.ai.baseUrl": usesEndpoint ? form.baseUrl.trim() : null,
    "doorman.ai.model": usesModel && form.model.trim() ? form.model.trim() : null,
    "doorman.ai.timeoutMs": form.timeoutMs.trim() ? Number(form.timeoutMs) : null,
  };
  if (form.forgetKey) override["doorman.ai.apiKey"] = null;
  else if (usesEndpoint && form.apiKey) override["doorman.ai.apiKey"] = form.apiKey;
  return override;
}

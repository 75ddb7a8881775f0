/**
 * Settings → Assistant (`#assistant`): the console assistant's model provider, config
 * `doorman.ai` (the deployment's default, an OpenAI-compatible endpoint, Workers AI, or off), its
 * base URL, model, API key (write-only: never read back) and timeout, and the tokens the assistant
 * used in the last 30 days.
 */
import { type FormEvent, useEffect, useRef, useState } from "react";
import { formatCount } from "../../lib/format";
import { errorMessage, useProject } from "../../lib/project-context";
import { configErrorMessage } from "../config/api-error";
import { TextField, useAction } from "../console-ui";
import {
  type AiForm,
  type AiUsage,
  type FieldErrors,
  formOf,
  loadAiConfig,
  overrideOf,
  PROVIDER_HINTS,
  PROVIDER_LABELS,
  PROVIDERS,
  problems,
} from "./assistant-config";

export function AssistantSettings() {
  const { project, toast } = useProject();
  const [form, setForm] = useState<AiForm | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [usage, setUsage] = useState<AiUsage | string | null>(null);
  const [errors, setErrors] = useState<FieldErrors>({});
  const { busy, error: failure, run } = useAction();
  const projectRef = useRef(project);
  projectRef.current = project;
  const failureRef = useRef<HTMLParagraphElement>(null);

  // A failed save's message takes focus, so the owner hears what went wrong.
  useEffect(() => {
    if (failure) failureRef.current?.focus();
  }, [failure]);

  useEffect(() => {
    let live = true;
    const current = projectRef.current;
    loadAiConfig(current)
      .then((ai) => live && setForm(formOf(ai)))
      .catch((e: unknown) => live && setLoadError(errorMessage(e, "Could not load the assistant settings.")));
    current.app
      .getProjectStats()
      .then((stats) => live && setUsage(stats.aiUsage))
      .catch((e: unknown) => live && setUsage(errorMessage(e, "Could not read the assistant's usage.")));
    return () => {
      live = false;
    };
  }, []);

  const set = (patch: Partial<AiForm>) => setForm((f) => (f ? { ...f, ...patch } : f));

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (!form || busy) return;
    const found = problems(form);
    setErrors(found);
    const first = Object.keys(found)[0];
    // One task later: the field's error is rendered and described by then.
    if (first) return void setTimeout(() => document.getElementById(first)?.focus());
    await run(async () => {
      try {
        await project.updateConfig(overrideOf(form), "environment");
      } catch (e) {
        throw new Error(configErrorMessage(e, "Could not save the assistant settings."));
      }
      setForm(formOf(await loadAiConfig(project)));
      toast("Assistant settings saved.");
    });
  };

  const endpoint = form?.provider === "openai-compatible";
  const usesModel = endpoint || form?.provider === "workers-ai";
  return (
    <section className="panel" id="assistant" aria-labelledby="assistant-settings-heading">
      <h2 id="assistant-settings-heading">Assistant</h2>
      <p className="muted">The model that answers the console's Assistant panel for this project.</p>
      {loadError ? (
        <p className="alert" role="alert">
          {loadError}
        </p>
      ) : form === null ? (
        <p className="muted" role="status">
          Loading the assistant settings…
        </p>
      ) : (
        <form className="form" noValidate onSubmit={onSubmit} aria-label="Assistant settings">
          <div className="field">
            <label htmlFor="assistant-provider">Model provider</label>
            <select
              id="assistant-provider"
              className="input"
              aria-describedby="assistant-provider-hint"
              value={form.provider}
              onChange={(e) => set({ provider: e.target.value as AiForm["provider"] })}
            >
              {PROVIDERS.map((p) => (
                <option key={p} value={p}>
                  {PROVIDER_LABELS[p]}
                </option>
              ))}
            </select>
            <p className="muted" id="assistant-provider-hint">
              {PROVIDER_HINTS[form.provider]}
            </p>
          </div>
          {endpoint ? (
            <TextField
              id="assistant-base-url"
              label="Base URL"
              type="url"
              inputMode="url"
              autoComplete="off"
              placeholder="https://api.openai.com/v1"
              value={form.baseUrl}
              error={errors["assistant-base-url"]}
              onChange={(e) => set({ baseUrl: e.target.value })}
            />
          ) : null}
          {usesModel ? (
            <TextField
              id="assistant-model"
              label="Model"
              autoComplete="off"
              placeholder={endpoint ? "gpt-4o-mini" : undefined}
              hint={endpoint ? undefined : "Empty: the deployment's default Workers AI model."}
              value={form.model}
              error={errors["assistant-model"]}
              onChange={(e) => set({ model: e.target.value })}
            />
          ) : null}
          {endpoint ? (
            <>
              <TextField
                id="assistant-api-key"
                label="API key"
                type="password"
                // Why: a write-only secret; the browser must not fill in the owner's own password here.
                autoComplete="new-password"
                hint="Stored sealed and never shown again. Leave empty to keep the stored key. Changing the provider or base URL clears the saved key: enter it again."
                value={form.apiKey}
                disabled={form.forgetKey}
                onChange={(e) => set({ apiKey: e.target.value })}
              />
              <div className="config-toggle">
                <input
                  id="assistant-forget-key"
                  type="checkbox"
                  checked={form.forgetKey}
                  onChange={(e) => set({ forgetKey: e.target.checked, apiKey: "" })}
                />
                <div className="config-toggle-text">
                  <label htmlFor="assistant-forget-key">Remove the stored API key</label>
                </div>
              </div>
            </>
          ) : null}
          {form.provider !== "off" ? (
            <TextField
              id="assistant-timeout"
              label="Timeout (ms)"
              type="number"
              inputMode="numeric"
              min={100}
              max={120_000}
              hint="How long to wait for the model's first words, and between its pieces. Empty: the default."
              value={form.timeoutMs}
              error={errors["assistant-timeout"]}
              onChange={(e) => set({ timeoutMs: e.target.value })}
            />
          ) : null}
          {failure ? (
            <p className="alert" role="alert" tabIndex={-1} ref={failureRef}>
              {failure}
            </p>
          ) : null}
          <div className="form-actions">
            <button type="submit" className="btn" disabled={busy} aria-busy={busy}>
              {busy ? "Saving…" : "Save assistant settings"}
            </button>
          </div>
        </form>
      )}
      <AssistantUsage usage={usage} />
    </section>
  );
}

/** The usage, or why it could not be read. */
function AssistantUsage({ usage }: { usage: AiUsage | string | null }) {
  if (usage === null) return null;
  const n = (value: number) => formatCount(value);
  return (
    <div className="assistant-usage">
      <h3 className="assistant-usage-title">Tokens used in the last 30 days</h3>
      {typeof usage === "string" ? (
        <p className="alert assistant-usage-text">{usage}</p>
      ) : (
        <p className="assistant-usage-text" data-testid="assistant-usage">
          {n(usage.promptTokens + usage.completionTokens)} tokens ({n(usage.promptTokens)} in questions and context,{" "}
          {n(usage.completionTokens)} in replies) over {n(usage.requests)} {usage.requests === 1 ? "request" : "requests"}.
        </p>
      )}
    </div>
  );
}

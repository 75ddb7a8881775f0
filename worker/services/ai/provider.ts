/**
 * The assistant's model provider: an OpenAI-compatible chat-completions endpoint, or the Workers AI
 * binding. Both answer whole or streamed; every failure becomes a known error
 * (AI_PROVIDER_NOT_CONFIGURED, AI_PROVIDER_ERROR, AI_PROVIDER_TIMEOUT) before the caller sees it.
 * `timeoutMs` bounds the wait for the first byte and every gap between streamed pieces; the deployment's
 * `outbound.ai` bounds the whole answer (time and bytes), so a provider that drips forever still ends.
 */
import { KnownError } from "@doorman/shared/known-errors";
import type { AiProviderChoice } from "@doorman/shared/wire-ai-chat";
import { DEFAULT_OUTBOUND_LIMITS, type DeploymentAi, type OutboundLimits } from "../../config";
import type { WorkersAiBinding } from "../../env";
import { readCapped } from "../../lib/outbound-fetch";
import { checkWebhookUrl } from "../webhooks/urls";

export type ChatTurn = { role: "system" | "user" | "assistant"; content: string };
export type ChatUsage = { promptTokens: number; completionTokens: number };
export type ChatPiece = { text?: string; usage?: ChatUsage };

export type ChatProvider = {
  /** The whole reply. */
  complete(turns: ChatTurn[]): Promise<{ text: string; usage: ChatUsage | null }>;
  /** Resolves once the provider accepted the call (an error status throws here); then the pieces. */
  stream(turns: ChatTurn[]): Promise<AsyncIterable<ChatPiece>>;
};

/** A project's `doorman.ai` with its key opened. */
export type AiSettings = {
  provider: AiProviderChoice;
  baseUrl?: string;
  model?: string;
  apiKey: string | null;
  timeoutMs: number;
};

/** The longest reply asked of the model, in tokens. */
export const MAX_OUTPUT_TOKENS = 1024;
// Long enough for a provider's error message, short enough for an alert.
const MAX_ERROR_TEXT = 300;
/** How much of an error answer is read to find its message. */
const MAX_ERROR_BODY_BYTES = 16 * 1024;

type Resolved =
  | { kind: "openai"; baseUrl: string; apiKey: string | null; model: string }
  | { kind: "workers-ai"; binding: WorkersAiBinding; model: string };

/** Which provider answers: the project's choice, or the deployment's (the binding first, then AI_BASE_URL). */
function resolve(settings: AiSettings, deployment: DeploymentAi, binding: WorkersAiBinding | undefined, development: boolean): Resolved {
  const notConfigured = () => new KnownError("AI_PROVIDER_NOT_CONFIGURED");
  switch (settings.provider) {
    case "off":
      throw notConfigured();
    case "openai-compatible": {
      if (!settings.baseUrl || !settings.model) throw notConfigured();
      // Why: the worker sends the project's conversation and key there, so outside development it
      // must be https and must not reach the platform's own network (the webhook rule, SSRF).
      const checked = checkWebhookUrl(settings.baseUrl, { development });
      if (!checked.ok) throw new KnownError("AI_PROVIDER_ERROR", { message: `doorman.ai.baseUrl: ${checked.message}` });
      return { kind: "openai", baseUrl: settings.baseUrl.replace(/\/+$/, ""), apiKey: settings.apiKey, model: settings.model };
    }
    case "workers-ai":
      if (!binding) throw notConfigured();
      return { kind: "workers-ai", binding, model: settings.model ?? deployment.workersAiModel };
    case "deployment":
      if (binding) return { kind: "workers-ai", binding, model: deployment.workersAiModel };
      if (deployment.openAiCompatible) return { kind: "openai", ...deployment.openAiCompatible };
      throw notConfigured();
  }
}

/**
 * Whether the project's choice (or the deployment's default) names a model at all, without calling
 * it: false exactly when asking would answer AI_PROVIDER_NOT_CONFIGURED. A configured endpoint that
 * fails its checks still counts as configured (the chat then says what is wrong with it).
 */
export function aiProviderConfigured(
  settings: Pick<AiSettings, "provider" | "baseUrl" | "model">,
  deployment: DeploymentAi,
  binding: WorkersAiBinding | undefined,
): boolean {
  switch (settings.provider) {
    case "off":
      return false;
    case "openai-compatible":
      return Boolean(settings.baseUrl && settings.model);
    case "workers-ai":
      return binding !== undefined;
    case "deployment":
      return binding !== undefined || Boolean(deployment.openAiCompatible);
  }
}

/** `answer`: the whole answer's bounds (time from the call, bytes of the provider's body). */
export function chatProvider(
  settings: AiSettings,
  deployment: DeploymentAi,
  binding: WorkersAiBinding | undefined,
  development: boolean,
  answer: OutboundLimits["ai"] = DEFAULT_OUTBOUND_LIMITS.ai,
): ChatProvider {
  const resolved = resolve(settings, deployment, binding, development);
  const redact = resolved.kind === "openai" && resolved.apiKey ? redactor(resolved.apiKey) : (text: string) => text;
  const timeout = new Deadline(settings.timeoutMs, answer.timeoutMs, answer.maxBodyBytes);
  return resolved.kind === "openai" ? openAiProvider(resolved, timeout, redact) : workersAiProvider(resolved, timeout);
}

/**
 * Cuts the key out of a provider's error text in every form a provider might echo it: raw,
 * base64 (padded or not), base64url, URL-encoded and hex (either case). Why: a provider that
 * quotes the Authorization header or the key it refused would otherwise hand it to the caller.
 */
export function redactor(key: string): (text: string) => string {
  const bytes = new TextEncoder().encode(key);
  const base64 = btoa(String.fromCharCode(...bytes));
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
  const forms = [
    key,
    base64,
    base64.replace(/=+$/, ""),
    base64.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""),
    encodeURIComponent(key),
    encodeURI(key),
    hex,
    hex.toUpperCase(),
  ];
  // Longest first, so a longer form is not half-cut by a shorter one inside it.
  const unique = [...new Set(forms)].filter((f) => f.length >= 4).sort((a, b) => b.length - a.length);
  return (text) => unique.reduce((out, form) => out.split(form).join("[redacted]"), text);
}

/**
 * Aborts a call when the provider stays silent for `ms` (every piece re-arms it) or when the whole
 * answer takes longer than `totalMs` (armed once, at the call).
 */
class Deadline {
  readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private total: ReturnType<typeof setTimeout> | undefined;
  constructor(
    readonly ms: number,
    readonly totalMs: number,
    readonly maxBytes: number,
  ) {}
  arm(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.abort(this.ms), this.ms);
    // Why never re-armed: a provider that sends a small piece just inside every gap would otherwise hold the isolate forever.
    this.total ??= setTimeout(() => this.abort(this.totalMs), this.totalMs);
  }
  private abort(ms: number): void {
    this.controller.abort(new KnownError("AI_PROVIDER_TIMEOUT", { timeout_ms: ms }));
  }
  clear(): void {
    clearTimeout(this.timer);
    clearTimeout(this.total);
  }
  /** The error of an answer that passed `maxBytes` (the reading stopped there). */
  tooLarge(): KnownError {
    return new KnownError("AI_PROVIDER_ERROR", { message: `The provider's answer passed ${this.maxBytes} bytes; reading stopped there.` });
  }
  /** The timeout error when the deadline fired, else `error` as a provider failure. */
  failure(error: unknown): KnownError {
    if (this.controller.signal.aborted) return this.controller.signal.reason as KnownError;
    if (error instanceof KnownError) return error;
    return new KnownError("AI_PROVIDER_ERROR", { message: error instanceof Error ? error.message : String(error) });
  }
  /** Races `promise` against the deadline (for calls that take no signal, like the AI binding). */
  race<T>(promise: Promise<T>): Promise<T> {
    return new Promise<T>((resolvePromise, reject) => {
      const onAbort = () => reject(this.controller.signal.reason);
      this.controller.signal.addEventListener("abort", onAbort, { once: true });
      promise.then(resolvePromise, reject).finally(() => this.controller.signal.removeEventListener("abort", onAbort));
    });
  }
}

const toUsage = (u: { prompt_tokens?: unknown; completion_tokens?: unknown } | undefined | null): ChatUsage | null =>
  u && typeof u.prompt_tokens === "number" && typeof u.completion_tokens === "number"
    ? { promptTokens: u.prompt_tokens, completionTokens: u.completion_tokens }
    : null;

/** The `data:` payloads of an event stream, as they arrive; a piece that takes longer than the deadline aborts it. */
async function* sseData(body: ReadableStream<Uint8Array>, deadline: Deadline): AsyncGenerator<string> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let bytes = 0;
  try {
    for (;;) {
      deadline.arm();
      const { done, value } = await deadline.race(reader.read());
      if (done) break;
      bytes += value.byteLength;
      if (bytes > deadline.maxBytes) throw deadline.tooLarge();
      buffer += decoder.decode(value, { stream: true });
      const lines = buffer.split(/\r?\n/);
      buffer = lines.pop() ?? "";
      for (const line of lines) if (line.startsWith("data:")) yield line.slice(5).trim();
    }
    if (buffer.startsWith("data:")) yield buffer.slice(5).trim();
  } catch (error) {
    throw deadline.failure(error);
  } finally {
    deadline.clear();
    reader.cancel().catch(() => {});
  }
}

function parseJson(data: string, message = "The provider sent a piece that is not JSON."): Record<string, unknown> {
  try {
    return JSON.parse(data) as Record<string, unknown>;
  } catch {
    throw new KnownError("AI_PROVIDER_ERROR", { message });
  }
}

function openAiProvider(p: Extract<Resolved, { kind: "openai" }>, deadline: Deadline, redact: (s: string) => string): ChatProvider {
  const call = async (turns: ChatTurn[], stream: boolean): Promise<Response> => {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      accept: stream ? "text/event-stream" : "application/json",
    };
    if (p.apiKey) headers.authorization = `Bearer ${p.apiKey}`;
    const body = {
      model: p.model,
      messages: turns,
      max_tokens: MAX_OUTPUT_TOKENS,
      stream,
      ...(stream ? { stream_options: { include_usage: true } } : {}),
    };
    deadline.arm();
    let res: Response;
    try {
      res = await fetch(`${p.baseUrl}/chat/completions`, {
        method: "POST",
        headers,
        body: JSON.stringify(body),
        // Why "manual": the base URL is the project's and was checked (SSRF); a redirect could lead past that check.
        redirect: "manual",
        signal: deadline.controller.signal,
      });
    } catch (error) {
      deadline.clear();
      const failure = deadline.failure(error);
      if (failure.code === "AI_PROVIDER_ERROR" && !(error instanceof KnownError))
        throw new KnownError("AI_PROVIDER_ERROR", { message: `Could not reach ${new URL(p.baseUrl).host}.` });
      throw failure;
    }
    const location = res.headers.get("location");
    if (res.status >= 300 && res.status < 400 && location !== null) {
      deadline.clear();
      res.body?.cancel().catch(() => {});
      throw new KnownError("AI_PROVIDER_ERROR", {
        provider_status: res.status,
        message: redact(`The provider redirected to ${location.slice(0, MAX_ERROR_TEXT)}; redirects are not followed.`),
      });
    }
    if (!res.ok) {
      const read = await readCapped(res.body, MAX_ERROR_BODY_BYTES, deadline.controller.signal).catch(() => null);
      deadline.clear();
      const text = read ? new TextDecoder().decode(read.bytes) : "";
      let message = text.slice(0, MAX_ERROR_TEXT) || res.statusText;
      try {
        const parsed = JSON.parse(text) as { error?: { message?: unknown } | string };
        const inner = typeof parsed.error === "string" ? parsed.error : parsed.error?.message;
        if (typeof inner === "string") message = inner.slice(0, MAX_ERROR_TEXT);
      } catch {}
      throw new KnownError("AI_PROVIDER_ERROR", { provider_status: res.status, message: redact(message) });
    }
    return res;
  };
  return {
    async complete(turns) {
      const res = await call(turns, false);
      try {
        const read = await readCapped(res.body, deadline.maxBytes, deadline.controller.signal);
        if (read.truncated) throw deadline.tooLarge();
        const json = parseJson(new TextDecoder().decode(read.bytes), "The provider's answer is not JSON.") as {
          choices?: { message?: { content?: unknown } }[];
          usage?: never;
        };
        const text = json.choices?.[0]?.message?.content;
        if (typeof text !== "string") throw new KnownError("AI_PROVIDER_ERROR", { message: "The provider's answer has no message." });
        return { text, usage: toUsage(json.usage) };
      } catch (error) {
        throw deadline.failure(error);
      } finally {
        deadline.clear();
      }
    },
    async stream(turns) {
      const res = await call(turns, true);
      if (!res.body) throw new KnownError("AI_PROVIDER_ERROR", { message: "The provider answered without a body." });
      const body = res.body;
      return (async function* () {
        for await (const data of sseData(body, deadline)) {
          if (data === "[DONE]") return;
          const json = parseJson(data) as { choices?: { delta?: { content?: unknown } }[]; usage?: never; error?: { message?: string } };
          if (json.error) throw new KnownError("AI_PROVIDER_ERROR", { message: redact(String(json.error.message ?? "stream error")) });
          const text = json.choices?.[0]?.delta?.content;
          const usage = toUsage(json.usage);
          if (typeof text === "string" && text) yield { text };
          if (usage) yield { usage };
        }
      })();
    },
  };
}

function workersAiProvider(p: Extract<Resolved, { kind: "workers-ai" }>, deadline: Deadline): ChatProvider {
  const run = async (turns: ChatTurn[], stream: boolean): Promise<unknown> => {
    deadline.arm();
    try {
      return await deadline.race(p.binding.run(p.model, { messages: turns, stream, max_tokens: MAX_OUTPUT_TOKENS }));
    } catch (error) {
      deadline.clear();
      throw deadline.failure(error);
    }
  };
  return {
    async complete(turns) {
      const out = (await run(turns, false)) as { response?: unknown; usage?: never };
      deadline.clear();
      if (typeof out?.response !== "string")
        throw new KnownError("AI_PROVIDER_ERROR", { message: "Workers AI answered without a response." });
      return { text: out.response, usage: toUsage(out.usage) };
    },
    async stream(turns) {
      const out = await run(turns, true);
      if (!(out instanceof ReadableStream)) throw new KnownError("AI_PROVIDER_ERROR", { message: "Workers AI did not stream." });
      const body = out as ReadableStream<Uint8Array>;
      return (async function* () {
        // Workers AI streams `data: {"response": "…"}` pieces, a last one with `usage`, then `data: [DONE]`.
        for await (const data of sseData(body, deadline)) {
          if (data === "[DONE]") return;
          const json = parseJson(data) as { response?: unknown; usage?: never };
          if (typeof json.response === "string" && json.response) yield { text: json.response };
          const usage = toUsage(json.usage);
          if (usage) yield { usage };
        }
      })();
    },
  };
}

/**
 * The console's AI assistant on the wire (issue 17): `/internal/ai-chat/{thread_id}`, admin access
 * (admin key or a project owner's session), wire as the reference
 * (apps/backend/src/app/api/latest/internal/ai-chat/[threadId]/route.tsx) plus Doorman's additions.
 *
 * - `GET` answers `{ messages: [...] }`: the thread's stored messages, oldest first, each as saved
 *   (`{ role, content }`).
 * - `PATCH { message }` appends one message (the reference); `PATCH { messages }` replaces the whole
 *   thread (Doorman: after an edit, or to clear it). Answers `{}`.
 * - `POST` asks the model. Two forms:
 *   - `{ context_type, messages }` (the reference): the conversation is what the caller sends; nothing
 *     is stored (the reference's dashboard then saves with PATCH).
 *   - `{ context_type?, message }` (Doorman): the thread's stored messages plus this user message go to
 *     the model; the user message and the reply are appended to the thread together, once the reply is
 *     complete (a failed call stores nothing).
 *   It answers `{ content: [{ type: "text", text }] }`, or, when the request has
 *   `Accept: text/event-stream` (or `stream: true`), server-sent events:
 *   - `event: delta` / `data: { "text": "…" }`: the next piece of the reply;
 *   - `event: done` / `data: { "content": [...], "usage": { prompt_tokens, completion_tokens } }`;
 *   - `event: error` / `data: { code, error, details }`: a known error after the stream began.
 *   An error before the first byte (validation, no provider, rate limit, the provider's error status
 *   or its timeout) is a normal JSON known error.
 *
 * Threads belong to (project, owner): an owner's session keys them by the owner's user id, the admin
 * key by the key itself, so one owner never reads another's thread and no project reads another's.
 */
import { z } from "zod";

import { AI_CHAT_CONTEXT_TYPES, AI_CHAT_MAX_MESSAGE_CHARS, AI_CHAT_MAX_MESSAGES, AI_CHAT_MAX_STORED_MESSAGE_BYTES } from "./ai-chat-limits";

export * from "./ai-chat-limits";

export const aiChatThreadIdSchema = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_-]+$/, "a thread id has letters, digits, _ and -");

export const aiChatTextBlockSchema = z.object({ type: z.literal("text"), text: z.string().max(AI_CHAT_MAX_MESSAGE_CHARS) });
/** The reference's tool-call block (answered by its email editors); Doorman stores it as given. */
export const aiChatToolCallBlockSchema = z.object({
  type: z.literal("tool-call"),
  toolName: z.string().max(256),
  toolCallId: z.string().max(256),
  args: z.unknown(),
  argsText: z.string().max(AI_CHAT_MAX_STORED_MESSAGE_BYTES),
  result: z.unknown(),
});
export const aiChatContentSchema = z.union([
  z.string().max(AI_CHAT_MAX_MESSAGE_CHARS),
  z.array(z.union([aiChatTextBlockSchema, aiChatToolCallBlockSchema])).max(64),
]);
export type AiChatContent = z.infer<typeof aiChatContentSchema>;

export const aiChatMessageSchema = z.object({ role: z.enum(["user", "assistant", "tool"]), content: aiChatContentSchema });
export type AiChatMessage = z.infer<typeof aiChatMessageSchema>;

export const aiChatPostBodySchema = z.object({
  context_type: z.enum(AI_CHAT_CONTEXT_TYPES).optional(),
  messages: z.array(aiChatMessageSchema).min(1).max(AI_CHAT_MAX_MESSAGES).optional(),
  message: z.union([z.string().min(1).max(AI_CHAT_MAX_MESSAGE_CHARS), aiChatMessageSchema]).optional(),
  stream: z.boolean().optional(),
});

export const aiChatReplySchema = z.object({ content: z.array(aiChatTextBlockSchema) });
export type AiChatReplyJson = z.infer<typeof aiChatReplySchema>;

export const aiChatUsageSchema = z.object({ prompt_tokens: z.number().int(), completion_tokens: z.number().int() });
export type AiChatUsageJson = z.infer<typeof aiChatUsageSchema>;

/** GET answers the stored messages as saved (the reference stores PATCHed messages as they came). */
export const aiChatThreadSchema = z.object({ messages: z.array(z.unknown()) });

/**
 * The assistant's provider, `doorman.ai` in the project config (GET /internal/config; written with
 * /internal/config/override like every key):
 * - `provider`: "deployment" (default: the worker's Workers AI binding `AI`, or its AI_BASE_URL /
 *   AI_API_KEY / AI_MODEL vars), "openai-compatible", "workers-ai" or "off";
 * - `baseUrl`, `model`, `apiKey` (a secret: sealed at rest, never answered) for "openai-compatible";
 * - `model` for "workers-ai" (default @cf/meta/llama-3.3-70b-instruct-fp8-fast: its 24k-token context holds the grounding);
 * - `timeoutMs`: how long to wait for the provider's first byte and between pieces (default 30000).
 */
export const AI_PROVIDERS = ["deployment", "openai-compatible", "workers-ai", "off"] as const;
export type AiProviderChoice = (typeof AI_PROVIDERS)[number];
export const DEFAULT_WORKERS_AI_MODEL = "@cf/meta/llama-3.3-70b-instruct-fp8-fast";
export const DEFAULT_AI_TIMEOUT_MS = 30_000;

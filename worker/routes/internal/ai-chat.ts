/**
 * /internal/ai-chat/{thread_id}: the console's assistant, wire as the reference (POST asks, PATCH
 * saves, GET reads) plus Doorman's stored-thread question and server-sent events
 * (sdk/src/shared/wire-ai-chat.ts). Admin access: the admin key or a project owner's session.
 */

import { KnownError } from "@doorman/shared/known-errors";
import {
  AI_CHAT_MAX_MESSAGES,
  AI_CHAT_MAX_STORED_MESSAGE_BYTES,
  type AiChatMessage,
  aiChatMessageSchema,
  aiChatPostBodySchema,
  aiChatReplySchema,
  aiChatThreadIdSchema,
  aiChatThreadSchema,
} from "@doorman/shared/wire-ai-chat";
import { z } from "zod";
import { apiSummaryLines } from "../../http/api-document";
import { addRoute, defineRoute, routeGroup } from "../../http/route";
import { appendToThread, type PreparedChat, prepareChat, readThread, replaceThread, threadKey } from "../../services/ai/chat";
import type { ChatPiece } from "../../services/ai/provider";

const params = z.strictObject({ thread_id: aiChatThreadIdSchema });
const AI_ERRORS = ["AI_PROVIDER_NOT_CONFIGURED", "AI_PROVIDER_ERROR", "AI_PROVIDER_TIMEOUT"] as const;

const getThread = defineRoute({
  method: "get",
  path: "/{thread_id}",
  summary: "The assistant thread's stored messages, oldest first (the caller's own thread)",
  access: ["admin"],
  params,
  response: aiChatThreadSchema,
});

const storedMessage = z.unknown().refine((m) => m !== undefined && m !== null, "message must be defined");
const patchThread = defineRoute({
  method: "patch",
  path: "/{thread_id}",
  summary: "Save a chat message (`message`, appended), or replace the thread's messages (`messages`)",
  access: ["admin"],
  params,
  body: z
    .strictObject({ message: storedMessage.optional(), messages: z.array(aiChatMessageSchema).max(AI_CHAT_MAX_MESSAGES).optional() })
    .refine((b) => (b.message === undefined) !== (b.messages === undefined), "send either message or messages")
    .refine(
      (b) => b.message === undefined || JSON.stringify(b.message).length <= AI_CHAT_MAX_STORED_MESSAGE_BYTES,
      `message must be at most ${AI_CHAT_MAX_STORED_MESSAGE_BYTES} bytes of JSON`,
    ),
  response: z.object({}),
});

const postThread = defineRoute({
  method: "post",
  path: "/{thread_id}",
  summary: "Ask the project's assistant: the reference's `messages` (nothing stored) or a `message` in the stored thread",
  description:
    'Answers `{content: [{type: "text", text}]}`, or with `Accept: text/event-stream` (or `stream: true`) server-sent events: ' +
    "`delta` `{text}` pieces, then `done` `{content, usage}`, or `error` `{code, error, details}`. Rate-limited per owner " +
    "(AI_CHAT_PER_OWNER: 429 with Retry-After). The question and the reply are stored only once the reply is complete.",
  access: ["admin"],
  params,
  body: aiChatPostBodySchema.refine((b) => (b.message === undefined) !== (b.messages === undefined), "send either message or messages"),
  response: aiChatReplySchema,
  errors: [...AI_ERRORS],
  // Each question is a paid model call: per owner (the owner's user id, or the admin key).
  rateLimit: { caller: "AI_CHAT_PER_OWNER" },
});

const encoder = new TextEncoder();
const sseEvent = (event: string, data: unknown) => encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);

const asKnown = (error: unknown): KnownError =>
  error instanceof KnownError
    ? error
    : new KnownError("AI_PROVIDER_ERROR", { message: error instanceof Error ? error.message : String(error) });

/**
 * Streams the reply as it comes. The provider accepted the call before this runs (its error status
 * was a JSON known error); a failure after the first byte ends the stream with an `error` event.
 */
function streamReply(chat: PreparedChat, pieces: AsyncIterable<ChatPiece>): Response {
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = writable.getWriter();
  const pump = async () => {
    let reply = "";
    let usage: ChatPiece["usage"] | null = null;
    try {
      for await (const piece of pieces) {
        if (piece.text) {
          reply += piece.text;
          await writer.write(sseEvent("delta", { text: piece.text }));
        }
        if (piece.usage) usage = piece.usage;
      }
      const counted = await chat.finish(reply, usage);
      await writer.write(
        sseEvent("done", {
          content: [{ type: "text", text: reply }],
          usage: { prompt_tokens: counted.promptTokens, completion_tokens: counted.completionTokens },
        }),
      );
    } catch (error) {
      // The caller went away (the write failed) or the provider broke off: nothing is stored.
      await writer.write(sseEvent("error", asKnown(error).toJSON())).catch(() => {});
    } finally {
      await writer.close().catch(() => {});
    }
  };
  // Not waitUntil: the response's body drives it, and the runtime keeps a request alive while its body streams.
  void pump();
  return new Response(readable, {
    status: 200,
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-store", "x-accel-buffering": "no" },
  });
}

export const internalAiChatRoutes = routeGroup();
addRoute(internalAiChatRoutes, getThread, async (c, { auth, params: p }) =>
  c.json({ messages: await readThread(c.get("deps"), threadKey(auth, p.thread_id)) }),
);
addRoute(internalAiChatRoutes, patchThread, async (c, { auth, params: p, body }) => {
  const deps = c.get("deps");
  const key = threadKey(auth, p.thread_id);
  if (body.messages) await replaceThread(deps, key, body.messages);
  else await appendToThread(deps, key, body.message);
  return c.json({});
});
addRoute(internalAiChatRoutes, postThread, async (c, { auth, params: p, body }) => {
  const message: AiChatMessage | undefined = typeof body.message === "string" ? { role: "user", content: body.message } : body.message;
  if (message && message.role !== "user") throw new KnownError("SCHEMA_ERROR", { message: "body.message must be a user message" });
  const chat = await prepareChat(c.get("deps"), auth, p.thread_id, {
    contextType: body.context_type ?? "project",
    message: message ? { role: "user", content: message.content } : undefined,
    messages: body.messages,
    apiOperations: apiSummaryLines(),
  });
  const wantsStream = body.stream ?? (c.req.header("accept") ?? "").includes("text/event-stream");
  if (wantsStream) return streamReply(chat, await chat.provider.stream(chat.turns));
  const { text, usage } = await chat.provider.complete(chat.turns);
  await chat.finish(text, usage);
  return c.json({ content: [{ type: "text" as const, text }] });
});

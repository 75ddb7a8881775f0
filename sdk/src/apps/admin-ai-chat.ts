/**
 * The console's AI assistant (issue 17): `/internal/ai-chat/{threadId}` (sdk/src/shared/wire-ai-chat.ts).
 * `askAssistant` is Doorman's stored-thread form, streamed; `sendChatMessage`, `saveChatMessage` and
 * `listChatMessages` are the reference's calls under the reference's names.
 */
import type { RequestOptions } from "../interface/http";
import { isKnownErrorCode, KnownError } from "../shared/known-errors";
import type { AiChatContent, AiChatContextType, AiChatMessage, AiChatReplyJson, AiChatUsageJson } from "../shared/wire-ai-chat";

type Request = <T>(path: string, options?: RequestOptions) => Promise<T>;

export type AiChatStoredMessage = AiChatMessage;
export type AiChatUsage = { promptTokens: number; completionTokens: number };
export type AssistantReply = { text: string; usage: AiChatUsage | null };
export type AskAssistantOptions = {
  contextType?: AiChatContextType;
  /** Each streamed piece, with the reply so far. */
  onDelta?: (piece: string, soFar: string) => void;
  signal?: AbortSignal;
};

const threadPath = (threadId: string) => `/internal/ai-chat/${encodeURIComponent(threadId)}`;

/** The text of a message's content: a string, or its text blocks joined. */
export function aiChatText(content: AiChatContent): string {
  if (typeof content === "string") return content;
  return content.map((b) => (b.type === "text" ? b.text : "")).join("");
}

export async function listChatMessages(request: Request, threadId: string): Promise<AiChatStoredMessage[]> {
  const json = await request<{ messages: AiChatStoredMessage[] }>(threadPath(threadId));
  return json.messages;
}

export async function saveChatMessage(request: Request, threadId: string, message: unknown): Promise<void> {
  await request(threadPath(threadId), { method: "PATCH", body: { message } });
}

export async function replaceChatMessages(request: Request, threadId: string, messages: AiChatStoredMessage[]): Promise<void> {
  await request(threadPath(threadId), { method: "PATCH", body: { messages } });
}

/** The reference's call: the whole conversation in, the reply's content blocks out; nothing is stored. */
export async function sendChatMessage(
  request: Request,
  threadId: string,
  contextType: AiChatContextType,
  messages: AiChatStoredMessage[],
): Promise<AiChatReplyJson> {
  return request<AiChatReplyJson>(threadPath(threadId), { body: { context_type: contextType, messages } });
}

type ServerSentEvent = { event: string; data: string };

/** Splits an event stream into events (the EventSource format: `event:` and `data:` lines, a blank line ends one). */
export async function* readServerSentEvents(body: ReadableStream<Uint8Array>, signal?: AbortSignal): AsyncGenerator<ServerSentEvent> {
  const reader = body.getReader();
  // Stopping cancels the body, so the server sees the reader gone (and stores no reply).
  const stop = () => reader.cancel(signal?.reason).catch(() => {});
  signal?.addEventListener("abort", stop, { once: true });
  const decoder = new TextDecoder();
  let buffer = "";
  let event = "message";
  let data: string[] = [];
  try {
    for (;;) {
      signal?.throwIfAborted();
      const { done, value } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let newline = buffer.search(/\r?\n/);
      while (newline >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(buffer[newline] === "\r" ? newline + 2 : newline + 1);
        if (line === "") {
          if (data.length > 0) yield { event, data: data.join("\n") };
          event = "message";
          data = [];
        } else if (line.startsWith("event:")) event = line.slice(6).trim();
        else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
        newline = buffer.search(/\r?\n/);
      }
    }
  } finally {
    signal?.removeEventListener("abort", stop);
    reader.releaseLock();
  }
}

function errorFromEvent(data: string): Error {
  const parsed = JSON.parse(data) as { code?: string; error?: string; details?: Record<string, unknown> };
  if (parsed.code && isKnownErrorCode(parsed.code)) return new KnownError(parsed.code, parsed.details as never, parsed.error);
  return new Error(parsed.error ?? "The assistant's reply failed.");
}

/**
 * Asks the assistant in a stored thread: the thread's messages and this one go to the model, and the
 * reply streams back through `onDelta`. The question and the reply are stored together once the reply
 * is complete; a failure stores nothing.
 */
export async function askAssistant(
  request: Request,
  threadId: string,
  text: string,
  options: AskAssistantOptions = {},
): Promise<AssistantReply> {
  const res = await request<Response | AiChatReplyJson>(threadPath(threadId), {
    body: { message: text, ...(options.contextType ? { context_type: options.contextType } : {}) },
    stream: true,
    signal: options.signal,
  });
  // A server (or proxy) that answered JSON instead of a stream: the whole reply at once.
  if (!(res instanceof Response)) {
    const whole = aiChatText(res.content);
    options.onDelta?.(whole, whole);
    return { text: whole, usage: null };
  }
  if (!res.body) throw new Error("The assistant answered without a body.");
  if (options.signal?.aborted) {
    await res.body.cancel(options.signal.reason).catch(() => {});
    options.signal.throwIfAborted();
  }
  let soFar = "";
  for await (const { event, data } of readServerSentEvents(res.body, options.signal)) {
    if (event === "delta") {
      const piece = (JSON.parse(data) as { text: string }).text;
      soFar += piece;
      options.onDelta?.(piece, soFar);
    } else if (event === "done") {
      const done = JSON.parse(data) as { content: AiChatReplyJson["content"]; usage: AiChatUsageJson | null };
      const usage = done.usage ? { promptTokens: done.usage.prompt_tokens, completionTokens: done.usage.completion_tokens } : null;
      return { text: aiChatText(done.content), usage };
    } else if (event === "error") throw errorFromEvent(data);
  }
  throw new Error("The assistant's reply ended before it was complete.");
}

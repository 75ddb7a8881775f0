/**
 * The console assistant (issue 17): threads per (project, owner), the turns sent to the model (system
 * prompt, history, the question), and what is kept once a reply is complete (the question and the
 * reply together, and the project's token use for the day).
 */
import { KnownError } from "@doorman/shared/known-errors";
import {
  AI_CHAT_MAX_MESSAGES,
  type AiChatContent,
  type AiChatContextType,
  type AiChatMessage,
  aiChatMessageSchema,
} from "@doorman/shared/wire-ai-chat";
import {
  aiUsageSince,
  appendThreadMessages,
  recordAiUsage,
  replaceThreadMessages,
  type ThreadKey,
  threadMessages,
} from "../../db/queries/ai-chat";
import type { ProjectRow } from "../../db/queries/projects";
import type { Deps } from "../deps";
import { getEmailDraft } from "../email/drafts";
import { renderedConfigOf } from "../project-config/cache";
import { openConfigSecret } from "../project-config/secrets";
import type { RequestAuth } from "../request-auth";
import { systemPrompt } from "./prompt";
import { type AiSettings, aiProviderConfigured, type ChatProvider, type ChatTurn, type ChatUsage, chatProvider } from "./provider";

/** How much of a stored thread goes to the model with a new question: the newest turns within this many characters. */
const HISTORY_CHAR_BUDGET = 48_000;

/** The thread's owner: the owner's user id, or the admin key (every admin-key caller shares its threads). */
export function ownerKeyOf(auth: RequestAuth): string {
  return auth.adminUserId ?? "admin-key";
}

export function threadKey(auth: RequestAuth, threadId: string): ThreadKey {
  return { projectId: auth.project.id, ownerKey: ownerKeyOf(auth), threadId };
}

export function readThread(deps: Deps, key: ThreadKey): Promise<unknown[]> {
  return threadMessages(deps.db, key);
}

export function appendToThread(deps: Deps, key: ThreadKey, message: unknown): Promise<void> {
  return appendThreadMessages(deps.db, key, [message], deps.now(), AI_CHAT_MAX_MESSAGES);
}

export function replaceThread(deps: Deps, key: ThreadKey, messages: unknown[]): Promise<void> {
  return replaceThreadMessages(deps.db, key, messages, deps.now());
}

/** The text of a message for the model: its text, with any tool call named. */
function contentText(content: AiChatContent): string {
  if (typeof content === "string") return content;
  return content.map((b) => (b.type === "text" ? b.text : `[tool call ${b.toolName}: ${b.argsText}]`)).join("\n");
}

/** The model's turns of stored or sent messages (tool results are the reference's editor's own; they are left out). */
function toTurns(messages: AiChatMessage[]): ChatTurn[] {
  return messages.filter((m) => m.role !== "tool").map((m) => ({ role: m.role as "user" | "assistant", content: contentText(m.content) }));
}

/** The newest stored messages that fit the budget (a stored message that is not a chat message is skipped). */
function recentHistory(stored: unknown[], budget = HISTORY_CHAR_BUDGET): AiChatMessage[] {
  const out: AiChatMessage[] = [];
  let chars = 0;
  for (let i = stored.length - 1; i >= 0; i--) {
    const parsed = aiChatMessageSchema.safeParse(stored[i]);
    if (!parsed.success) continue;
    chars += contentText(parsed.data.content).length;
    if (chars > budget) break;
    out.unshift(parsed.data);
  }
  return out;
}

/**
 * The reference's form sends the whole conversation with every question: the newest messages within
 * the same budget as a stored thread go to the model, the oldest are left out (the reference's
 * editor resends everything, so refusing a long conversation would end it).
 */
const recentMessages = (messages: AiChatMessage[]) => recentHistory(messages);

async function aiSettings(deps: Deps, project: ProjectRow): Promise<AiSettings> {
  const ai = renderedConfigOf(project).doorman.ai;
  return { ...ai, apiKey: await openConfigSecret(deps, ai.apiKey) };
}

/** Whether the assistant has a model in this project (its doorman.ai, else the deployment's default). */
export function assistantConfigured(deps: Deps, project: ProjectRow): boolean {
  return aiProviderConfigured(renderedConfigOf(project).doorman.ai, deps.config.ai, deps.env.AI);
}

/** For email contexts, the source being edited: the reference names it by the thread id. */
async function editedSource(deps: Deps, project: ProjectRow, contextType: AiChatContextType, id: string): Promise<string | null> {
  const config = renderedConfigOf(project);
  if (contextType === "email-theme") return config.emails.themes[id]?.tsxSource ?? null;
  if (contextType === "email-template") return config.emails.templates[id]?.tsxSource ?? null;
  if (contextType === "email-draft") return (await getEmailDraft(deps, project.id, id))?.tsxSource ?? null;
  return null;
}

export type ChatRequest = {
  contextType: AiChatContextType;
  /** The reference's form: the whole conversation, nothing stored. */
  messages?: AiChatMessage[];
  /** Doorman's form: one question in the stored thread. */
  message?: AiChatMessage;
  /** The API's operations for the system prompt, one line each (the route reads them from the API document). */
  apiOperations: string[];
};

export type PreparedChat = {
  provider: ChatProvider;
  turns: ChatTurn[];
  /** Keeps what a complete reply leaves: the question and the reply (thread form), and the token use. */
  finish(reply: string, usage: ChatUsage | null): Promise<ChatUsage>;
};

/** A rough count when the provider reports none: about four characters a token. */
const estimateTokens = (text: string) => Math.ceil(text.length / 4);

/** Resolves the provider (a known error when there is none) and assembles the turns. */
export async function prepareChat(deps: Deps, auth: RequestAuth, threadId: string, request: ChatRequest): Promise<PreparedChat> {
  const project = auth.project;
  const development = deps.config.environment === "development";
  const provider = chatProvider(await aiSettings(deps, project), deps.config.ai, deps.env.AI, development, deps.config.outbound.ai);
  const key = threadKey(auth, threadId);
  const conversation = request.message
    ? [...recentHistory(await readThread(deps, key)), request.message]
    : recentMessages(request.messages ?? []);
  const editing =
    request.contextType === "project"
      ? undefined
      : { id: threadId, source: await editedSource(deps, project, request.contextType, threadId) };
  const system = systemPrompt({
    project,
    config: renderedConfigOf(project),
    contextType: request.contextType,
    editing,
    apiOperations: request.apiOperations,
  });
  const turns: ChatTurn[] = [{ role: "system", content: system }, ...toTurns(conversation)];
  if (turns.length === 1) throw new KnownError("SCHEMA_ERROR", { message: "body.messages has no user or assistant message" });
  return {
    provider,
    turns,
    async finish(reply, usage) {
      const counted = usage ?? {
        promptTokens: estimateTokens(turns.map((t) => t.content).join("")),
        completionTokens: estimateTokens(reply),
      };
      const day = new Date(deps.now()).toISOString().slice(0, 10);
      const writes: Promise<void>[] = [recordAiUsage(deps.db, project.id, day, counted.promptTokens, counted.completionTokens)];
      if (request.message) {
        const answer: AiChatMessage = { role: "assistant", content: [{ type: "text", text: reply }] };
        writes.push(appendThreadMessages(deps.db, key, [request.message, answer], deps.now(), AI_CHAT_MAX_MESSAGES));
      }
      await Promise.all(writes);
      return counted;
    },
  };
}

/** The project's assistant use over the last 30 UTC days (today included). */
export function aiUsageLast30Days(deps: Deps, projectId: string) {
  const from = new Date(deps.now() - 29 * 86_400_000).toISOString().slice(0, 10);
  return aiUsageSince(deps.db, projectId, from);
}

/**
 * The console assistant's thread as the panel keeps it: the current thread id per project in
 * localStorage (so a reload finds the same conversation), and a stored message turned into what the
 * panel shows, whatever its content form (a string, or text and tool-call blocks).
 */
import type { AiChatStoredMessage } from "@doorman/sdk";

const storageKey = (projectId: string) => `doorman.assistant.thread.${projectId}`;

/** The project's current thread id, or null when the owner has not chatted here yet (or storage is off). */
export function readThreadId(projectId: string): string | null {
  try {
    return window.localStorage.getItem(storageKey(projectId));
  } catch {
    return null;
  }
}

/** A fresh thread id for the project, remembered as its current one. */
export function startThread(projectId: string): string {
  const id = crypto.randomUUID();
  try {
    window.localStorage.setItem(storageKey(projectId), id);
  } catch {
    // Storage refused (private mode, quota): the thread still works until the page is reloaded.
  }
  return id;
}

/** One message as the panel shows it: its text (markdown for replies) and notes for tool calls. */
export type ShownMessage = {
  key: string;
  role: AiChatStoredMessage["role"];
  text: string;
  toolNotes: string[];
};

type Block = { type?: unknown; text?: unknown; toolName?: unknown };

let nextKey = 0;

/**
 * A stored message as shown. The thread keeps messages as they were saved (the reference's PATCH
 * takes any JSON), so every field is read defensively; null for something that is not a message.
 */
export function shownMessage(message: unknown): ShownMessage | null {
  if (typeof message !== "object" || message === null) return null;
  const { role, content } = message as { role?: unknown; content?: unknown };
  const shownRole: ShownMessage["role"] = role === "user" || role === "assistant" ? role : "tool";
  const key = `m${++nextKey}`;
  if (typeof content === "string") return { key, role: shownRole, text: content, toolNotes: [] };
  const blocks: Block[] = Array.isArray(content) ? content.filter((b): b is Block => typeof b === "object" && b !== null) : [];
  const text = blocks
    .map((b) => (b.type === "text" && typeof b.text === "string" ? b.text : ""))
    .filter(Boolean)
    .join("\n\n");
  const toolNotes = blocks.flatMap((b) =>
    b.type !== "tool-call" ? [] : [typeof b.toolName === "string" && b.toolName ? `Used the tool ${b.toolName}.` : "Used a tool."],
  );
  return { key, role: shownRole, text, toolNotes };
}

/** The stored thread as shown, skipping anything that is not a message. */
export function shownThread(messages: unknown[]): ShownMessage[] {
  return messages.map(shownMessage).filter((m): m is ShownMessage => m !== null);
}

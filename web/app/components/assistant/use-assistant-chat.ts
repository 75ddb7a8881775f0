/**
 * The state of the assistant panel's conversation: the current thread (loaded once from the API),
 * the question being answered with its reply growing as it streams, Stop, New chat, and the
 * failure of the last question; New chat deletes the thread it leaves. askAssistant stores the question and the reply together once the
 * reply is complete, so a failed or stopped question is stored nowhere and goes back to the input.
 */

import { KnownError } from "@doorman/sdk";
import { useCallback, useEffect, useRef, useState } from "react";
import type { OwnedProject } from "../../lib/dashboard-types";
import { errorMessage } from "../../lib/project-context";
import { readThreadId, type ShownMessage, shownThread, startThread } from "./assistant-thread";

export type AssistantFailure = { message: string; notConfigured: boolean };

export type AssistantChat = {
  messages: ShownMessage[];
  /** True until the stored thread is read. */
  loading: boolean;
  loadError: string | null;
  /** The question being answered and the reply so far, while it streams. */
  pending: { question: string; reply: string } | null;
  failure: AssistantFailure | null;
  /** A short note after Stop. */
  notice: string | null;
  /** Asks `text`; false when it failed or was stopped (the caller puts the text back). */
  send(text: string): Promise<boolean>;
  stop(): void;
  newChat(): void;
};

function failureOf(error: unknown): AssistantFailure {
  const notConfigured = error instanceof KnownError && error.is("AI_PROVIDER_NOT_CONFIGURED");
  return { message: errorMessage(error, "The assistant could not answer. Try again."), notConfigured };
}

export function useAssistantChat(project: OwnedProject): AssistantChat {
  const projectId = project.id;
  // The layout hands a new project object after every config save: keep the latest app, load once per project.
  const app = useRef(project.app);
  app.current = project.app;
  const threadId = useRef<string | null>(null);
  const controller = useRef<AbortController | null>(null);
  const [messages, setMessages] = useState<ShownMessage[]>([]);
  const [loading, setLoading] = useState(true);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [pending, setPending] = useState<{ question: string; reply: string } | null>(null);
  const [failure, setFailure] = useState<AssistantFailure | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    const stored = readThreadId(projectId);
    threadId.current = stored;
    setMessages([]);
    setLoadError(null);
    if (!stored) {
      setLoading(false);
      return;
    }
    setLoading(true);
    // Still wanted: the project did not change and New chat did not start another thread.
    const wanted = () => live && threadId.current === stored;
    app.current
      .listChatMessages(stored)
      // Before anything asked meanwhile (its question and reply are stored after the thread was read).
      .then((list) => wanted() && setMessages((asked) => [...shownThread(list), ...asked]))
      .catch((e: unknown) => wanted() && setLoadError(errorMessage(e, "Could not load the conversation.")))
      .finally(() => wanted() && setLoading(false));
    return () => {
      live = false;
      controller.current?.abort();
    };
  }, [projectId]);

  const send = useCallback(
    async (text: string) => {
      const question = text.trim();
      if (!question || controller.current) return false;
      const thread = threadId.current ?? startThread(projectId);
      threadId.current = thread;
      const abort = new AbortController();
      controller.current = abort;
      setFailure(null);
      setNotice(null);
      setPending({ question, reply: "" });
      try {
        const reply = await app.current.askAssistant(thread, question, {
          signal: abort.signal,
          onDelta: (_piece, soFar) => setPending((p) => (p ? { ...p, reply: soFar } : p)),
        });
        setMessages((list) => [
          ...list,
          ...shownThread([
            { role: "user", content: question },
            { role: "assistant", content: reply.text },
          ]),
        ]);
        return true;
      } catch (e) {
        if (abort.signal.aborted) setNotice("Stopped. The question was not kept; it is back in the box.");
        else setFailure(failureOf(e));
        return false;
      } finally {
        if (controller.current === abort) controller.current = null;
        setPending(null);
      }
    },
    [projectId],
  );

  const stop = useCallback(() => controller.current?.abort(), []);

  const newChat = useCallback(() => {
    controller.current?.abort();
    // The console shows one thread per project, so the one left behind could never be opened again:
    // it is deleted rather than kept unreachable (a failure only leaves it stored).
    const previous = threadId.current;
    if (previous) app.current.replaceChatMessages(previous, []).catch(() => {});
    threadId.current = startThread(projectId);
    setMessages([]);
    setLoading(false);
    setLoadError(null);
    setFailure(null);
    setNotice(null);
  }, [projectId]);

  return { messages, loading, loadError, pending, failure, notice, send, stop, newChat };
}

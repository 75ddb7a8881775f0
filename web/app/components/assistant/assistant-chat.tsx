/**
 * The body of the assistant panel (loaded when the panel first opens, with the markdown renderer):
 * the conversation as a polite live log, the growing reply while it streams, the question box
 * (Enter sends, Shift+Enter starts a new line), Send or Stop, New chat, and the last failure. When the
 * project has no model (stats' aiConfigured), it says so up front, with the way to Settings → Assistant.
 */

import { AI_CHAT_MAX_MESSAGE_CHARS } from "@doorman/sdk";
import { Link } from "@remix-run/react";
import { type FormEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import type { OwnedProject } from "../../lib/dashboard-types";
import { AssistantMarkdown } from "./assistant-markdown";
import type { ShownMessage } from "./assistant-thread";
import { useAssistantChat } from "./use-assistant-chat";

function Message({ message }: { message: ShownMessage }) {
  const who = message.role === "user" ? "You" : message.role === "assistant" ? "Assistant" : "Tool";
  return (
    <div className={`assistant-message assistant-message-${message.role}`}>
      <p className="assistant-who">{who}</p>
      {message.text ? (
        message.role === "assistant" ? (
          <AssistantMarkdown text={message.text} />
        ) : (
          <p className="assistant-plain">{message.text}</p>
        )
      ) : null}
      {message.toolNotes.map((note, i) => (
        <p key={i} className="assistant-note">
          {note}
        </p>
      ))}
    </div>
  );
}

/** Whether the project's assistant has a model, re-read each time the panel opens (null: not known). */
function useAssistantConfigured(project: OwnedProject, open: boolean): boolean | null {
  const [configured, setConfigured] = useState<boolean | null>(null);
  useEffect(() => {
    if (!open) return;
    let live = true;
    project.app.getProjectStats().then(
      (stats) => live && setConfigured(stats.aiConfigured),
      // Unknown: the question box still works, and a failed question says what is wrong.
      () => live && setConfigured(null),
    );
    return () => {
      live = false;
    };
  }, [project, open]);
  return configured;
}

export default function AssistantChat({ project, open }: { project: OwnedProject; open: boolean }) {
  const chat = useAssistantChat(project);
  const configured = useAssistantConfigured(project, open);
  const [draft, setDraft] = useState("");
  const input = useRef<HTMLTextAreaElement>(null);
  const log = useRef<HTMLDivElement>(null);
  const inputId = useId();
  const hintId = useId();
  const streaming = chat.pending !== null;

  // Opening the panel puts the cursor in the question box.
  useEffect(() => {
    if (open) input.current?.focus();
  }, [open]);

  // When a reply ends, Stop goes away: if focus went with it, bring it back to the box.
  useEffect(() => {
    if (!streaming && open && document.activeElement === document.body) input.current?.focus();
  }, [streaming, open]);

  // Keep the newest text in view while it grows.
  const tail = chat.pending?.reply ?? chat.messages.length;
  useEffect(() => {
    void tail;
    const box = log.current;
    if (box) box.scrollTop = box.scrollHeight;
  }, [tail]);

  const ask = async () => {
    const text = draft;
    if (!text.trim() || streaming) return;
    setDraft("");
    // Send turns into Stop: the cursor stays in the box instead of falling to the page.
    input.current?.focus();
    const ok = await chat.send(text);
    // Nothing was stored: give the question back unless something new was typed meanwhile.
    if (!ok) setDraft((now) => (now === "" ? text : now));
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void ask();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      void ask();
    }
  };

  return (
    <div className="assistant-body">
      <div className="assistant-tools">
        <button
          type="button"
          className="btn btn-secondary btn-small"
          title="Start over; this conversation is deleted"
          onClick={() => {
            chat.newChat();
            setDraft("");
            input.current?.focus();
          }}
        >
          New chat
        </button>
      </div>
      {configured === false ? (
        <div className="alert assistant-setup" role="status" data-testid="assistant-not-configured">
          <p>No model is set up for the assistant in this project yet, so it cannot answer.</p>
          <p>
            <Link to={`/projects/${project.id}/settings#assistant`}>Choose a model provider in Settings → Assistant</Link>
          </p>
        </div>
      ) : null}
      <div ref={log} className="assistant-log" role="log" aria-live="polite" aria-busy={streaming} aria-label="Conversation">
        {chat.loading ? (
          <p className="muted">Loading the conversation…</p>
        ) : chat.loadError ? (
          <p className="alert">{chat.loadError}</p>
        ) : chat.messages.length === 0 && !chat.pending ? (
          <p className="muted assistant-empty">Ask how to set up sign-in, emails, payments or anything else about this project.</p>
        ) : null}
        {chat.messages.map((m) => (
          <Message key={m.key} message={m} />
        ))}
        {chat.pending ? (
          <>
            <Message message={{ key: "pending-question", role: "user", text: chat.pending.question, toolNotes: [] }} />
            <div className="assistant-message assistant-message-assistant" data-testid="assistant-streaming">
              <p className="assistant-who">Assistant</p>
              {chat.pending.reply ? <AssistantMarkdown text={chat.pending.reply} /> : <p className="muted">Thinking…</p>}
            </div>
          </>
        ) : null}
      </div>
      {chat.failure ? (
        <div className="alert assistant-failure" role="alert">
          <p>{chat.failure.message}</p>
          {chat.failure.notConfigured ? (
            <p>
              <Link to={`/projects/${project.id}/settings#assistant`}>Choose a model provider in Settings</Link>
            </p>
          ) : null}
        </div>
      ) : null}
      {chat.notice ? (
        <p className="muted" role="status">
          {chat.notice}
        </p>
      ) : null}
      <form className="assistant-form" onSubmit={onSubmit}>
        <label htmlFor={inputId}>Ask the assistant</label>
        <textarea
          ref={input}
          id={inputId}
          className="input"
          rows={3}
          value={draft}
          maxLength={AI_CHAT_MAX_MESSAGE_CHARS}
          aria-describedby={hintId}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
        />
        <p id={hintId} className="muted assistant-hint">
          Enter sends, Shift+Enter starts a new line.
        </p>
        <div className="form-actions">
          {/* Keyed apart: were one button reused, a click on Stop would end as a submit (Send) once the reply stops. */}
          {streaming ? (
            <button key="stop" type="button" className="btn btn-secondary" onClick={chat.stop}>
              Stop
            </button>
          ) : (
            <button key="send" type="submit" className="btn">
              Send
            </button>
          )}
        </div>
      </form>
    </div>
  );
}
